import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";

/**
 * A headless Chromium for the browser tests: the one `@sparticuz/chromium` ships inside its npm
 * package, so a fresh `npm install` brings it and no browser download is needed. Driven by
 * playwright-core. The flags keep it off the network (this machine has none beyond loopback).
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await unpackedChromium();
  return playwright.launch({
    executablePath,
    headless: true,
    args: [
      ...chromium.args,
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** held (a file naming its process) while one process unpacks Chromium into the OS temp folder */
const UNPACK_LOCK = join(tmpdir(), "orgit-chromium-unpack.lock");

/**
 * `chromium.executablePath()` unpacks the browser into the OS temp folder on first use (about 3 s)
 * and, once /tmp/chromium exists, answers that path at once, even while another process is still
 * writing it. `npm test` runs two files at a time (`bun test --parallel=2`), so two browser suites
 * starting together could launch a half-written binary: the first to take this lock unpacks, the
 * others wait for it and then find the files complete. A lock whose process is gone (killed while
 * unpacking) is taken over.
 */
async function unpackedChromium(): Promise<string> {
  for (;;) {
    try {
      writeFileSync(UNPACK_LOCK, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockAbandoned()) rmSync(UNPACK_LOCK, { force: true });
      else await Bun.sleep(100);
    }
  }
  try {
    return await chromium.executablePath();
  } finally {
    rmSync(UNPACK_LOCK, { force: true });
  }
}

function lockAbandoned(): boolean {
  try {
    const holder = Number(readFileSync(UNPACK_LOCK, "utf8"));
    // an empty file is a lock being taken this instant, unless it stayed empty
    if (!holder) return Date.now() - statSync(UNPACK_LOCK).mtimeMs > 10_000;
    process.kill(holder, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process; ENOENT: released meanwhile, so nothing to take over
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Where browser tests save screenshots of the main states (CI keeps the folder as artifacts). */
export const SCREENSHOT_DIR = new URL("../../test-artifacts/screenshots/", import.meta.url)
  .pathname;
