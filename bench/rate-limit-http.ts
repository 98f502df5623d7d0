/**
 * The rate limiter's and quota's cost over real HTTP. Server processes of the three sides of
 * bench/rate-limit.ts (bare, headers only, limiter + quota), each `Bun.serve` on a loopback
 * port over its own in-memory PGlite, are driven by one keep-alive client that, each round,
 * loads every server in turn with all its concurrent requests. Each server reports its own CPU
 * time (user + system) before and after its share, so the figure is server CPU per request,
 * which is what bounds its throughput; the client's cost and scheduling drop out. Identical
 * server processes differ by several percent (each compiles its own code), so there are
 * several a side and the spread is printed; each figure is the median over rounds.
 *
 *   npm run bench:http   (bun run bench/rate-limit-http.ts [requests per server and round=1000]
 *                         [rounds=40] [servers per side=3])
 */
import { createApp } from "../src/app.ts";
import { createDatabase } from "../src/db/client.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { createLogger } from "../src/logger.ts";
import {
  benchConfig,
  FixedBuckets,
  FixedQuota,
  provisionKey,
  SIDES,
  type Side,
  SideFigures,
} from "./fixture.ts";

const CONCURRENCY = 16;

interface Ready {
  port: number;
  secret: string;
}

if (process.argv[2] === "serve") {
  await serve(process.argv[3] as Side);
} else {
  await measure(
    Number(process.argv[2] ?? 1000),
    Number(process.argv[3] ?? 40),
    Number(process.argv[4] ?? 3),
  );
}

/** One server: the same configuration, organization, key and route as bench/rate-limit.ts. */
async function serve(side: Side) {
  const database = await createDatabase({});
  const logger = createLogger("silent");
  const app = await createApp({
    config: benchConfig,
    database,
    logger,
    limits: side !== "bare",
    ...(side === "headers" ? { limiter: new FixedBuckets(), quota: new FixedQuota() } : {}),
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

function start(kind: Side): Promise<Server> {
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
  for (const side of SIDES) for (let i = 0; i < perSide; i++) servers.push(await start(side));
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
  const figures = new SideFigures(perSide);
  for (let round = 0; round < rounds; round++) figures.add(await run(round));
  console.log(
    `GET /api/v1/whoami over HTTP, ${perSide} server processes a side, each loaded in turn with ${CONCURRENCY} concurrent keep-alive requests, ${rounds} rounds of ${perServer} requests per server`,
  );
  figures.report(
    (micros) => micros / rounds,
    "µs server CPU/request",
    `${rounds} rounds`,
    "servers",
  );
  for (const server of servers) server.stop();
  process.exit(0);
}
