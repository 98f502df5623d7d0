/**
 * Load at a given rate, for the half-load p99 and the soak: wrk (Debian's package `wrk`) with
 * bench/paced.lua, which gives every connection a think time between an answer and its next
 * request. With 32 connections and a mean pause of 32 / rate − latency, the requests arrive at
 * about `rate` a second, spread over the second (each pause is drawn, so the connections never
 * fall into step).
 *
 * Why not the others: autocannon's `overallRate` lets each connection send its share of a
 * second as fast as it can when the second starts, then wait, so its "half load" was full load
 * for half of every second. hey's `-q` ticks, but the tickers of one hey process start together
 * and stay in step (32 requests at the same instant, every 32 / rate seconds), and hey costs
 * 84 µs of CPU a request on this machine: at the whoami half load (about 14,600 req/s) hey
 * took 1.15 of the 2 cores and could not hold the rate, so the service's p99 measured the
 * machine running out of CPU. wrk costs about 18 µs a request.
 *
 * The pause is calibrated: a 3 s run with a first guess gives the latency, and the measured run
 * uses 32 / rate − that latency. Like every closed-loop generator, a connection waits for its
 * answer, so a stall of the service lowers the rate instead of piling requests up: the achieved
 * rate is printed beside the target.
 *
 * wrk is found on the PATH; when it is missing and the bench runs as root on a Debian-like
 * machine, it is installed with `apt-get install -y wrk`. Otherwise the paced figures are
 * skipped with a line that says how to install it.
 */
import { spawn, spawnSync } from "node:child_process";

let found: string | null | undefined;
const SCRIPT = new URL("./paced.lua", import.meta.url).pathname;
const CALIBRATE_SECONDS = 3;

/** The wrk binary, installed on first use if possible; null when it cannot be had. */
export function wrk(): string | null {
  if (found !== undefined) return found;
  const which = () => spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).stdout.trim();
  found = which() || null;
  if (found) return found;
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).stdout.trim();
  if (root && apt) {
    console.log("wrk is not installed: apt-get install -y wrk");
    const install = () =>
      spawnSync("apt-get", ["install", "-y", "-q", "wrk"], { stdio: "ignore" }).status === 0;
    if (!install()) {
      // a machine whose package lists were never read knows no package yet
      spawnSync("apt-get", ["update", "-q"], { stdio: "ignore" });
      install();
    }
    found = which() || null;
  }
  if (!found)
    console.warn(
      "wrk (Debian package `wrk`) is not installed and could not be: the half-load p99 and the " +
        "soak are skipped. Install it with `apt-get install wrk`.",
    );
  return found;
}

export interface PacedLoad {
  /** answers a second */
  rate: number;
  /** milliseconds, over every answer */
  p50: number;
  p99: number;
  /** answers other than 2xx or 3xx, and requests that got no answer */
  non2xx: number;
  failed: number;
  /** the mean pause between an answer and a connection's next request */
  delayMs: number;
}

/** `rate` requests a second for `seconds` over `connections` keep-alive connections. */
export async function pacedLoad(
  target: string,
  key: string,
  rate: number,
  seconds: number,
  connections: number,
): Promise<PacedLoad> {
  const cycleMs = (connections / rate) * 1000;
  // a first guess of half a millisecond of latency, then what a short run measured
  const first = Math.max(0, cycleMs - 0.5);
  const trial = await run(target, key, first, CALIBRATE_SECONDS, connections);
  const latencyMs = (connections / trial.rate) * 1000 - first;
  return run(target, key, Math.max(0, cycleMs - latencyMs), seconds, connections);
}

/**
 * As many requests as `connections` keep-alive connections get answered (wrk, no pause); with
 * `body`, each request is a POST of that JSON.
 */
export function fullSpeed(
  target: string,
  key: string,
  seconds: number,
  connections: number,
  body?: string,
): Promise<PacedLoad> {
  return run(target, key, 0, seconds, connections, body);
}

async function run(
  target: string,
  key: string,
  delayMs: number,
  seconds: number,
  connections: number,
  body = "",
): Promise<PacedLoad> {
  const bin = wrk();
  if (!bin) throw new Error("wrk is not available");
  const args = ["-t", "2", "-c", String(connections), "-d", `${seconds}s`, "--timeout", "10s"];
  const child = spawn(bin, [...args, "-s", SCRIPT, target], {
    env: { ...process.env, WRK_DELAY_MS: delayMs.toFixed(3), WRK_KEY: key, WRK_BODY: body },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const text = Buffer.concat(chunks).toString("utf8");
  const line = text.split("\n").find((l) => l.startsWith('{"requests"'));
  if (code !== 0 || !line) throw new Error(`wrk exited with ${code}: ${text}`);
  const figures = JSON.parse(line) as {
    requests: number;
    seconds: number;
    p50: number;
    p99: number;
    non2xx: number;
    failed: number;
  };
  return {
    rate: figures.requests / figures.seconds,
    p50: figures.p50,
    p99: figures.p99,
    non2xx: figures.non2xx,
    failed: figures.failed,
    delayMs,
  };
}
