/**
 * The hand-written twin of orgit's hot routes, for bench/e2e.ts: plain Elysia over postgres.js
 * prepared statements, no GraphQL, no Drizzle. It does the same work a request needs and
 * nothing else: the key hashed (SHA-256) and looked up in a map loaded at start, three token
 * buckets (IP, key, burst) and the daily-quota count in memory, the contract's eight limit
 * headers plus X-Request-Id on every answer, and for the tickets page the same two statements
 * (page in the order of its index, exact total by count(*)) and the same JSON.
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
type Headers = Record<string, string | number>;

/** Authenticates, draws the buckets, counts the quota and writes the eight headers. */
function admit(request: Request, headers: Headers, ip: string): Principal | Response {
  headers["x-request-id"] = crypto.randomUUID();
  const token = request.headers.get("authorization")?.slice(7) ?? "";
  const principal = keys.get(createHash("sha256").update(token).digest("hex"));
  if (!principal)
    return Response.json(
      { error: "Invalid API key" },
      { status: 401, headers: headers as Record<string, string> },
    );
  const now = Date.now();
  take(ip, PER_MIN, 60_000, now);
  take(token, PER_MIN, 60_000, now);
  const left = take(`b:${token}`, PER_SEC, 1_000, now);
  headers["x-ratelimit-limit"] = PER_SEC;
  headers["x-ratelimit-remaining"] = left;
  headers["x-ratelimit-reset"] = 1;
  headers["ratelimit-policy"] = POLICY;
  headers.ratelimit = `"burst";r=${left};t=1`;
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
const total = (organizationId: string) =>
  sql`select count(*)::int as total from tickets where organization_id = ${organizationId}`;

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
  .listen({ port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" });

process.on("SIGTERM", async () => {
  await app.stop();
  await sql.end({ timeout: 1 });
  process.exit(0);
});
console.log(`listening ${app.server?.port}`);
