import type { startReceiver } from "../tests/helpers/webhook-receiver.ts";
import type { Cluster } from "./soak-cluster.ts";

/** The soak's probes, its checks after the load, and its report (bench/soak.ts). */
export interface Sample {
  kind: string;
  /** ms since the load began */
  at: number;
  ms: number;
  /** 0: no answer (the connection failed) */
  status: number;
  retryAfter: string | null;
}
export interface Fault {
  name: string;
  start: number;
  end: number;
}
export interface Probe {
  at: number;
  instance: number;
  replicaState?: string;
  reads?: { replica: number; primary: number; fallback: number };
  rssKb?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function rssKb(pid: number): number | undefined {
  const out = Bun.spawnSync(["ps", "-o", "rss=", "-p", String(pid)])
    .stdout.toString()
    .trim();
  return out ? Number(out) : undefined;
}

/** every second: each instance's /readyz (replica state, where reads went); every 5 s its RSS */
export async function sampleProbes(
  cluster: Cluster,
  probes: Probe[],
  now: () => number,
  running: () => boolean,
): Promise<void> {
  for (let tick = 0; running(); tick++) {
    await Promise.all(
      cluster.instances.map(async (instance, index) => {
        const probe: Probe = { at: now(), instance: index };
        try {
          const response = await fetch(`${instance.process.base}/readyz`, {
            signal: AbortSignal.timeout(900),
          });
          const body = (await response.json()) as {
            replicas?: { state: string }[];
            reads?: Probe["reads"];
          };
          probe.replicaState = body.replicas?.[0]?.state;
          probe.reads = body.reads;
        } catch {
          // a killed or starting instance: no probe
        }
        if (tick % 5 === 0 && instance.process.alive()) probe.rssKb = rssKb(instance.process.pid);
        probes.push(probe);
      }),
    );
    await Bun.sleep(1_000);
  }
}

async function orgKey(cluster: Cluster, name: string, organization: Record<string, unknown>) {
  const process = cluster.instances[0]?.process;
  if (!process) throw new Error("no instance");
  const { secret } = await process.provisionKey({
    organization: { name, ...organization },
    user: {
      email: `${name.replaceAll(" ", ".").toLowerCase()}@example.com`,
      firstName: "S",
      lastName: "K",
    },
    key: { name, scopes: ["tickets:read", "projects:read"], expiresIn: "NEVER" },
  });
  return { authorization: `Bearer ${secret}` };
}

/**
 * `count` GETs spread over the three instances directly, `concurrency` at a time, and at most
 * `perSecond` a second when given
 */
async function spread(
  cluster: Cluster,
  path: string,
  headers: Record<string, string>,
  count: number,
  concurrency: number,
  perSecond = Number.POSITIVE_INFINITY,
) {
  const statuses: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        await Bun.sleep(Math.max(0, started + (i * 1000) / perSecond - performance.now()));
        const instance = cluster.instances[i % 3];
        const response = await fetch(`${instance?.process.base}${path}`, { headers });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    }),
  );
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

export interface SharedLimit {
  limit: number;
  sent: number;
  ok: number;
  limited: number;
  seconds: number;
  /** the tokens the bucket refilled meanwhile (limit per minute × seconds / 60) */
  refill: number;
}

/** a FREE organization's plan limit (100 a minute on /api) across the three instances */
export async function checkSharedLimit(cluster: Cluster): Promise<SharedLimit> {
  const headers = await orgKey(cluster, "soak free co", { plan: "FREE" });
  const { statuses, seconds } = await spread(cluster, "/api/projects", headers, 150, 3);
  const ok = statuses.filter((s) => s === 200).length;
  return {
    limit: 100,
    sent: statuses.length,
    ok,
    limited: statuses.filter((s) => s === 429).length,
    seconds,
    refill: Math.ceil((100 * seconds) / 60),
  };
}

export interface QuotaCheck {
  quota: number;
  sent: number;
  ok: number;
  overshoot: number;
  ratePerSecond: number;
  /** docs/limits.md: what the organization's requests admit in 2 s (a flush and a re-read) */
  bound: number;
}

/** an organization with a daily quota of 200: 400 requests at 50 a second over the three instances */
export async function checkQuota(cluster: Cluster): Promise<QuotaCheck> {
  const quota = 200;
  const headers = await orgKey(cluster, "soak quota co", { plan: "ENTERPRISE", dailyQuota: quota });
  const { statuses, seconds } = await spread(
    cluster,
    "/api/v1/tickets?limit=1",
    headers,
    400,
    6,
    50,
  );
  const ok = statuses.filter((s) => s === 200).length;
  const ratePerSecond = statuses.length / seconds;
  return {
    quota,
    sent: statuses.length,
    ok,
    overshoot: Math.max(0, ok - quota),
    ratePerSecond,
    bound: Math.ceil(2 * ratePerSecond),
  };
}

