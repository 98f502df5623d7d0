import { CREATE_RELEASE } from "../../../tests/helpers/operator-ops.ts";
import {
  ROOT,
  type ServiceProcess,
  startServiceProcess,
} from "../../../tests/helpers/service-process.ts";
import { type ClientOptions, Orgit } from "../src/index.ts";

/**
 * Shared set-up of the client's tests: each test file starts ONE real service process
 * (`bun run src/index.ts` from the repository root, in-memory PGlite, loopback) and talks to it
 * only through the client, as an integrator would.
 */
export { ROOT };
export const BUN = `${ROOT}node_modules/.bin/bun`;
export const START_TIMEOUT_MS = 60_000;

export const ALL_SCOPES = [
  "equipment:read",
  "equipment:write",
  "tickets:read",
  "tickets:write",
  "users:read",
  "alerts:read",
  "alerts:write",
  "projects:read",
  "projects:write",
  "webhooks:read",
  "webhooks:write",
  "audit:read",
];

/** Limits high enough that a test file's requests never meet them (all come from 127.0.0.1). */
export const RELAXED_LIMITS = {
  RATE_LIMIT_IP_PER_MIN: "100000",
  RATE_LIMIT_KEY_PER_MIN: "100000",
  RATE_LIMIT_BURST_PER_SEC: "10000",
};

export interface OrgOptions {
  plan?: "FREE" | "PRO" | "ENTERPRISE";
  dailyQuota?: number;
  scopes?: string[];
  /** passed to every client made for this organization's key */
  client?: ClientOptions;
}

export interface TestOrg {
  id: string;
  name: string;
  userId: string;
  secret: string;
  /** a client with this organization's key; options override the defaults */
  client(options?: ClientOptions): Orgit;
}

export interface TestService {
  process: ServiceProcess;
  base: string;
  /** a new organization with an admin user and a key of theirs */
  newOrg(options?: OrgOptions): Promise<TestOrg>;
  /** a client of this service with the given key (none: keyless) */
  client(apiKey: string | undefined, options?: ClientOptions): Orgit;
  /** the key `--demo` printed (only when started with `demo: true`) */
  demoKey: string | undefined;
  stop(): Promise<void>;
}

let orgCounter = 0;

export async function startService(options: {
  label: string;
  env?: Record<string, string>;
  /** seed the demo organization (units, groups, equipment, alerts, releases …) */
  demo?: boolean;
}): Promise<TestService> {
  const child = await startServiceProcess({
    command: [BUN, "run", "src/index.ts", ...(options.demo ? ["--demo"] : [])],
    adminToken: `client-test-${crypto.randomUUID()}`,
    env: { ALLOW_PRIVATE_WEBHOOK_URLS: "true", LOG_LEVEL: "warn", ...options.env },
    startTimeoutMs: START_TIMEOUT_MS,
    label: options.label,
  });
  const base = child.base;
  const client = (apiKey: string | undefined, clientOptions: ClientOptions = {}) =>
    new Orgit({ apiKey, baseUrl: base, ...clientOptions });

  let demoKey: string | undefined;
  if (options.demo) {
    // the demo seeds after the server listens and prints its key once done
    await waitFor(() => /API key\s+:\s+(orgit_\w+)/.test(child.output()), "the demo key", 30_000);
    demoKey = /API key\s+:\s+(orgit_\w+)/.exec(child.output())?.[1];
  }

  async function newOrg(org: OrgOptions = {}): Promise<TestOrg> {
    const suffix = `${++orgCounter}-${crypto.randomUUID().slice(0, 8)}`;
    const name = `Client test org ${suffix}`;
    const organization: Record<string, unknown> = { name, plan: org.plan ?? "PRO" };
    if (org.dailyQuota !== undefined) organization.dailyQuota = org.dailyQuota;
    const {
      org: created,
      user,
      secret,
    } = await child.provisionKey({
      organization,
      user: { email: `client-${suffix}@example.test`, firstName: "Cli", lastName: "Ent" },
      key: { name: `client test ${suffix}`, scopes: org.scopes ?? ALL_SCOPES, expiresIn: "NEVER" },
    });
    return {
      id: created.id,
      name,
      userId: user.id,
      secret,
      client: (clientOptions) => client(secret, { ...org.client, ...clientOptions }),
    };
  }

  return { process: child, base, newOrg, client, demoKey, stop: () => child.stop() };
}

/** Creates an agent release through the operator API (releases are global). */
export function createRelease(service: TestService, input: Record<string, string>) {
  return service.process.operator(CREATE_RELEASE, { input });
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** Every item of an async iterable, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, it succeeded");
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A local HTTP server on 127.0.0.1 that records every request and answers with `answer`
 * (default 200 `{}`): the webhook receiver, and the stand-in for failures the real service
 * cannot produce on demand (5xx, slow answers).
 */
export function startRecorder(
  answer: (request: RecordedRequest, index: number) => Response | Promise<Response> = () =>
    Response.json({}),
) {
  const requests: RecordedRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const recorded: RecordedRequest = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        at: Date.now(),
      };
      requests.push(recorded);
      return answer(recorded, requests.length - 1);
    },
  });
  return {
    base: `http://127.0.0.1:${server.port}`,
    requests,
    stop: () => server.stop(true),
  };
}
