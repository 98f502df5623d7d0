/**
 * The rate limiter's and quota's cost over real HTTP: two server processes (one built with
 * `limits: false`, one with the in-process buckets and the quota), each `Bun.serve` on a
 * loopback port over its own in-memory PGlite, driven in alternating rounds by one keep-alive
 * client. Each server reports its own CPU time (user + system) before and after a round, so
 * the figure is server CPU per request, which is what bounds its throughput; the client's
 * cost and scheduling drop out. The median of the rounds' paired ratios is printed.
 *
 *   npm run bench:http       (bun run bench/rate-limit-http.ts [requests per round] [rounds])
 */
import { createApp } from "../src/app.ts";
import { createDatabase } from "../src/db/client.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { createLogger } from "../src/logger.ts";
import { benchConfig, provisionKey } from "./fixture.ts";

const CONCURRENCY = 16;

interface Ready {
  port: number;
  secret: string;
}

if (process.argv[2] === "serve") {
  await serve(process.argv[3] === "bare");
} else {
  await measure(Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 60));
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
    webhooks: false,
  });
  const secret = await provisionKey(app);
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

async function measure(perRound: number, rounds: number) {
  const servers = { bare: await start("bare"), limited: await start("limited") };
  const run = async (server: Server) => {
    const before = await server.cpu();
    let left = perRound;
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
    return ((await server.cpu()) - before) / perRound;
  };
  // warm both (JIT, key cache, quota totals loaded) before measuring
  for (let i = 0; i < 3; i++) {
    await run(servers.bare);
    await run(servers.limited);
  }
  const cpu = { bare: [] as number[], limited: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    // alternate which goes first so drift does not favour one side
    const order = round % 2 === 0 ? (["bare", "limited"] as const) : (["limited", "bare"] as const);
    for (const kind of order) cpu[kind].push(await run(servers[kind]));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const ratio = median(cpu.bare.map((b, i) => b / (cpu.limited[i] ?? Number.NaN)));
  console.log(
    `GET /api/v1/whoami over HTTP, ${CONCURRENCY} concurrent keep-alive clients, ${rounds} paired rounds of ${perRound} requests (medians)`,
  );
  console.log(
    `  bare route        ${median(cpu.bare).toFixed(1).padStart(6)} µs server CPU/request`,
  );
  console.log(
    `  limiter + quota   ${median(cpu.limited).toFixed(1).padStart(6)} µs server CPU/request`,
  );
  console.log(
    `  throughput limited/bare: ${ratio.toFixed(3)}, overhead ${((1 - ratio) * 100).toFixed(1)}% (target < 10%): median of the paired rounds' ratios of server CPU per request`,
  );
  servers.bare.stop();
  servers.limited.stop();
  process.exit(0);
}