export interface Deliveries {
  events: number;
  rows: number;
  delivered: number;
  received: number;
  lost: number;
  redelivered: number;
  waitedMs: number;
}

/** waits (up to 90 s) for the outbox to drain, then compares the rows with what arrived */
export async function waitForDeliveries(
  cluster: Cluster,
  receiver: ReturnType<typeof startReceiver>,
  subscriptionId: string,
): Promise<Deliveries> {
  const started = performance.now();
  let rows: { id: string; status: string }[] = [];
  for (;;) {
    rows = await cluster.admin<{ id: string; status: string }[]>`
      select id::text, status from webhook_deliveries where subscription_id = ${subscriptionId}`;
    const ids = receiver.deliveredIds();
    const done = rows.every((row) => row.status !== "pending" && ids.has(row.id));
    if (done || performance.now() - started > 90_000) break;
    await Bun.sleep(1_000);
  }
  const [events] = await cluster.admin<{ n: number }[]>`
    select count(*)::int as n from webhook_events e
    join webhook_subscriptions s on s.organization_id = e.organization_id
    where s.id = ${subscriptionId}`;
  const ids = receiver.deliveredIds();
  const ok = receiver.received.filter((r) => r.status < 300);
  return {
    events: events?.n ?? 0,
    rows: rows.length,
    delivered: rows.filter((row) => row.status === "delivered").length,
    received: ids.size,
    lost:
      rows.filter((row) => !ids.has(row.id)).length + Math.max(0, (events?.n ?? 0) - rows.length),
    redelivered: ok.length - ids.size,
    waitedMs: performance.now() - started,
  };
}

export interface ReportInput {
  samples: Sample[];
  faults: Fault[];
  probes: Probe[];
  loadMs: number;
  settleMs: number;
  p99LimitMs: number;
  shared: SharedLimit;
  quota: QuotaCheck;
  deliveries: Deliveries;
  duplicates: number;
  answeredButMissing: number;
  tickets: number;
  /** keys whose last answer was 201 */
  ticketsCreated: number;
  percentile: typeof percentile;
}

