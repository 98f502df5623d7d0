/**
 * The hand-written twin of orgit's hot routes, for bench/e2e.ts: plain Elysia over postgres.js
 * prepared statements, no GraphQL, no Drizzle. It does the least work that gives the same
 * answers, as lean as the independent harness's twin (docs/performance.md): the key hashed (SHA-256) and
 * looked up in a map loaded at start, the daily-quota count in memory, the contract's eight
 * limit headers plus X-Request-Id on every answer but no token-bucket bookkeeping (limits so
 * high they never refuse, as the bench configures the service, leave the rate headers
 * constant), and for the tickets page the page in the order of its index and the exact total
 * read from the kept counters (`ticket_counts`, as the service reads it), answered as the same
 * JSON. `BASELINE_BUCKETS=1` draws the three buckets (IP, key, burst) as the service does:
 * the twin of the earlier sessions. `POST /api/v1/tickets` and `PATCH /api/v1/tickets/:id`
 * do the write path's statements by hand: the ticket, and the webhook event and its deliveries
 * for each matching subscription, in one transaction.
 *
 *   DATABASE_URL=… PORT=… RATE_LIMIT_PER_MIN=… bun run bench/baseline-server.ts
 */
import { createHash } from "node:crypto";
import { Elysia } from "elysia";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL as string, { max: 10, onnotice: () => {} });
const PER_MIN = Number(process.env.RATE_LIMIT_PER_MIN ?? 999_999_999);
const PER_SEC = Number(process.env.RATE_LIMIT_BURST_PER_SEC ?? 999_999_999);

interface Principal {
  keyName: string;
  scopes: string[];
  expiresAt: Date | null;
  userId: string;
  role: string;
  organizationId: string;
  organizationName: string;
  dailyQuota: number | null;
}

/** Every active key by hash, with its owner and organization: the whole "key store". */
const keys = new Map<string, Principal>();
for (const row of await sql`
  select k.key_hash, k.name, k.scopes, k.expires_at, k.user_id, m.role,
         o.id as org_id, o.name as org_name, o.daily_quota
  from api_keys k
  join organizations o on o.id = k.organization_id
  join memberships m on m.organization_id = k.organization_id and m.user_id = k.user_id
  where k.revoked_at is null`) {
  keys.set(row.key_hash, {
    keyName: row.name,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    userId: row.user_id,
    role: row.role,
    organizationId: row.org_id,
    organizationName: row.org_name,
    dailyQuota: row.daily_quota,
  });
}

/** The window's stored usage per organization, as the service's quota store starts from. */
const used = new Map<string, number>();
for (const row of await sql`
  select organization_id, sum(count)::int as used from quota_usage
  where minute >= now() - interval '24 hours' group by organization_id`) {
  used.set(row.organization_id, row.used);
}

interface Bucket {
  tokens: number;
  at: number;
}
const buckets = new Map<string, Bucket>();
function take(id: string, capacity: number, windowMs: number, now: number): number {
  let bucket = buckets.get(id);
  if (!bucket) {
    bucket = { tokens: capacity, at: now };
    buckets.set(id, bucket);
  }
  bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) * capacity) / windowMs);
  bucket.at = now;
  bucket.tokens -= 1;
  return Math.floor(bucket.tokens);
}

const POLICY = `"ip";q=${PER_MIN};w=60, "key";q=${PER_MIN};w=60, "burst";q=${PER_SEC};w=1`;
/** draw the three buckets as the service does (the earlier twin); by default none are kept */
const BUCKETS = process.env.BASELINE_BUCKETS === "1";
const FULL_LIMIT = String(PER_SEC);
const FULL_LEFT = String(PER_SEC - 1);
const FULL_FIELD = `"burst";r=${FULL_LEFT};t=1`;
type Headers = Record<string, string | number>;

