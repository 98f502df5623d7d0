import { afterAll, beforeAll, expect, test } from "bun:test";
import { type DriverName, describeEachDriver, freshDatabase } from "../helpers/harness.ts";

/**
 * The same app under Deno (CONTRACT section 1): starts the real Deno entry as a child process
 * and drives it over HTTP only, from operator set-up to an API key answering whoami. Runs on
 * embedded PGlite always, and on Postgres (postgres.js under Deno) when TEST_DATABASE_URL is set.
 */
const ROOT = new URL("../../", import.meta.url).pathname;
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

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

/** Collects a child stream as text as it arrives, so a full pipe never blocks the child. */
function collect(stream: ReadableStream<Uint8Array>) {
  const state = { text: "" };
  const done = (async () => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      state.text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return { state, done };
}

function suite(driver: DriverName) {
  let child: ReturnType<typeof Bun.spawn<"ignore", "pipe", "pipe">>;
  let stdout: ReturnType<typeof collect>;
  let stderr: ReturnType<typeof collect>;
  let base: string;
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let exited = false;

  /** the child's output, appended to assertion messages so a failure explains itself */
  const output = () =>
    `\n--- deno stderr ---\n${stderr.state.text}\n--- deno stdout ---\n${stdout.state.text}`;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      LOG_LEVEL: "warn",
      NO_COLOR: "1",
    };
    // where Deno keeps its module cache: reuse the user's so later runs start fast
    for (const name of ["DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    if (driver === "postgres") {
      // a fresh, already migrated database; the child migrates again (a no-op under the lock)
      db = await freshDatabase("postgres");
      env.DATABASE_URL = (db as unknown as { databaseUrl: string }).databaseUrl;
    }
    child = Bun.spawn([DENO, ...DENO_ARGS], {
      cwd: ROOT,
      env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    stdout = collect(child.stdout);
    stderr = collect(child.stderr);
    void child.exited.then(() => {
      exited = true;
    });

    // /api/v1/health answers 401 without a key as soon as the server listens
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`deno exited early with code ${child.exitCode}${output()}`);
      try {
        const response = await fetch(`${base}/api/v1/health`);
        if (response.status === 401) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`deno did not start in time${output()}`);
      await Bun.sleep(250);
    }
  }, START_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    if (child && !exited) {
      child.kill("SIGTERM");
      // graceful shutdown flushes and closes the database; don't wait forever for it
      const stopped = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000)]);
      if (!stopped) child.kill("SIGKILL");
      await child.exited;
    }
    await db?.drop();
  }, 30_000);

  /** runs one operator mutation and answers its single root field */
  async function operator<T = { id: string }>(
    query: string,
    variables: Record<string, unknown>,
  ): Promise<T> {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { data?: Record<string, T>; errors?: unknown[] };
    if (response.status !== 200 || body.errors || !body.data) {
      throw new Error(`GraphQL ${response.status}: ${text}${output()}`);
    }
    return Object.values(body.data)[0] as T;
  }

  test("serves the API under Deno: operator set-up, then health and whoami with the new key", async () => {
    const org = await operator(
      "mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id name } }",
      { input: { name: "Deno Co", plan: "PRO" } },
    );
    const user = await operator(
      "mutation($input: CreateUserInput!) { createUser(input: $input) { id } }",
      {
        input: {
          email: `deno-${crypto.randomUUID().slice(0, 8)}@example.com`,
          firstName: "Dina",
          lastName: "Deno",
        },
      },
    );
    await operator("mutation($input: AddMemberInput!) { addMember(input: $input) { role } }", {
      input: { organizationId: org.id, userId: user.id, role: "admin" },
    });
    const created = await operator<{ secret: string }>(
      "mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }",
      {
        input: {
          organizationId: org.id,
          userId: user.id,
          name: "deno key",
          scopes: ["equipment:read"],
          expiresIn: "NEVER",
        },
      },
    );
    const auth = { authorization: `Bearer ${created.secret}` };

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
