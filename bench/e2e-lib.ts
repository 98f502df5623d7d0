/**
 * bench/e2e.ts's pieces: the service as a child process (`bun run start`), provisioning through
 * the operator API, and the few statistics it prints.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";

const ADMIN_TOKEN = "bench-operator-token-0123456789";
/** limits that never refuse: the bench measures the cost of checking them */
const ROOMY = "999999999";

export interface Load {
  requests: number;
  seconds: number;
  /** every answer's latency, milliseconds */
  latencies: number[];
  /** CPU time (user + system) the server process spent meanwhile, milliseconds */
  cpuMs: number;
}

/** A process's CPU time so far (user + system), milliseconds; Linux /proc, clock ticks of 10 ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let pinned = false;

/**
 * `--pin`: the servers on CPU 0, this process and its load generators (wrk, autocannon) on the
 * other CPUs, with `taskset`. Unpinned, a server and wrk share and swap cores, and on a 2-core
 * machine one server's rounds scattered by ±30 % (docs/performance.md, "Reproduce").
 */
export function pinServers(): void {
  const cpus = availableParallelism();
  if (cpus < 2) throw new Error("--pin needs 2 CPUs or more");
  execFileSync("taskset", ["-a", "-p", "-c", `1-${cpus - 1}`, String(process.pid)], {
    stdio: "ignore",
  });
  pinned = true;
}

/** A server started after `pinServers()` moves to CPU 0, every thread of it. */
export function pinServer(pid: number): void {
  if (pinned) execFileSync("taskset", ["-a", "-p", "-c", "0", String(pid)], { stdio: "ignore" });
}

/** Stops the services started (each child leads its own process group: `bun run start` runs the server as its child). */
export async function stopChildren(children: ChildProcess[]): Promise<void> {
  for (const child of children)
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  await Promise.all(
    children.map(
      (child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r))),
    ),
  );
}

/**
 * A database of its own on TEST_DATABASE_URL's server (default the local `test` one) for one
 * bench run: `admin` is a connection to the server's own database, `drop()` removes it again.
 */
