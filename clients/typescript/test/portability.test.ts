import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  RELAXED_LIMITS,
  ROOT,
  START_TIMEOUT_MS,
  startService,
  type TestOrg,
  type TestService,
} from "./helpers.ts";

/**
 * The published build runs outside Bun: `tsc` compiles src into a temporary dist exactly as
 * `npm run build` does, and a tiny ESM script importing it calls whoami against the real
 * service and verifies a signed webhook under Node (on PATH) and Deno (the repo's devDependency).
 * Configuration comes from ORGIT_API_KEY / ORGIT_BASE_URL, so the environment fallback is
 * exercised in both runtimes too.
 */
let service: TestService;
let org: TestOrg;
let dir: string;

const SCRIPT = `import { Orgit, verifyWebhook, AuthenticationError } from "./dist/index.js";
if (process.env.WITHOUT_GLOBAL_CRYPTO) {
  // as Node 18 is without --experimental-global-webcrypto
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
}
const orgit = new Orgit();
// a POST with a generated Idempotency-Key (a random UUID from Web Crypto)
const project = await orgit.projects.create({ name: "Portable " + process.argv[2] });
const me = await orgit.whoami();
const event = await verifyWebhook({
  payload: process.env.WH_BODY,
  headers: { "webhook-id": "msg_1", "webhook-timestamp": process.env.WH_TS, "webhook-signature": process.env.WH_SIG },
  secret: process.env.WH_SECRET,
});
let refused = "";
try {
  await new Orgit({ apiKey: "orgit_" + "b".repeat(40), maxRetries: 0 }).whoami();
} catch (error) {
  refused = error instanceof AuthenticationError ? error.error : String(error);
}
console.log(JSON.stringify({
  org: me.organization.name,
  project: project.name,
  quotaLimit: orgit.lastResponse.quota.limit,
  event: event.type + " " + event.data.project.name,
  refused,
}));
`;

/** A Standard Webhooks signature made with WebCrypto here, checked by the built client there. */
async function signedWebhook() {
  const key = crypto.getRandomValues(new Uint8Array(24));
  const secret = `whsec_${btoa(String.fromCharCode(...key))}`;
  const body = JSON.stringify({
    type: "project.created",
    timestamp: new Date().toISOString(),
    data: {
      project: { id: "p1", name: "Portable", description: "", createdAt: "", updatedAt: "" },
    },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign(
    "HMAC",
    hmac,
    new TextEncoder().encode(`msg_1.${ts}.${body}`),
  );
  const sig = `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
  return { WH_SECRET: secret, WH_BODY: body, WH_TS: ts, WH_SIG: sig };
}

async function run(command: string[], env: Record<string, string>) {
  const child = Bun.spawn(command, { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "orgit-client-"));
  const [started, build] = await Promise.all([
    startService({ label: "client portability", env: RELAXED_LIMITS }),
    (async () => {
      const tsc = Bun.spawn(
        [`${ROOT}node_modules/.bin/tsc`, "-p", "clients/typescript", "--outDir", join(dir, "dist")],
        { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
      );
      const output = await new Response(tsc.stdout).text();
      return { code: await tsc.exited, output };
    })(),
  ]);
  service = started;
  if (build.code !== 0) throw new Error(`tsc failed:\n${build.output}`);
  // dist is ESM: a package.json with "type": "module" next to it, as in the published package
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(join(dir, "script.mjs"), SCRIPT);
  org = await service.newOrg();
}, START_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function expectRuns(label: string, command: string[], extraEnv: Record<string, string> = {}) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
    ORGIT_API_KEY: org.secret,
    ORGIT_BASE_URL: service.base,
    ...(await signedWebhook()),
    ...extraEnv,
  };
  for (const name of ["DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  const { stdout, stderr, code } = await run([...command, label], env);
  expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(stdout.trim())).toEqual({
    org: org.name,
    project: `Portable ${label}`,
    quotaLimit: 100_000,
    event: "project.created Portable",
    refused: "Invalid API key",
  });
}

test("the built dist runs under Node", async () => {
  await expectRuns("node", ["node", "script.mjs"]);
}, 30_000);

test("under Node without a global Web Crypto (Node 18) it loads node:crypto's", async () => {
  await expectRuns("node-18", ["node", "script.mjs"], { WITHOUT_GLOBAL_CRYPTO: "1" });
}, 30_000);

test("the built dist runs under Deno", async () => {
  await expectRuns("deno", [
    `${ROOT}node_modules/.bin/deno`,
    "run",
    "--no-prompt",
    "--allow-net",
    "--allow-read",
    "--allow-env",
    "script.mjs",
  ]);
}, 60_000);
