/**
 * `--big`: an organization of 1,000,000 tickets, inserted straight into the table (a tenth of
 * them by an owner-only member), then the first page from one client, sequential requests:
 * p50 against the 50 ms target, with each filter and for the owner-only key; the page after
 * row 500,000 reached by cursor (`after`, target: what a first page costs, p50 < 5 ms), and a
 * drain of the organization's change feed (changes per second).
 */
import postgres from "postgres";
import { percentile, type Service } from "./e2e-lib.ts";

const ROWS = 1_000_000;

export async function bigOrganization(service: Service, databaseUrl: string) {
  const admin = await service.member({});
  await service.operator("mutation($i: CreateRoleInput!) { createRole(input: $i) { id } }", {
    i: {
      organizationId: admin.organizationId,
      name: "reporter",
      seat: "TECHNICIAN",
      permissions: ["tickets.manage"],
    },
  });
  const owner = await service.member({
    organizationId: admin.organizationId,
    role: "reporter",
    scopes: ["tickets:read"],
  });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const started = performance.now();
  await sql`
    insert into tickets (organization_id, title, description, status, priority, created_by, created_at)
    select ${admin.organizationId}, 'Ticket ' || i, 'Inserted straight into the table.',
           (array['open','in_progress','resolved','closed'])[1 + i % 4]::ticket_status,
           (array['low','medium','high','critical'])[1 + (i / 4) % 4]::ticket_priority,
           case when i % 10 = 0 then ${owner.userId}::uuid else ${admin.userId}::uuid end,
           now() - make_interval(secs => i)
    from generate_series(1, ${ROWS}) as i`;
  await sql`analyze tickets`;
  await sql.end();
  console.log(
    `\n${ROWS} tickets inserted in ${((performance.now() - started) / 1000).toFixed(1)} s; one client, sequential:`,
  );
  const deep = await cursorAt(service, admin.key, "/api/v1/tickets?limit=50", 500_000);
  const deepOpen = await cursorAt(
    service,
    admin.key,
    "/api/v1/tickets?limit=50&status=open",
    125_000,
  );
  for (const [label, path, key, times] of [
    ["first page", "/api/v1/tickets?limit=50", admin.key, 200],
    ["after 500000", deep, admin.key, 200],
    ["open, after 125000", deepOpen, admin.key, 200],
    ["status=open", "/api/v1/tickets?limit=50&status=open", admin.key, 200],
    ["priority=high", "/api/v1/tickets?limit=50&priority=high", admin.key, 200],
    ["owner-only key", "/api/v1/tickets?limit=50", owner.key, 200],
    ["offset=500000", "/api/v1/tickets?limit=50&offset=500000", admin.key, 20],
  ] as const) {
    const latencies: number[] = [];
    let total = 0;
    for (let i = 0; i < times + 5; i++) {
      const t0 = performance.now();
      const response = await fetch(`${service.url}${path}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { pagination: { total: number } };
      if (i >= 5) latencies.push(performance.now() - t0); // the first few warm caches
      total = body.pagination.total;
    }
    const p50 = percentile(latencies, 0.5);
    const target = label.includes("after") ? 5 : 50;
    const verdict =
      label === "offset=500000"
        ? ""
        : `(target < ${target} ms: ${p50 < target ? "met" : "MISSED"})`;
    console.log(
      `  ${label.padEnd(18)} p50 ${p50.toFixed(1).padStart(6)} ms  total ${total} ${verdict}`,
    );
  }
  await drainChanges(service, admin.key);
}

/** The path of the page after `row` items of `path`, by the Link rel="next" of an offset page. */
async function cursorAt(service: Service, key: string, path: string, row: number) {
  const response = await fetch(`${service.url}${path}&offset=${row - 50}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await response.arrayBuffer();
  const next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
  if (!next) throw new Error(`no rel="next" on ${path} at ${row}`);
  const after = new URL(next).searchParams.get("after");
  return `${path}&after=${after}`;
}

/** Follows GET /api/v1/changes from the beginning, 1,000 at a time, until hasMore is false. */
async function drainChanges(service: Service, key: string) {
  const started = performance.now();
  let since: string | undefined;
  let changes = 0;
  let requests = 0;
  for (;;) {
    const query = `types=tickets&limit=1000${since ? `&since=${since}` : ""}`;
    const response = await fetch(`${service.url}/api/v1/changes?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as { data: unknown[]; next: string; hasMore: boolean };
    changes += body.data.length;
    requests++;
    since = body.next;
    if (!body.hasMore) break;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  change feed drain  ${changes} changes in ${requests} requests, ${seconds.toFixed(1)} s: ` +
      `${Math.round(changes / seconds)} changes/s (limit=1000, records included)`,
  );
}
