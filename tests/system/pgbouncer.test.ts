import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { CREATE_KEY } from "../helpers/operator-ops.ts";
import {
  ensurePgbouncer,
  type Pgbouncer,
  type PostgresServer,
  postgresMissing,
  removeFolder,
  startPgbouncer,
  startPrimary,
} from "../helpers/postgres-cluster.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * Through PgBouncer in transaction mode (docs/operations.md, PgBouncer): two instances on a
 * pooler with two server sessions, so that consecutive transactions of one client land on
 * different sessions. With DATABASE_POOLER=pgbouncer no statement is prepared on a session
 * (one prepared on one session is unknown on the next), and LISTEN/NOTIFY (key invalidation,
 * webhook wake-ups) use DATABASE_DIRECT_URL.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;
const ADMIN_TOKEN = "pgbouncer-operator-token-0123456789";
const SCOPES = ["tickets:read", "tickets:write", "projects:read", "projects:write"];
const REVOKE_KEY = `mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;

const missing = postgresMissing() ?? (await ensurePgbouncer());
if (missing) console.warn(`tests/system/pgbouncer.test.ts skipped: ${missing}`);

describe.skipIf(Boolean(missing))("through PgBouncer in transaction mode", () => {
  let primary: PostgresServer;
  let pooler: Pgbouncer;
  const instances: ServiceProcess[] = [];
  let headers: Record<string, string>;
  let org: { id: string };
  let user: { id: string };

  const start = (label: string) =>
    startServiceProcess({
      command: [BUN, "run", "src/index.ts"],
      adminToken: ADMIN_TOKEN,
      env: {
        DATABASE_URL: pooler.url("orgit"),
        DATABASE_POOLER: "pgbouncer",
        DATABASE_DIRECT_URL: primary.url("orgit"),
        LOG_LEVEL: "warn",
        RATE_LIMIT_IP_PER_MIN: "100000",
        RATE_LIMIT_KEY_PER_MIN: "100000",
        RATE_LIMIT_BURST_PER_SEC: "100000",
      },
      startTimeoutMs: 60_000,
      label,
    });
  const call = async (
    instance: ServiceProcess,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(`${instance.base}${path}`, {
      method: init.body === undefined ? "GET" : "POST",
      headers: init.headers ?? headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    primary = await startPrimary();
    const admin = postgres(primary.url(), { max: 1, onnotice: () => {} });
    await admin`create database orgit`;
    await admin.end();
    pooler = await startPgbouncer(primary, "orgit");
    instances.push(await start("instance A"), await start("instance B"));
    ({ org, user } = await (instances[0] as ServiceProcess)
      .provisionKey({
        organization: { name: "Pooled Co", plan: "ENTERPRISE" },
        user: { email: "pooled@example.com", firstName: "Poo", lastName: "Led" },
        key: { name: "pooled", scopes: SCOPES, expiresIn: "NEVER" },
      })
      .then(({ org, user, secret }) => {
        headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
        return { org, user };
      }));
  }, 90_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await pooler?.stop();
    await primary?.stop("immediate");
    if (primary) removeFolder(primary.dir);
  });

  test("tickets and projects are created and listed on both instances, many at once, with no error", async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? call(i % 4 === 0 ? a : b, "/api/v1/tickets", {
              body: { title: `Pooled ticket ${i}`, description: "through transaction pooling" },
            })
          : call(i % 4 === 1 ? a : b, "/api/projects", { body: { name: `Pooled project ${i}` } }),
      ),
    );
    expect(
      writes.map((w) => w.status),
      a.output() + b.output() + pooler.log(),
    ).toEqual(Array(20).fill(201));
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(
          i % 2 === 0 ? a : b,
          i % 4 < 2 ? "/api/v1/tickets?limit=100" : "/api/projects?limit=100",
        ),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(20).fill(200));
    const tickets = ((reads[0]?.body.data ?? []) as { title: string }[]).map((t) => t.title);
    const projects = ((reads[2]?.body.data ?? []) as { name: string }[]).map((p) => p.name);
    expect(tickets).toHaveLength(10);
    expect(tickets).toContain("Pooled ticket 18");
    expect(projects).toHaveLength(10);
    expect(projects).toContain("Pooled project 19");
  });

  test("a key revoked on one instance is refused at once by the other (NOTIFY over the direct URL)", async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    const created = await a.operator<{ secret: string; apiKey: { id: string } }>(CREATE_KEY, {
      input: {
        name: "revoked",
        scopes: SCOPES,
        expiresIn: "NEVER",
        organizationId: org.id,
        userId: user.id,
      },
    });
    const own = { authorization: `Bearer ${created.secret}` };
    // B has the key cached after a first use
    expect((await call(b, "/api/v1/tickets?limit=1", { headers: own })).status).toBe(200);
    await a.operator(REVOKE_KEY, { id: created.apiKey.id });
    await eventually(
      async () => (await call(b, "/api/v1/tickets?limit=1", { headers: own })).status === 401,
      "instance B refuses the revoked key",
      5_000,
    );
    expect(await call(b, "/api/v1/tickets?limit=1", { headers: own })).toEqual({
      status: 401,
      body: { error: "API key revoked" },
    });
  });

  test("the instances listen on the direct URL: their sessions are on Postgres, named orgit:<instance>", async () => {
    const direct = postgres(primary.url("orgit"), { max: 1, onnotice: () => {} });
    try {
      const rows = await direct<{ name: string }[]>`
        select application_name as name from pg_stat_activity
        where datname = 'orgit' and application_name like 'orgit:%'`;
      // one LISTEN session per instance; the pooled sessions carry the plain name
      expect(new Set(rows.map((row) => row.name)).size).toBe(2);
    } finally {
      await direct.end();
    }
  });
});