/** prints the figures and every assertion; answers true when one failed */
export function report(input: ReportInput): boolean {
  const { samples, faults, probes, settleMs } = input;
  const inWindow = (at: number) =>
    faults.some((fault) => at >= fault.start - 500 && at <= fault.end + settleMs);
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
    if (!ok) failures.push(what);
  };

  const statuses = new Map<number, number>();
  for (const sample of samples) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const calm = samples
    .filter((s) => !inWindow(s.at))
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const p = input.percentile;
  console.log("\nsoak figures");
  console.log(
    `  requests: ${samples.length} in ${(input.loadMs / 1000).toFixed(1)} s = ${(samples.length / (input.loadMs / 1000)).toFixed(1)} req/s`,
  );
  console.log(
    `  latency (all):              p50 ${p(all, 50).toFixed(1)} ms, p99 ${p(all, 99).toFixed(1)} ms`,
  );
  console.log(
    `  latency (outside faults):   p50 ${p(calm, 50).toFixed(1)} ms, p99 ${p(calm, 99).toFixed(1)} ms (${calm.length} requests)`,
  );
  console.log(
    `  statuses: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s === 0 ? "no answer" : s} ×${n}`)
      .join(", ")}`,
  );
  const kinds = new Map<string, Map<number, number>>();
  for (const sample of samples) {
    const kind = kinds.get(sample.kind) ?? new Map<number, number>();
    kind.set(sample.status, (kind.get(sample.status) ?? 0) + 1);
    kinds.set(sample.kind, kind);
  }
  for (const [kind, counts] of kinds) {
    const text = [...counts].sort((a, b) => a[0] - b[0]).map(([st, n]) => `${st} ×${n}`);
    console.log(`    ${kind}: ${text.join(", ")}`);
  }
  for (const fault of faults) {
    const caught = samples.filter((s) => s.at >= fault.start - 500 && s.at <= fault.end + settleMs);
    const errors = caught.filter((s) => s.status >= 500 || s.status === 0).length;
    console.log(
      `  fault at ${(fault.start / 1000).toFixed(1)} s (${((fault.end - fault.start) / 1000).toFixed(1)} s): ${fault.name}: ${caught.length} requests in its window, ${errors} answered 5xx`,
    );
  }

  console.log("\nsoak assertions");
  const bad = samples.filter(
    (s) => s.status === 0 || (s.status >= 500 && !(s.status === 503 && s.retryAfter)),
  );
  check(
    bad.length === 0,
    `every 5xx is a 503 with Retry-After (other 5xx or no answer: ${bad.length}${
      bad.length
        ? `: ${bad
            .slice(0, 5)
            .map((s) => `${s.kind} ${s.status} at ${(s.at / 1000).toFixed(1)} s`)
            .join("; ")}`
        : ""
    })`,
  );
  const outside = samples.filter((s) => s.status >= 500 && !inWindow(s.at));
  check(outside.length === 0, `no 5xx outside fault windows (found ${outside.length})`);
  check(
    p(calm, 99) <= input.p99LimitMs,
    `p99 outside fault windows ${p(calm, 99).toFixed(1)} ms ≤ ${input.p99LimitMs} ms`,
  );
  const d = input.deliveries;
  check(
    d.lost === 0 && d.rows === d.events,
    `0 webhook events lost: ${d.events} events, ${d.rows} deliveries, ${d.received} distinct webhook-ids received (${d.redelivered} sent again with the same webhook-id, at least once as documented), drained ${(d.waitedMs / 1000).toFixed(1)} s after the load`,
  );
  check(
    input.duplicates === 0,
    `0 duplicate ticket creations behind ${input.tickets} Idempotency-Keys (duplicates: ${input.duplicates})`,
  );
  check(
    input.ticketsCreated >= 0.95 * input.tickets,
    `ticket creations answered 201 (a 503 retried with the same key): ${input.ticketsCreated} of ${input.tickets}`,
  );
  check(
    input.answeredButMissing === 0,
    `every ticket answered 201 is stored (missing: ${input.answeredButMissing})`,
  );
  const s = input.shared;
  check(
    s.ok <= s.limit + s.refill && s.limited > 0,
    `plan limit shared by 3 instances: ${s.ok} of ${s.sent} admitted in ${s.seconds.toFixed(1)} s (limit ${s.limit}/min + ${s.refill} refilled), ${s.limited} answered 429`,
  );
  const q = input.quota;
  check(
    q.overshoot <= q.bound,
    `daily quota ${q.quota} across 3 instances: ${q.ok} of ${q.sent} admitted, overshoot ${q.overshoot} ≤ bound ${q.bound} (2 s at ${q.ratePerSecond.toFixed(0)} req/s, docs/limits.md)`,
  );

  const replicaFault = faults.find((fault) => fault.name.startsWith("replica"));
  if (replicaFault) {
    const during = probes.filter(
      (pr) => pr.at >= replicaFault.start && pr.at <= replicaFault.end && pr.instance !== 1,
    );
    const down = during.some((pr) => pr.replicaState !== undefined && pr.replicaState !== "ok");
    const primaryReads = [0, 2].map((instance) => {
      const mine = during.filter((pr) => pr.instance === instance && pr.reads);
      const firstReads = mine[0]?.reads;
      const lastReads = mine[mine.length - 1]?.reads;
      if (!firstReads || !lastReads) return 0;
      return lastReads.primary + lastReads.fallback - firstReads.primary - firstReads.fallback;
    });
    const readsInWindow = samples.filter(
      (sm) => sm.kind.endsWith(".list") && sm.at >= replicaFault.start && sm.at <= replicaFault.end,
    );
    const readErrors = readsInWindow.filter((sm) => sm.status >= 500 || sm.status === 0).length;
    check(
      down && primaryReads.every((n) => n > 0) && readErrors === 0,
      `replica down: /readyz marked it (${down}), reads went to the primary (${primaryReads.join(" and ")} on instances 0 and 2), ${readErrors} of ${readsInWindow.length} list reads failed`,
    );
  }

  const rss = [0, 1, 2].map((instance) =>
    probes
      .filter((pr) => pr.instance === instance && pr.rssKb)
      .map((pr) => ({ at: pr.at, kb: pr.rssKb as number })),
  );
  for (const [instance, series] of rss.entries()) {
    // the restarted instance's series starts again at its restart
    const restart = instance === 1 ? (faults[0]?.end ?? 0) : 0;
    const since = series.filter((pt) => pt.at >= restart + 0.1 * input.loadMs);
    const head = since[0]?.kb ?? 0;
    const tail = since[since.length - 1]?.kb ?? 0;
    const max = Math.max(...since.map((pt) => pt.kb));
    check(
      since.length >= 2 && tail <= head * 1.5,
      `instance ${instance} RSS flat: ${(head / 1024).toFixed(0)} MB → ${(tail / 1024).toFixed(0)} MB (max ${(max / 1024).toFixed(0)} MB, ${since.length} samples)`,
    );
  }
  console.log(failures.length ? `\nsoak FAILED: ${failures.length} assertion(s)` : "\nsoak passed");
  return failures.length > 0;
}