export async function benchDatabase(prefix: string) {
  const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  return { name, url: url.toString(), admin, drop };
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

/** Requests per second over every round; p50/p99 over every answer of every round. */
export function summary(loads: Load[]) {
  const requests = loads.reduce((n, l) => n + l.requests, 0);
  const seconds = loads.reduce((n, l) => n + l.seconds, 0);
  const all = loads.flatMap((l) => l.latencies);
  const rps = requests / seconds;
  const p50 = percentile(all, 0.5);
  const p99 = percentile(all, 0.99);
  const cpuUs = (loads.reduce((n, l) => n + l.cpuMs, 0) * 1000) / requests;
  const text = `${Math.round(rps).toString().padStart(13)} ${p50.toFixed(2).padStart(5)} ${p99.toFixed(2).padStart(5)}`;
  return { rps, p50, p99, cpuUs, text };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class Service {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {}

  /**
   * `bun run start` on a free loopback port, access log on (to /dev/null; BENCH_LOG_LEVEL=warn
   * turns it off, to see what it costs), limits roomy.
   */
  static async start(
    databaseUrl: string,
    into: ChildProcess[],
    /** a folder: run under `bun --cpu-prof-md` instead, the profile written there at exit */
    profileDir?: string,
    /** more environment (the audit bench's second service: AUDIT_LOG=false) */
    env: Record<string, string> = {},
    /** the tree to run (bench/ab.ts: an earlier commit's checkout); this one by default */
    cwd?: string,
  ): Promise<Service> {
    const port = await freePort();
    const args = profileDir
      ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, "src/index.ts"]
      : ["run", "start"];
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: "127.0.0.1",
        ADMIN_TOKEN,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
        RATE_LIMIT_IP_PER_MIN: ROOMY,
        RATE_LIMIT_KEY_PER_MIN: ROOMY,
        RATE_LIMIT_BURST_PER_SEC: ROOMY,
        NODE_ENV: "",
        REDIS_URL: "",
        ...env,
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      cwd,
    });
    into.push(child);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode})`);
      // any answer will do: migrations run before the port opens
      const ok = await fetch(`${url}/api/v1/whoami`).then(
        () => true,
        () => false,
      );
      if (ok) break;
      if (i > 300) throw new Error("the service did not become ready in 30 s");
      await Bun.sleep(100);
    }
    const service = new Service(url, child);
    pinServer(service.pid());
    return service;
  }

  async operator<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const response = await fetch(`${this.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await response.json()) as { data?: T; errors?: { message: string }[] };
    if (json.errors) throw new Error(`operator API: ${json.errors[0]?.message}`);
    return json.data as T;
  }

  /** An organization with a member of `role` and their key; the organization is created once. */
  async member(input: {
    organizationId?: string;
    dailyQuota?: number;
    role?: string;
    scopes?: string[];
  }): Promise<{ organizationId: string; userId: string; key: string }> {
    let organizationId = input.organizationId;
    if (!organizationId) {
      const { createOrganization } = await this.operator<{ createOrganization: { id: string } }>(
        "mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }",
        { i: { name: "Bench", plan: "ENTERPRISE", dailyQuota: input.dailyQuota ?? 1_000_000_000 } },
      );
      organizationId = createOrganization.id;
    }
    const { createUser } = await this.operator<{ createUser: { id: string } }>(
      "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }",
      { i: { email: `${crypto.randomUUID()}@example.com`, firstName: "Bench", lastName: "Mark" } },
    );
    await this.operator("mutation($i: AddMemberInput!) { addMember(input: $i) { role } }", {
      i: { organizationId, userId: createUser.id, role: input.role ?? "admin" },
    });
    const { createApiKey } = await this.operator<{ createApiKey: { secret: string } }>(
      "mutation($i: CreateApiKeyInput!) { createApiKey(input: $i) { secret } }",
      {
        i: {
          organizationId,
          userId: createUser.id,
          name: "bench",
          scopes: input.scopes ?? ["tickets:read", "tickets:write"],
          expiresIn: "NEVER",
        },
      },
    );
    return { organizationId, userId: createUser.id, key: createApiKey.secret };
  }

  /** The measured organization with `tickets` tickets (POSTed), and a key whose quota is spent. */
  async provision(tickets: number) {
    const started = performance.now();
    const main = await this.member({});
    let next = 0;
    const priorities = ["low", "medium", "high", "critical"];
    const worker = async () => {
      while (next < tickets) {
        const i = next++;
        const response = await fetch(`${this.url}/api/v1/tickets`, {
          method: "POST",
          headers: { authorization: `Bearer ${main.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            title: `Ticket ${i}`,
            description: `Seeded ticket number ${i} for the benchmark.`,
            priority: priorities[i % 4],
          }),
        });
        if (response.status !== 201)
          throw new Error(`seeding: ${response.status} ${await response.text()}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const spent = await this.member({ dailyQuota: 1 });
    await fetch(`${this.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${spent.key}` } });
    await Bun.sleep(1_500); // the count reaches Postgres (flushed every second) for the baseline
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`seeded ${tickets} tickets through the API in ${seconds} s`);
    return { key: main.key, organizationId: main.organizationId, spentKey: spent.key };
  }

  /** The server process: the deepest descendant of `bun run start`. */
  pid(): number {
    let pid = this.child.pid as number;
    for (;;) {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
      if (!children) return pid;
      pid = Number(children.split(" ")[0]);
    }
  }

  /** Resident memory of the server process. */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.pid()}/status`, "utf8");
    return Number(status.match(/VmRSS:\s+(\d+)/)?.[1]) / 1024;
  }
}

/**
 * `commit` checked out into a temporary git worktree beside this one (A/B benches), with this
 * tree's node_modules; `remove` takes it away again.
 */
export function baseCheckout(commit: string, prefix: string) {
  const root = resolve(import.meta.dir, "..");
  const path = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { stdio: "pipe" });
  git("worktree", "add", "--detach", path, commit);
  symlinkSync(join(root, "node_modules"), join(path, "node_modules"));
  return {
    path,
    remove() {
      git("worktree", "remove", "--force", path);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
