/**
 * Paced load for the half-load p99 and the soak: hey (Debian's package `hey`). autocannon's
 * `overallRate` is not a pace: each connection sends its share of a second as fast as it can
 * when the second starts, then waits for the next one, so "half load" was full load for half
 * of every second and its p99 was a full-load p99. hey's `-q` gives each worker a ticker (one
 * request every workers / rate seconds), but the tickers of one hey process start together and
 * stay in step, so 32 workers send 32 requests at the same instant, every 32 / rate seconds:
 * bursts again, each as long as 32 requests' work (a tickets page at 1,400 req/s: p50 7.7 ms
 * with one hey of 32 workers, 1.5 ms with the same 32 connections spread over the period).
 * So the load is several hey processes of a few workers each, started at even offsets across
 * one tick: for 32 connections, 8 processes of 4 workers (bursts of 4, at 8 phases of each
 * period) up to 8,000 req/s, 4 × 8 up to 16,000, 2 × 16 above. More processes spread the load
 * further but cost the generator more: on this 2-core machine, beside the service, 16 or 32
 * hey processes could not hold 10,000 req/s and 8 could not always hold 14,000; 4 could.
 *
 * hey is found on the PATH; when it is missing and the bench runs as root on a Debian-like
 * machine, it is installed with `apt-get install -y hey` (the package is ~3 MB). Otherwise the
 * paced figures are skipped with a line that says how to install it.
 */
import { spawn, spawnSync } from "node:child_process";
import { percentile } from "./e2e-lib.ts";

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
  /** answers a second, all processes together */
  rate: number;
  /** milliseconds, over every answer (hey writes each one's time to 0.1 ms); with `summary`,
   * the highest of the processes' own figures, an upper bound */
  p50: number;
  p99: number;
  /** answers by status (hey leaves requests that got no answer out: compare `rate`) */
  statuses: Map<number, number>;
}

/** hey processes for a rate: 8 up to 8,000 req/s, 4 up to 16,000, 2 above (see above) */
const processesFor = (rate: number) => (rate <= 8_000 ? 8 : rate <= 16_000 ? 4 : 2);

/**
 * `rate` requests a second for `seconds` over `connections` keep-alive connections: a few hey
 * processes (`processesFor`), each pacing its workers with their own tickers, started at even
 * offsets across one tick so that their bursts interleave. Every answer's latency and status, from hey's CSV;
 * with `summary` (a long soak: millions of answers), each process's own summary instead.
 */
export async function pacedLoad(
  target: string,
  key: string,
  rate: number,
  seconds: number,
  connections: number,
  summary = false,
): Promise<PacedLoad> {
  const bin = hey();
  if (!bin) throw new Error("hey is not available");
  const processes = Math.max(1, Math.min(processesFor(rate), connections));
  const workers = Math.max(1, Math.round(connections / processes));
  const perWorker = rate / (processes * workers);
  const tickMs = 1000 / perWorker;
  const runs = Array.from({ length: processes }, async (_, i) => {
    await Bun.sleep((i * tickMs) / processes);
    const args = ["-z", `${seconds}s`, "-c", String(workers), "-q", perWorker.toFixed(3)];
    if (key) args.push("-H", `Authorization: Bearer ${key}`);
    return heyOutput(bin, [...args, "-t", "10", ...(summary ? [] : ["-o", "csv"]), target]);
  });
  const outputs = await Promise.all(runs);
  return summary ? fromSummaries(outputs) : fromCsv(outputs, seconds);
}

function fromCsv(outputs: string[], seconds: number): PacedLoad {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  for (const csv of outputs) {
    // response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
    for (const line of csv.split("\n").slice(1)) {
      const fields = line.split(",");
      if (fields.length < 8) continue;
      latencies.push(Number(fields[0]) * 1000);
      const status = Number(fields[6]);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  }
  return {
    rate: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    statuses,
  };
}

function fromSummaries(outputs: string[]): PacedLoad {
  const statuses = new Map<number, number>();
  let [rate, p50, p99] = [0, 0, 0];
  for (const text of outputs) {
    const ms = (label: string) =>
      Number(text.match(new RegExp(`${label} in ([\\d.]+) secs`))?.[1] ?? Number.NaN) * 1000;
    rate += Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN);
    p50 = Math.max(p50, ms("50%"));
    p99 = Math.max(p99, ms("99%"));
    for (const [, status, count] of text.matchAll(/\[(\d+)\]\s+(\d+) responses/g))
      statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + Number(count));
  }
  return { rate, p50, p99, statuses };
}

async function heyOutput(bin: string, args: string[]): Promise<string> {
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`hey exited with ${code}`);
  return Buffer.concat(chunks).toString("utf8");
}
