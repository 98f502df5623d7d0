import { parseArgs } from "node:util";
import { startReceiver } from "../tests/helpers/webhook-receiver.ts";
import {
  checkQuota,
  checkSharedLimit,
  type Fault,
  type Probe,
  percentile,
  report,
  type Sample,
  sampleProbes,
  waitForDeliveries,
} from "./soak-checks.ts";
import { type Cluster, soakMissing, startCluster } from "./soak-cluster.ts";

/**
 * `npm run bench:soak` (docs/scaling.md, "The soak"): HAProxy → three instances → Postgres
 * primary + streaming replica, Redis; a mixed load through HAProxy while faults are injected on a
 * schedule (an instance SIGKILLed and restarted, Redis restarted, every primary backend
 * terminated, the replica stopped and started). It prints and asserts: no webhook event lost,
 * no duplicate creation behind an Idempotency-Key, the plan's per-minute limit and the daily
 * quota held across the three instances (overshoot within docs/limits.md's bound), 5xx only as
 * 503 with Retry-After inside a fault window, reads served by the primary while the replica is
 * down, the p99 outside fault windows, and each instance's RSS flat. Exit code 1 on a failed
 * assertion. `--duration 60` for a short run (the default is five minutes); `--rate` operations
 * a second (default 100) across `--concurrency` workers (default 4).
 */
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "300" },
    concurrency: { type: "string", default: "4" },
    rate: { type: "string", default: "100" },
    "p99-limit-ms": { type: "string", default: "1000" },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const CONCURRENCY = Number(values.concurrency);
const RATE = Number(values.rate);
const P99_LIMIT_MS = Number(values["p99-limit-ms"]);
/** a fault's window runs from its start until this long after it ends */
const SETTLE_MS = 6_000;
const SCOPES = [
  "tickets:read",
  "tickets:write",
  "projects:read",
  "projects:write",
  "webhooks:read",
  "webhooks:write",
];

const missing = soakMissing();
if (missing) {
  console.error(`bench:soak cannot run here: ${missing}`);
  process.exit(2);
}
if (!(DURATION_MS >= 30_000)) throw new Error("--duration: at least 30 seconds");