/** Authenticates, draws the buckets (BASELINE_BUCKETS=1), counts the quota, writes the headers. */
function admit(request: Request, headers: Headers, ip: string): Principal | Response {
  headers["x-request-id"] = crypto.randomUUID();
  const token = request.headers.get("authorization")?.slice(7) ?? "";
  const principal = keys.get(createHash("sha256").update(token).digest("hex"));
  if (!principal)
    return Response.json(
      { error: "Invalid API key" },
      { status: 401, headers: headers as Record<string, string> },
    );
  if (BUCKETS) {
    const now = Date.now();
    take(ip, PER_MIN, 60_000, now);
    take(token, PER_MIN, 60_000, now);
    const left = take(`b:${token}`, PER_SEC, 1_000, now);
    headers["x-ratelimit-limit"] = PER_SEC;
    headers["x-ratelimit-remaining"] = left;
    headers["x-ratelimit-reset"] = 1;
    headers.ratelimit = `"burst";r=${left};t=1`;
  } else {
    // limits that never refuse leave every bucket (nearly) full: the same fields each time
    headers["x-ratelimit-limit"] = FULL_LIMIT;
    headers["x-ratelimit-remaining"] = FULL_LEFT;
    headers["x-ratelimit-reset"] = "1";
    headers.ratelimit = FULL_FIELD;
  }
  headers["ratelimit-policy"] = POLICY;
  const limit = principal.dailyQuota;
  const count = used.get(principal.organizationId) ?? 0;
  if (limit !== null && count >= limit) {
    headers["x-quota-limit"] = limit;
    headers["x-quota-used"] = count;
    headers["x-quota-remaining"] = 0;
    headers["retry-after"] = "3600";
    const body = { error: "API quota exceeded", limit, used: count, window: "24h" };
    return Response.json(body, { status: 429, headers: headers as Record<string, string> });
  }
  used.set(principal.organizationId, count + 1);
  headers["x-quota-limit"] = limit ?? "unlimited";
  headers["x-quota-used"] = count + 1;
  headers["x-quota-remaining"] = limit === null ? "unlimited" : limit - count - 1;
  return principal;
}

const page = (organizationId: string, limit: number, offset: number) => sql`
  select id, title, status, priority, equipment_id, created_by, created_at from tickets
  where organization_id = ${organizationId}
  order by created_at desc nulls last, id desc nulls last limit ${limit} offset ${offset}`;
/** BASELINE_COUNT_ROWS=1: the total by count(*) over the rows, as the earlier twin did */
const COUNT_ROWS = process.env.BASELINE_COUNT_ROWS === "1";
/** the exact total from the counters the triggers keep (the service's read), or count(*) */
const total = (organizationId: string) =>
  COUNT_ROWS
    ? sql`select count(*)::int as total from tickets where organization_id = ${organizationId}`
    : sql`select coalesce(sum(count), 0)::int as total from ticket_counts
          where organization_id = ${organizationId}`;

/** One ticket as GET /api/v1/tickets/{id} answers it and its events carry it. */
const ticketJson = (row: postgres.Row) => ({
  id: row.id,
  title: row.title,
  description: row.description,
  status: row.status,
  priority: row.priority,
  equipment_id: row.equipment_id,
  assignee_id: row.assignee_id,
  created_by: row.created_by,
  created_at: (row.created_at as Date).toISOString(),
  updated_at: (row.updated_at as Date).toISOString(),
  version: row.version,
});

/**
 * The outbox by hand, in the change's transaction: the event and a delivery per matching
 * active subscription (with a NOTIFY for the dispatcher), and the NOTIFY of live subscribers.
 */
async function recordEvent(
  tx: postgres.TransactionSql,
  organizationId: string,
  type: string,
  data: Record<string, unknown>,
  at: Date,
) {
  const subscriptions = await tx`
    select id from webhook_subscriptions
    where organization_id = ${organizationId} and active and events @> array[${type}]::text[]`;
  if (subscriptions.length > 0) {
    const payload = { type, timestamp: at.toISOString(), data };
    const [event] = await tx`
      insert into webhook_events (organization_id, type, payload, created_at)
      values (${organizationId}, ${type}, ${tx.json(payload as postgres.JSONValue)}, ${at}) returning id`;
    const deliveries = subscriptions.map((s) => ({
      event_id: event?.id,
      subscription_id: s.id,
      next_attempt_at: at,
      created_at: at,
    }));
    await tx`insert into webhook_deliveries ${tx(deliveries)}`;
    await tx`select pg_notify('orgit_webhooks', ${event?.id as string})`;
  }
  const ticket = data.ticket as { id: string };
  const live = { type, occurredAt: at.toISOString(), organizationId, record: ticket };
  await tx`select pg_notify('orgit_live', ${JSON.stringify(live)})`;
}

