/**
 * The rate limiter's and quota's cost over real HTTP: server processes built with
 * `limits: false` (bare) or with the in-process buckets and the quota, each `Bun.serve` on a
 * loopback port over its own in-memory PGlite, driven by one keep-alive client that, each
 * round, loads every server in turn with all its concurrent requests (as a saturated server
 * would be: the once-a-second quota flush is then spread over many requests, as in
 * production). Each server reports its own CPU time (user + system) before and after its
 * share, so the figure is server CPU per request, which is what bounds its throughput; the
 * client's cost and scheduling drop out. Identical server processes
 * differ by several percent (each compiles its own code), so there are several a side and the
 * spread is printed; the figure is the median over rounds of the throughput lost.
 *
 *   npm run bench:http   (bun run bench/rate-limit-http.ts [requests per server and round=1000]
 *                         [rounds=40] [servers per side=3])
 */
import { createApp } from "../src/app.ts";
import { createDatabase } from "../src/db/client.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { createLogger } from "../src/logger.ts";
import { benchConfig, median, percent, provisionKey, spread, sum } from "./fixture.ts";

const CONCURRENCY = 16;

interface Ready {
  port: number;
  secret: string;
}

if (process.argv[2] === "serve") {
  await serve(process.argv[3] === "bare");
} else {
  await measure(
    Number(process.argv[2] ?? 1000),
    Number(process.argv[3] ?? 40),
    Number(process.argv[4] ?? 3),
  );
}

/** One server: the same configuration, organization, key and route as bench/rate-limit.ts. */
async function serve(bare: boolean) {
  const database = await createDatabase({});
  const logger = createLogger("silent");
  const app = await createApp({
    config: benchConfig,
    database,
    logger,
    limits: !bare,
    quotaSyncMs: Number(process.env.SYNC_MS ?? 1000),
    webhooks: false,
  });
  const { secret } = await provisionKey(app);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
  });
  process.on("message", () => {
    const used = process.cpuUsage();
    process.send?.({ cpu: used.user + used.system });
  });
  process.on("SIGTERM", () => process.exit(0));
  process.send?.({ port: Number(server.port), secret } satisfies Ready);
}

interface Server {
  url: string;
  secret: string;
  /** the server's own CPU time so far, microseconds */
  cpu(): Promise<number>;
  stop(): void;
}

function start(kind: "bare" | "limited"): Promise<Server> {
  return new Promise((resolve, reject) => {
    let answer: ((micros: number) => void) | undefined;
    const child = Bun.spawn([process.execPath, "run", import.meta.path, "serve", kind], {
      stdout: "inherit",
      stderr: "inherit",
      ipc(message: Partial<Ready> & { cpu?: number }) {
        if (message.cpu !== undefined) answer?.(message.cpu);
        else if (message.port && message.secret) {
          resolve({
            url: `http://127.0.0.1:${message.port}/api/v1/whoami`,
            secret: message.secret,
            cpu: () =>
              new Promise((done) => {
                answer = done;
                child.send("cpu");
              }),
            stop: () => child.kill("SIGTERM"),
          });
        }
      },
    });
    child.exited.then((code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function measure(perServer: number, rounds: number, perSide: number) {
  const servers: Server[] = [];
  for (let i = 0; i < perSide; i++) servers.push(await start("bare"));
  for (let i = 0; i < perSide; i++) servers.push(await start("limited"));
  /** `perServer` requests to one server, all clients at once: its CPU per request, µs */
  const burst = async (server: Server) => {
    const before = await server.cpu();
    let left = perServer;
    const worker = async () => {
      while (left-- > 0) {
        const response = await fetch(server.url, {
          headers: { authorization: `Bearer ${server.secret}` },
        });
        if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return ((await server.cpu()) - before) / perServer;
  };
  /** every server in turn (the order rotates from round to round) */
  const run = async (offset: number) => {
    const cpu = servers.map(() => 0);
    for (let i = 0; i < servers.length; i++) {
      const k = (offset + i) % servers.length;
      cpu[k] = await burst(servers[k] as Server);
    }
    return cpu;
  };
  for (let i = 0; i < 3; i++) await run(i); // warm (JIT, key cache, quota totals loaded)
  const totals = servers.map(() => 0);
  const losses: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const cpu = await run(round);
    cpu.forEach((micros, i) => {
      totals[i] = (totals[i] as number) + micros;
    });
    losses.push(1 - sum(cpu.slice(0, perSide)) / sum(cpu.slice(perSide)));
  }
  const bare = totals.slice(0, perSide).map((t) => t / rounds);
  const limited = totals.slice(perSide).map((t) => t / rounds);
  console.log(
    `GET /api/v1/whoami over HTTP, ${perSide} server processes a side, each loaded in turn with ${CONCURRENCY} concurrent keep-alive requests, ${rounds} rounds of ${perServer} requests per server`,
  );
  console.log(
    `  bare route        ${(sum(bare) / perSide).toFixed(1).padStart(6)} µs server CPU/request`,
  );
  console.log(
    `  limiter + quota   ${(sum(limited) / perSide).toFixed(1).padStart(6)} µs server CPU/request`,
  );
  console.log(
    `  throughput lost to the limiter: ${percent(median(losses))} (target < 10%; median of ${rounds} rounds)`,
  );
  console.log(
    `  noise floor: identical servers differ by up to ${percent(spread(bare))} (bare), ${percent(spread(limited))} (limited)`,
  );
  for (const server of servers) server.stop();
  process.exit(0);
}
