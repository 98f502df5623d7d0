/**
 * Paced load for the half-load p99 and the soak: hey (Debian's package `hey`). autocannon's
 * `overallRate` is not a pace: each connection sends its share of a second as fast as it can
 * when the second starts, then waits for the next one, so "half load" was full load for half
 * of every second and its p99 was a full-load p99. hey's `-q` gives each of its workers a
 * ticker instead (one request every connections / rate seconds per worker), so the requests
 * arrive evenly spread over the second.
 *
 * hey is found on the PATH; when it is missing and the bench runs as root on a Debian-like
 * machine, it is installed with `apt-get install -y hey` (the package is ~3 MB). Otherwise the
 * paced figures are skipped with a line that says how to install it.
 */
import { spawn, spawnSync } from "node:child_process";

let found: string | null | undefined;

/** The hey binary, installed on first use if possible; null when it cannot be had. */
export function hey(): string | null {
  if (found !== undefined) return found;
  const which = () => spawnSync("sh", ["-c", "command -v hey"], { encoding: "utf8" }).stdout.trim();
  found = which() || null;
  if (found) return found;
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).stdout.trim();
  if (root && apt) {
    console.log("hey is not installed: apt-get install -y hey");
    const install = () =>
      spawnSync("apt-get", ["install", "-y", "-q", "hey"], { stdio: "ignore" }).status === 0;
    if (!install()) {
      // a machine whose package lists were never read knows no package yet
      spawnSync("apt-get", ["update", "-q"], { stdio: "ignore" });
      install();
    }
    found = which() || null;
  }
  if (!found)
    console.warn(
      "hey (a paced HTTP load generator, Debian package `hey`) is not installed and could not be: " +
        "the half-load p99 and the soak are skipped. Install it with `apt-get install hey`.",
    );
  return found;
}

export interface PacedLoad {
  /** answers a second, as hey counted them */
  rate: number;
  p50: number;
  p99: number;
  /** answers by status; hey's "Error distribution" (timeouts, refused connections) under 0 */
  statuses: Map<number, number>;
}

/**
 * `rate` requests a second for `seconds`, spread over `connections` keep-alive workers, each
 * paced by its own ticker. hey's summary: answers a second, p50 and p99 (to 0.1 ms, over at most
 * its first 1,000,000 answers), statuses.
 */
export async function pacedLoad(
  target: string,
  key: string,
  rate: number,
  seconds: number,
  connections: number,
): Promise<PacedLoad> {
  const bin = hey();
  if (!bin) throw new Error("hey is not available");
  const workers = Math.max(1, Math.min(connections, Math.floor(rate)));
  const args = ["-z", `${seconds}s`, "-c", String(workers), "-q", (rate / workers).toFixed(3)];
  if (key) args.push("-H", `Authorization: Bearer ${key}`);
  const child = spawn(bin, [...args, "-t", "10", target], { stdio: ["ignore", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const text = Buffer.concat(chunks).toString("utf8");
  if (code !== 0) throw new Error(`hey exited with ${code}: ${text}`);
  const latencyMs = (label: string) => {
    const match = text.match(new RegExp(`${label} in ([\\d.]+) secs`));
    if (!match) throw new Error(`hey printed no ${label} latency:\n${text}`);
    return Number(match[1]) * 1000;
  };
  const statuses = new Map<number, number>();
  for (const [, status, count] of text.matchAll(/\[(\d+)\]\s+(\d+) responses/g))
    statuses.set(Number(status), Number(count));
  const errors = text.split("Error distribution:")[1];
  if (errors)
    for (const [, count] of errors.matchAll(/\[(\d+)\]/g))
      statuses.set(0, (statuses.get(0) ?? 0) + Number(count));
  return {
    rate: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
    p50: latencyMs("50%"),
    p99: latencyMs("99%"),
    statuses,
  };
}
