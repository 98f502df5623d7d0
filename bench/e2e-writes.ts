/**
 * bench/e2e.ts --writes: the write path, `POST /api/v1/tickets` and `PATCH /api/v1/tickets/{id}`
 * with their webhook events written, against the twin's same statements by hand
 * (bench/baseline-server.ts: the ticket, the event and its delivery rows, the NOTIFYs, in one
 * transaction). The organization gets one active webhook for ticket.created and ticket.updated,
 * so every write stores its event and a delivery. Its URL is a receiver in this process that
 * answers 204: the service also delivers each event (signing, one POST), which the twin does
 * not; that work falls in the service's figure. Loaded by autocannon, interleaved round by
 * round like the read pairs.
 */
import autocannon from "autocannon";
import { cpuMs, type Load, type Service, summary } from "./e2e-lib.ts";

interface Options {
  rounds: number;
  duration: number;
  connections: number;
  pids: { orgit: number; hand: number };
}

export async function writePath(
  service: Service,
  baseline: string,
  fixture: { key: string; organizationId: string },
  options: Options,
): Promise<void> {
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(null, { status: 204 }),
  });
  try {
    await subscribe(service, fixture.organizationId, `http://127.0.0.1:${receiver.port}/hook`);
    const ids = await ticketIds(service, fixture.key);
    const bodies = ["low", "medium", "high", "critical"].map((priority, i) =>
      JSON.stringify({
        title: `Written ticket ${i}`,
        description: "A ticket written by the write-path bench.",
        priority,
      }),
    );
    let n = 0;
    const pairs: { name: string; target: number; request: () => autocannon.Request }[] = [
      {
        name: "POST /api/v1/tickets",
        target: 0.8,
        request: () => ({ method: "POST", path: "/api/v1/tickets", body: bodies[n++ % 4] }),
      },
      {
        name: "PATCH /api/v1/tickets/{id}",
        target: 0.8,
        request: () => ({
          method: "PATCH",
          path: `/api/v1/tickets/${ids[n++ % ids.length]}`,
          body: JSON.stringify({ title: `Renamed ${n}` }),
        }),
      },
    ];
    const results = pairs.map(() => ({ orgit: [] as Load[], hand: [] as Load[] }));
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, pair] of pairs.entries()) {
        const sides = [
          async () =>
            results[i]?.orgit.push(await load(service.url, fixture.key, pair, options.pids.orgit)),
          async () =>
            results[i]?.hand.push(await load(baseline, fixture.key, pair, options.pids.hand)),
        ];
        if (round % 2 === 1) sides.reverse();
        for (const side of sides) await side();
      }
    }
    console.log("\nwrite path (one webhook subscribed: an event and a delivery row per write):");
    for (const [i, pair] of pairs.entries()) {
      const o = summary(results[i]?.orgit ?? []);
      const h = summary(results[i]?.hand ?? []);
      const ratio = o.rps / h.rps;
      console.log(
        `${pair.name.padEnd(29)} | ${o.text} | ${h.text} | ${ratio.toFixed(2).padStart(5)}  ≥ ${pair.target} ${ratio >= pair.target ? "met" : "MISSED"}  (CPU µs ${o.cpuUs.toFixed(0)} / ${h.cpuUs.toFixed(0)})`,
      );
    }
    function load(
      base: string,
      key: string,
      pair: (typeof pairs)[number],
      pid: number,
    ): Promise<Load> {
      return loadWrites(base, key, pair.request, pid, options);
    }
  } finally {
    receiver.stop(true);
  }
}

/** A member with scopes webhooks:write and tickets:read (the events' own) subscribes `url`. */
async function subscribe(service: Service, organizationId: string, url: string) {
  const hooks = await service.member({
    organizationId,
    scopes: ["webhooks:write", "tickets:read"],
  });
  const response = await fetch(`${service.url}/api/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${hooks.key}`, "content-type": "application/json" },
    body: JSON.stringify({ url, events: ["ticket.created", "ticket.updated"] }),
  });
  if (response.status !== 201)
    throw new Error(`subscribing: ${response.status} ${await response.text()}`);
}

/** Ids of the newest 200 tickets: the PATCHes go round them. */
async function ticketIds(service: Service, key: string): Promise<string[]> {
  const response = await fetch(`${service.url}/api/v1/tickets?limit=200`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const page = (await response.json()) as { data: { id: string }[] };
  return page.data.map((ticket) => ticket.id);
}

async function loadWrites(
  base: string,
  key: string,
  request: () => autocannon.Request,
  pid: number,
  options: Options,
): Promise<Load> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const cpuBefore = cpuMs(pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: options.connections,
        duration: options.duration,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        requests: [{ setupRequest: (r) => ({ ...r, ...request() }) }],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  if (statuses.size !== 1) console.warn(`  ${base}: statuses ${JSON.stringify([...statuses])}`);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    cpuMs: cpuMs(pid) - cpuBefore,
  };
}
