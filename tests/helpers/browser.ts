import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";

/**
 * A headless Chromium for the browser tests: the one `@sparticuz/chromium` ships inside its npm
 * package, so a fresh `npm install` brings it and no browser download is needed. Driven by
 * playwright-core. The flags keep it off the network (this machine has none beyond loopback).
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
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

/** Where browser tests save screenshots of the main states (CI keeps the folder as artifacts). */
export const SCREENSHOT_DIR = new URL("../../test-artifacts/screenshots/", import.meta.url)
  .pathname;
