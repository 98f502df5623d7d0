/**
 * bench/e2e.ts's `/graphql` pair: a dashboard's repeated tickets query, POSTed to `/graphql`,
 * against `GET /api/v1/tickets?limit=50`, both on the service (not the twin), with the same
 * key, the same organization and the same fields (the REST route's ListTickets operation,
 * src/graphql/operations/tickets.graphql). The query is compiled by graphql-jit from its second
 * execution on (src/graphql/repeat-compiler.ts), so the load measures the compiled path; the
 * target is ≥ 0.8 of the REST route (docs/performance.md). Loaded by autocannon and by wrk (a POST body
 * through bench/paced.lua's WRK_BODY), interleaved round by round, with the server process's
 * CPU per request, which is steadier than req/s on a shared machine.
 */
import autocannon from "autocannon";
import { cpuMs, type Load, type Service, summary } from "./e2e-lib.ts";
import { fullSpeed, wrk } from "./paced.ts";

export const REST_TICKETS = "/api/v1/tickets?limit=50";

/** The REST route's fields, asked as a dashboard would: a named operation with its variables. */
const TICKETS_QUERY = `query Tickets($limit: Int) {
  tickets(limit: $limit) {
    data { id title status priority equipmentId createdBy createdAt }
    pagination { total limit offset nextCursor }
  }
}`;
export const TICKETS_BODY = JSON.stringify({
  query: TICKETS_QUERY,
  operationName: "Tickets",
  variables: { limit: 50 },
});

interface Options {
  rounds: number;
  duration: number;
  connections: number;
}

const TARGET = 0.8;
const NAME = "POST /graphql tickets query (repeated)";

export async function graphqlPair(service: Service, key: string, options: Options) {
  await sameTickets(service, key);
  const pid = service.pid();
  const sides = {
    graphql: [] as Load[],
    rest: [] as Load[],
    wrkGraphql: [] as Load[],
    wrkRest: [] as Load[],
  };
  const graphql = `${service.url}/graphql`;
  const rest = `${service.url}${REST_TICKETS}`;
  for (let round = 0; round < options.rounds; round++) {
    const runs = [
      async () =>
        sides.graphql.push(await autocannonLoad(graphql, key, options, pid, TICKETS_BODY)),
      async () => sides.rest.push(await autocannonLoad(rest, key, options, pid)),
    ];
    if (wrk()) {
      runs.push(
        async () => sides.wrkGraphql.push(await wrkLoad(graphql, key, options, pid, TICKETS_BODY)),
        async () => sides.wrkRest.push(await wrkLoad(rest, key, options, pid)),
      );
    }
    if (round % 2 === 1) runs.reverse(); // neither side always runs first
    for (const run of runs) await run();
  }

  const verdict = (ratio: number) => `≥ ${TARGET} ${ratio >= TARGET ? "met" : "MISSED"}`;
  console.log("\n/graphql against REST, both on orgit (the same key, organization and fields):");
  console.log(
    `${"pair".padEnd(38)} |     graphql req/s  p50   p99 |        REST req/s  p50   p99 | ratio  target`,
  );
  const g = summary(sides.graphql);
  const r = summary(sides.rest);
  const ratio = g.rps / r.rps;
  console.log(
    `${NAME.padEnd(38)} | ${g.text}    | ${r.text}    | ${ratio.toFixed(2).padStart(5)}  ${verdict(ratio)}`,
  );
  if (wrk()) {
    const wg = summary(sides.wrkGraphql);
    const wr = summary(sides.wrkRest);
    const wrkRatio = wg.rps / wr.rps;
    console.log(
      `${"  the same by wrk (-t2)".padEnd(38)} | graphql ${Math.round(wg.rps).toString().padStart(7)} | REST ${Math.round(wr.rps).toString().padStart(7)} | ${wrkRatio.toFixed(2).padStart(5)}  ${verdict(wrkRatio)}  (CPU µs ${wg.cpuUs.toFixed(0)} / ${wr.cpuUs.toFixed(0)})`,
    );
  }
  console.log(
    `  server process CPU per request (µs, autocannon): graphql ${g.cpuUs.toFixed(0)}  REST ${r.cpuUs.toFixed(0)}  REST / graphql ${(r.cpuUs / g.cpuUs).toFixed(2)}`,
  );
}

/** Both routes answer the same 50 tickets: the pair compares like with like. */
async function sameTickets(service: Service, key: string) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const rest = await fetch(`${service.url}${REST_TICKETS}`, { headers });
  const graphql = await fetch(`${service.url}/graphql`, {
    method: "POST",
    headers,
    body: TICKETS_BODY,
  });
  const page = (await rest.json()) as { data: { id: string }[] };
  const answer = (await graphql.json()) as { data?: { tickets: { data: { id: string }[] } } };
  const ids = (list: { id: string }[] | undefined) => (list ?? []).map((t) => t.id).join();
  if (
    rest.status !== 200 ||
    graphql.status !== 200 ||
    ids(page.data) !== ids(answer.data?.tickets.data)
  )
    throw new Error(
      `/graphql and REST disagree: ${graphql.status} ${JSON.stringify(answer).slice(0, 300)}`,
    );
}

/** One autocannon run at full speed (a POST of `body` when given), with the server's CPU time. */
export async function autocannonLoad(
  target: string,
  key: string,
  options: Omit<Options, "rounds">,
  pid?: number,
  body?: string,
): Promise<Load> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body) headers["content-type"] = "application/json";
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target,
        connections: options.connections,
        duration: options.duration,
        headers,
        ...(body ? { method: "POST" as const, body } : {}),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  if (statuses.size !== 1 || !statuses.has(200))
    console.warn(`  ${target}: statuses ${JSON.stringify([...statuses])}`);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    cpuMs: pid ? cpuMs(pid) - cpuBefore : 0,
  };
}

async function wrkLoad(
  target: string,
  key: string,
  options: Options,
  pid: number,
  body?: string,
): Promise<Load> {
  const cpuBefore = cpuMs(pid);
  const run = await fullSpeed(target, key, options.duration, options.connections, body);
  if (run.failed + run.non2xx > 0)
    console.warn(`  ${target}: ${run.non2xx} not 2xx, ${run.failed} without an answer`);
  // wrk reports percentiles, not every latency: p50 and p99 stand in for the list
  return {
    requests: Math.round(run.rate * options.duration),
    seconds: options.duration,
    latencies: [run.p50, run.p99],
    cpuMs: cpuMs(pid) - cpuBefore,
  };
}
