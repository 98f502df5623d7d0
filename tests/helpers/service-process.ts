import { ADD_MEMBER, CREATE_KEY, CREATE_ORG, CREATE_USER } from "./operator-ops.ts";

/**
 * The service as a real child process, driven over HTTP only: for tests of an entry point
 * (Bun with TLS, Deno) rather than of the app in-process.
 */
export const ROOT = new URL("../../", import.meta.url).pathname;

export interface ServiceProcessOptions {
  /** the command line, run from the repository root */
  command: string[];
  /** the operator token the child gets as ADMIN_TOKEN */
  adminToken: string;
  /** extra environment; PATH, HOME, PORT, HOST=127.0.0.1 and ADMIN_TOKEN are always set */
  env?: Record<string, string>;
  scheme?: "http" | "https";
  /** merged into every request the helper sends (e.g. TLS options for a self-signed cert) */
  fetchInit?: BunFetchRequestInit;
  /** how long the child may take to answer /api/v1/health */
  startTimeoutMs: number;
  /** how often to poll /api/v1/health while it starts */
  pollMs?: number;
  /** names the child in failure messages, e.g. "deno" */
  label: string;
  /** the port to listen on (a restart behind a load balancer keeps its port); a free one if unset */
  port?: number;
}

export interface ServiceProcess {
  /** e.g. http://127.0.0.1:54321 */
  base: string;
  /** the child's output so far, to append to assertion messages so a failure explains itself */
  output(): string;
  /** runs one operator mutation and answers its single root field */
  operator<T = { id: string }>(query: string, variables: Record<string, unknown>): Promise<T>;
  /** an organization, a user who is its admin, and an API key of theirs, via the operator API */
  provisionKey(input: {
    organization: Record<string, unknown>;
    user: Record<string, unknown>;
    /** the rest of CreateApiKeyInput: the organization and user are filled in */
    key: { name: string; scopes: string[]; expiresIn: string };
  }): Promise<{ org: { id: string }; user: { id: string }; secret: string }>;
  /** SIGTERM, then SIGKILL if the child is still running after 10 s */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash, no shutdown code runs */
  kill(): Promise<void>;
  /** the child's exit code once it has exited by itself (null while running or when signalled) */
  exitCode(): number | null;
  /** false once the child has exited, whatever the cause */
  alive(): boolean;
  /** the child's process id (the command's own process: npm, not the service it starts) */
  pid: number;
}

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

/** Collects a child stream as text as it arrives, so a full pipe never blocks the child. */
function collect(stream: ReadableStream<Uint8Array>) {
  const state = { text: "" };
  void (async () => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      state.text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return state;
}

/**
 * Starts the child on a free port and answers once it serves HTTP. If it exits or does not
 * answer in time, it is stopped and the error carries its output.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const { label, fetchInit } = options;
  const port = options.port ?? (await freePort());
  const base = `${options.scheme ?? "http"}://127.0.0.1:${port}`;
  const child = Bun.spawn(options.command, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_TOKEN: options.adminToken,
      ...options.env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  let exited = false;
  void child.exited.then(() => {
    exited = true;
  });

  const output = () =>
    `\n--- ${label} stderr ---\n${stderr.text}\n--- ${label} stdout ---\n${stdout.text}`;

  async function stop() {
    if (exited) return;
    child.kill("SIGTERM");
    // graceful shutdown flushes and closes the database; don't wait forever for it
    const stopped = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000)]);
    if (!stopped) child.kill("SIGKILL");
    await child.exited;
  }

  async function operator<T = { id: string }>(
    query: string,
    variables: Record<string, unknown>,
  ): Promise<T> {
    const response = await fetch(`${base}/graphql`, {
      ...fetchInit,
      method: "POST",
      headers: {
        authorization: `Bearer ${options.adminToken}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { data?: Record<string, T>; errors?: unknown[] };
    if (response.status !== 200 || body.errors || !body.data) {
      throw new Error(`GraphQL ${response.status}: ${text}${output()}`);
    }
    return Object.values(body.data)[0] as T;
  }

  const provisionKey: ServiceProcess["provisionKey"] = async (input) => {
    const org = await operator(CREATE_ORG, { input: input.organization });
    const user = await operator(CREATE_USER, { input: input.user });
    await operator(ADD_MEMBER, {
      input: { organizationId: org.id, userId: user.id, role: "admin" },
    });
    const { secret } = await operator<{ secret: string }>(CREATE_KEY, {
      input: { ...input.key, organizationId: org.id, userId: user.id },
    });
    return { org, user, secret };
  };

  // /api/v1/health answers 401 without a key as soon as the server listens
  try {
    const deadline = Date.now() + options.startTimeoutMs;
    for (;;) {
      if (exited) throw new Error(`${label} exited early with code ${child.exitCode}${output()}`);
      try {
        const response = await fetch(`${base}/api/v1/health`, fetchInit);
        if (response.status === 401) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${label} did not start in time${output()}`);
      await Bun.sleep(options.pollMs ?? 250);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  async function kill() {
    if (exited) return;
    child.kill("SIGKILL");
    await child.exited;
  }

  return {
    base,
    output,
    operator,
    provisionKey,
    stop,
    kill,
    exitCode: () => child.exitCode,
    alive: () => !exited,
    pid: child.pid,
  };
}
