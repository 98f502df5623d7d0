import { afterAll, beforeAll, expect, test } from "bun:test";
import { type DriverName, describeEachDriver, freshDatabase } from "../helpers/harness.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";

/**
 * The same app under Deno (docs/decisions.md §1): starts the real Deno entry as a child process
 * and drives it over HTTP only, from operator set-up to an API key answering whoami. Runs on
 * embedded PGlite always, and on Postgres (postgres.js under Deno) when TEST_DATABASE_URL is set.
 */
const DENO = `${ROOT}node_modules/.bin/deno`;
/**
 * `--node-modules-dir=manual`: npm packages come from the node_modules `npm ci` installed, as
 * under Bun. Permissions are the narrow set the service needs: sockets, its environment, and
 * reading its own sources, SQL migrations and GraphQL SDL (plus TLS files when configured).
 */
const DENO_ARGS = [
  "run",
  "--node-modules-dir=manual",
  "--no-prompt",
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "src/deno.ts",
];
const ADMIN_TOKEN = "deno-operator-token-0123456789";
// the first run may type-strip and cache every module; later runs start in a few seconds
const START_TIMEOUT_MS = 100_000;

function suite(driver: DriverName) {
  let service: ServiceProcess;
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let base: string;
  /** the child's output, appended to assertion messages so a failure explains itself */
  const output = () => service.output();

  beforeAll(async () => {
    const env: Record<string, string> = { LOG_LEVEL: "warn", NO_COLOR: "1" };
    // where Deno keeps its module cache: reuse the user's so later runs start fast
    for (const name of ["DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    if (driver === "postgres") {
      // a fresh, already migrated database; the child migrates again (a no-op under the lock)
      db = await freshDatabase("postgres");
      Object.assign(env, db.serviceEnv);
    }
    service = await startServiceProcess({
      command: [DENO, ...DENO_ARGS],
      adminToken: ADMIN_TOKEN,
      env,
      startTimeoutMs: START_TIMEOUT_MS,
      label: "deno",
    });
    base = service.base;
  }, START_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  }, 30_000);

  test("serves the API under Deno: operator set-up, then health and whoami with the new key", async () => {
    const { org, user, secret } = await service.provisionKey({
      organization: { name: "Deno Co", plan: "PRO" },
      user: {
        email: `deno-${crypto.randomUUID().slice(0, 8)}@example.com`,
        firstName: "Dina",
        lastName: "Deno",
      },
      key: { name: "deno key", scopes: ["equipment:read"], expiresIn: "NEVER" },
    });
    const auth = { authorization: `Bearer ${secret}` };

    const health = await fetch(`${base}/api/v1/health`, { headers: auth });
    const healthText = await health.text();
    expect(health.status, `${healthText}${output()}`).toBe(200);
    expect(JSON.parse(healthText)).toEqual({ status: "ok" });
    expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const whoami = await fetch(`${base}/api/v1/whoami`, { headers: auth });
    const whoamiText = await whoami.text();
    expect(whoami.status, `${whoamiText}${output()}`).toBe(200);
    expect(JSON.parse(whoamiText)).toEqual({
      organization: { id: org.id, name: "Deno Co" },
      user: { id: user.id, role: "admin" },
      apiKey: { name: "deno key", scopes: ["equipment:read"], expiresAt: null },
    });
  });

  test("the settings screen under Deno: scrypt password, sign-in, a key created and shown once", async () => {
    const email = `deno-page-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { org, user } = await service.provisionKey({
      organization: { name: "Deno Pages", plan: "PRO" },
      user: { email, firstName: "Dina", lastName: "Deno" },
      key: { name: "first", scopes: ["equipment:read"], expiresIn: "NEVER" },
    });
    const password = "a passphrase for deno";
    await service.operator(
      "mutation($u: ID!, $p: String!) { setPassword(userId: $u, password: $p) }",
      { u: user.id, p: password },
    );
    const cookies = new Map<string, string>();
    const browse = async (path: string, form?: Record<string, string>) => {
      const response = await fetch(`${base}${path}`, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at = (pair as string).indexOf("=");
        cookies.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
      }
      return response;
    };
    const csrfOf = (html: string) => html.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? "";
    const login = await browse("/login");
    const signIn = await browse("/login", { _csrf: csrfOf(await login.text()), email, password });
    expect(signIn.status, `${await signIn.text()}${output()}`).toBe(303);
    const list = await browse("/settings/api-keys");
    expect(list.status, output()).toBe(200);
    const create = await browse("/settings/api-keys", {
      _csrf: csrfOf(await list.text()),
      org: org.id,
      name: "from deno",
      scopes: "equipment:read",
      expiration: "DAYS_90",
    });
    expect(create.status, `${await create.text()}${output()}`).toBe(303);
    const shown = await (await browse(`/settings/api-keys?org=${org.id}`)).text();
    const secret = shown.match(/value="(orgit_[0-9A-Za-z]{40})"/)?.[1] as string;
    expect(secret, output()).toBeDefined();
    const whoami = await fetch(`${base}/api/v1/whoami`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(((await whoami.json()) as { apiKey: { name: string } }).apiKey.name).toBe("from deno");
  }, 60_000);

  test("errors keep the service's JSON format under Deno", async () => {
    const missing = await fetch(`${base}/api/v1/whoami`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "Missing API key" });
    const unknown = await fetch(`${base}/nowhere`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toEqual(expect.any(String));
  });
}

describeEachDriver("Deno entry", suite);