const PRIORITIES = new Set(["low", "medium", "high", "critical"]);
const validText = (value: unknown, max: number) =>
  typeof value === "string" && value.trim().length >= 1 && value.length <= max;

const app = new Elysia()
  .get("/static", () => ({ status: "ok" }))
  .get("/api/v1/whoami", ({ request, set, server }) => {
    const principal = admit(
      request,
      set.headers as Headers,
      server?.requestIP(request)?.address ?? "",
    );
    if (principal instanceof Response) return principal;
    return {
      organization: { id: principal.organizationId, name: principal.organizationName },
      user: { id: principal.userId, role: principal.role },
      apiKey: {
        name: principal.keyName,
        scopes: principal.scopes,
        expiresAt: principal.expiresAt?.toISOString() ?? null,
      },
    };
  })
  .get("/api/v1/tickets", async ({ request, set, query, server }) => {
    const principal = admit(
      request,
      set.headers as Headers,
      server?.requestIP(request)?.address ?? "",
    );
    if (principal instanceof Response) return principal;
    const limit = Number(query.limit ?? 50);
    const offset = Number(query.offset ?? 0);
    const [rows, [count]] = await Promise.all([
      page(principal.organizationId, limit, offset),
      total(principal.organizationId),
    ]);
    return {
      data: rows.map((row) => ({
        id: row.id,
        title: row.title,
        status: row.status,
        priority: row.priority,
        equipment_id: row.equipment_id,
        created_by: row.created_by,
        created_at: (row.created_at as Date).toISOString(),
      })),
      pagination: { total: count?.total as number, limit, offset },
    };
  })
  .post("/api/v1/tickets", async ({ request, set, body, server }) => {
    const principal = admit(
      request,
      set.headers as Headers,
      server?.requestIP(request)?.address ?? "",
    );
    if (principal instanceof Response) return principal;
    const input = body as { title?: unknown; description?: unknown; priority?: unknown };
    const priority = input.priority ?? "medium";
    if (
      !validText(input.title, 200) ||
      !validText(input.description, 10_000) ||
      !PRIORITIES.has(priority as string)
    ) {
      set.status = 400;
      return { error: "Validation failed" };
    }
    const row = await sql.begin(async (tx) => {
      const [ticket] = await tx`
        insert into tickets (organization_id, title, description, priority, status, created_by)
        values (${principal.organizationId}, ${input.title as string},
          ${input.description as string}, ${priority as string}, 'open', ${principal.userId})
        returning *`;
      const created = ticket as postgres.Row;
      const data = { ticket: ticketJson(created) };
      await recordEvent(tx, principal.organizationId, "ticket.created", data, created.created_at);
      return created;
    });
    set.status = 201;
    return {
      id: row.id,
      title: row.title,
      status: row.status,
      priority: row.priority,
      equipment_id: row.equipment_id,
      created_by: row.created_by,
      created_at: (row.created_at as Date).toISOString(),
    };
  })
  .patch("/api/v1/tickets/:id", async ({ request, set, body, params, server }) => {
    const principal = admit(
      request,
      set.headers as Headers,
      server?.requestIP(request)?.address ?? "",
    );
    if (principal instanceof Response) return principal;
    const input = body as { title?: unknown };
    if (!validText(input.title, 200)) {
      set.status = 400;
      return { error: "Validation failed" };
    }
    const row = await sql.begin(async (tx) => {
      const [before] = await tx`
        select title from tickets
        where id = ${params.id} and organization_id = ${principal.organizationId} for update`;
      if (!before) return undefined;
      const [ticket] = await tx`
        update tickets set title = ${input.title as string}, updated_at = now(),
          version = version + 1
        where id = ${params.id} and organization_id = ${principal.organizationId}
        returning *`;
      const updated = ticket as postgres.Row;
      const data = {
        ticket: ticketJson(updated),
        changes: { title: { from: before.title, to: updated.title } },
      };
      await recordEvent(tx, principal.organizationId, "ticket.updated", data, updated.updated_at);
      return updated;
    });
    if (!row) {
      set.status = 404;
      return { error: "Not found" };
    }
    set.headers.etag = `"${row.version}"`;
    return ticketJson(row);
  })
  .listen({ port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" });

process.on("SIGTERM", async () => {
  await app.stop();
  await sql.end({ timeout: 1 });
  process.exit(0);
});
console.log(`listening ${app.server?.port}`);