console.log(`soak: starting primary, replica, Redis, 3 instances, HAProxy…`);
const cluster: Cluster = await startCluster(2_000);
const first = cluster.instances[0]?.process;
if (!first) throw new Error("no instance");
let webhookSecret: string | undefined;
const receiver = startReceiver(() => webhookSecret);
// Ctrl-C stops the engines too: pg_ctl daemonizes Postgres, which would outlive the soak
process.on("SIGINT", () => {
  void cluster.stop().finally(() => process.exit(130));
});
let failed = true;
try {
  const load = await first.provisionKey({
    organization: { name: "Soak Load Co", plan: "ENTERPRISE" },
    user: { email: "soak@example.com", firstName: "So", lastName: "Ak" },
    key: { name: "load", scopes: SCOPES, expiresIn: "NEVER" },
  });
  const headers = { authorization: `Bearer ${load.secret}`, "content-type": "application/json" };
  const hook = await fetch(`${cluster.base}/api/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      url: receiver.url,
      events: ["project.created", "project.updated", "project.deleted"],
    }),
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);
  const created = (await hook.json()) as { id: string; secret: string };
  webhookSecret = created.secret;

  const samples: Sample[] = [];
  const faults: Fault[] = [];
  const started = performance.now();
  const now = () => performance.now() - started;
  let running = true;

  /** one request through HAProxy, recorded; network errors count as status 0 */
  async function call(kind: string, path: string, init: RequestInit = {}) {
    const at = now();
    let status = 0;
    let retryAfter: string | null = null;
    let body: unknown;
    try {
      const response = await fetch(`${cluster.base}${path}`, {
        ...init,
        headers: init.headers ?? headers,
      });
      status = response.status;
      retryAfter = response.headers.get("retry-after");
      const text = await response.text();
      body = text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text;
    } catch {
      status = 0;
    }
    samples.push({ kind, at, ms: now() - at, status, retryAfter });
    return { status, body };
  }

  /** ticket creations behind an Idempotency-Key: a 503 is retried with the same key */
  const ticketOutcome = new Map<string, number>();
  let ticketCounter = 0;
  const projects: string[] = [];

  async function createTicket() {
    const key = `soak-${++ticketCounter}`;
    const init = {
      method: "POST",
      headers: { ...headers, "idempotency-key": key },
      body: JSON.stringify({ title: key, description: "written under faults by the soak" }),
    };
    let { status } = await call("ticket.create", "/api/v1/tickets", init);
    for (let retry = 0; retry < 5 && (status === 503 || status === 0 || status === 409); retry++) {
      await Bun.sleep(1_000);
      ({ status } = await call("ticket.create", "/api/v1/tickets", init));
    }
    ticketOutcome.set(key, status);
  }

  async function projectCrud() {
    const roll = Math.random();
    if (roll < 0.5 || projects.length < 5) {
      const { status, body } = await call("project.create", "/api/projects", {
        method: "POST",
        body: JSON.stringify({ name: `soak ${ticketCounter}` }),
      });
      if (status === 201) projects.push((body as { id: string }).id);
    } else if (roll < 0.8) {
      const id = projects[Math.floor(Math.random() * projects.length)];
      await call("project.update", `/api/projects/${id}`, {
        method: "PATCH",
        body: JSON.stringify({ name: `renamed ${Date.now()}` }),
      });
    } else {
      const id = projects.shift();
      const { status } = await call("project.delete", `/api/projects/${id}`, { method: "DELETE" });
      if (status >= 500 || status === 0) projects.push(id as string);
    }
  }

  /** the operations' pace: at most RATE a second across the workers, to keep the machine usable */
  let nextSlot = 0;
  async function paced() {
    nextSlot = Math.max(now(), nextSlot + 1000 / RATE);
    await Bun.sleep(Math.max(0, nextSlot - now()));
  }

  async function worker() {
    while (running) {
      await paced();
      const roll = Math.random();
      if (roll < 0.5) await call("ticket.list", "/api/v1/tickets?limit=20");
      else if (roll < 0.6) await call("project.list", "/api/projects");
      else if (roll < 0.8) await createTicket();
      else await projectCrud();
    }
  }

  async function fault(name: string, action: () => Promise<void>) {
    const record: Fault = { name, start: now(), end: Number.NaN };
    faults.push(record);
    console.log(`  ${(record.start / 1000).toFixed(1)} s: ${name}`);
    await action();
    record.end = now();
  }

  const at = (fraction: number) => Bun.sleep(Math.max(0, fraction * DURATION_MS - now()));
  async function schedule() {
    await at(0.15);
    await fault("instance 1 SIGKILLed and restarted", async () => {
      await cluster.killInstance(1);
      await Bun.sleep(2_000);
      await cluster.startInstance(1);
    });
    await at(0.3);
    await fault("Redis SIGKILLed and restarted", () => cluster.restartRedis());
    await at(0.45);
    await fault("every primary backend terminated, twice", async () => {
      for (let i = 0; i < 2; i++) {
        await cluster.admin`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name like 'orgit:%' and pid <> pg_backend_pid()`;
        await Bun.sleep(1_000);
      }
    });
    await at(0.6);
    await fault("replica stopped (started again at 75 %)", async () => {
      await cluster.replica.stop("fast");
      await at(0.75);
      await cluster.replica.start();
    });
  }

  const probes: Probe[] = [];
  console.log(
    `soak: ${DURATION_MS / 1000} s of load, ${CONCURRENCY} workers, ${RATE} operations/s, through ${cluster.base}`,
  );
  const prober = sampleProbes(cluster, probes, now, () => running);
  const scheduled = schedule();
  const workers = Array.from({ length: CONCURRENCY }, () => worker());
  await Bun.sleep(DURATION_MS);
  running = false;
  await Promise.all([...workers, scheduled, prober]);
  const loadMs = now();

  console.log("soak: load over; checking limits, quota and deliveries…");
  const shared = await checkSharedLimit(cluster);
  const quota = await checkQuota(cluster);
  const deliveries = await waitForDeliveries(cluster, receiver, created.id);
  const duplicates = await cluster.admin<{ title: string; n: string }[]>`
    select title, count(*)::text as n from tickets
    where organization_id = ${load.org.id} and title like 'soak-%'
    group by title having count(*) > 1`;
  const stored = new Set(
    (
      await cluster.admin<{ title: string }[]>`
        select title from tickets where organization_id = ${load.org.id}`
    ).map((row) => row.title),
  );
  const answeredButMissing = [...ticketOutcome].filter(
    ([key, status]) => (status === 201 || status === 200) && !stored.has(key),
  );

  failed = report({
    samples,
    faults,
    probes,
    loadMs,
    settleMs: SETTLE_MS,
    p99LimitMs: P99_LIMIT_MS,
    shared,
    quota,
    deliveries,
    duplicates: duplicates.length,
    answeredButMissing: answeredButMissing.length,
    tickets: ticketOutcome.size,
    ticketsCreated: [...ticketOutcome.values()].filter((status) => status === 201).length,
    percentile,
  });
} finally {
  receiver.stop();
  await cluster.stop();
}
process.exit(failed ? 1 : 0);
