import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import {
  ownedFolder,
  type PostgresServer,
  postgresMissing,
  removeFolder,
  startPrimary,
  startReplica,
} from "../tests/helpers/postgres-cluster.ts";
import {
  freePort,
  ROOT,
  type ServiceProcess,
  startServiceProcess,
} from "../tests/helpers/service-process.ts";

/**
 * The soak's topology (docs/scaling.md), every engine started here in temporary folders and
 * listening on 127.0.0.1 only: a Postgres primary and a streaming replica (the system tests'
 * helpers), a Redis server of its own (so restarting it disturbs nobody else), three service
 * processes, and Debian's HAProxy in front of them with /readyz health checks.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;
const HAPROXY = "/usr/sbin/haproxy";
const REDIS = "/usr/bin/redis-server";
export const ADMIN_TOKEN = "soak-operator-token-0123456789abcdef";

export interface Instance {
  label: string;
  port: number;
  process: ServiceProcess;
}

export interface Cluster {
  primary: PostgresServer;
  replica: PostgresServer;
  /** the superuser on the primary's `orgit` database, for faults and the final counts */
  admin: postgres.Sql;
  instances: Instance[];
  /** HAProxy's frontend, e.g. http://127.0.0.1:40000 */
  base: string;
  killInstance(index: number): Promise<void>;
  startInstance(index: number): Promise<void>;
  restartRedis(): Promise<void>;
  stop(): Promise<void>;
}

/** why the soak cannot run here, or undefined; installs HAProxy with apt-get as root */
export function soakMissing(): string | undefined {
  const pg = postgresMissing();
  if (pg) return pg;
  if (!existsSync(REDIS)) return "no redis-server (apt-get install redis-server)";
  if (!existsSync(HAPROXY) && process.getuid?.() === 0) {
    Bun.spawnSync(["apt-get", "install", "-y", "--no-install-recommends", "haproxy"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    // the package starts its own daemon (port 80 from /etc/haproxy): ours has a config of its own
    Bun.spawnSync(["service", "haproxy", "stop"]);
  }
  if (!existsSync(HAPROXY)) return "no haproxy (apt-get install haproxy, or run as root)";
  return undefined;
}

function haproxyConfig(port: number, instancePorts: number[]): string {
  return [
    "global",
    "  maxconn 2000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  retries 3",
    "  option redispatch",
    "frontend soak",
    `  bind 127.0.0.1:${port}`,
    "  default_backend orgit",
    "backend orgit",
    "  balance leastconn",
    "  option httpchk",
    // HTTP/1.1 with a Host, as deploy/haproxy.cfg: without one the service answers 404
    "  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host orgit",
    "  http-check expect status 200",
    "  retry-on conn-failure empty-response",
    // HAProxy's own errors as the service's 503 with Retry-After, as deploy/haproxy.cfg
    ...[502, 503, 504].map(
      (code) =>
        `  http-error status ${code} content-type application/json string '{"error":"Service unavailable"}' hdr Retry-After 1`,
    ),
    "  http-after-response set-status 503 if { status 502 } || { status 504 }",
    "  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions",
    ...instancePorts.map((p, i) => `  server orgit${i} 127.0.0.1:${p} check`),
    "",
  ].join("\n");
}

function startRedis(dir: string, port: number) {
  return Bun.spawn(
    [REDIS, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { cwd: dir, stdin: "ignore", stdout: "ignore", stderr: "ignore" },
  );
}

async function waitForPort(port: number, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const socket = await Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: { data() {} },
      });
      socket.end();
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${what} did not listen on ${port}`);
}

export async function startCluster(maxLagMs: number): Promise<Cluster> {
  const primary = await startPrimary();
  const setup = postgres(primary.url(), { max: 1, onnotice: () => {} });
  await setup`create database orgit`;
  await setup.end();
  const replica = await startReplica(primary);
  const admin = postgres(primary.url("orgit"), { max: 2, onnotice: () => {} });

  const dir = ownedFolder("orgit-soak-");
  const redisPort = await freePort();
  let redis = startRedis(dir, redisPort);
  await waitForPort(redisPort, "redis-server");

  const env: Record<string, string> = {
    DATABASE_URL: primary.url("orgit"),
    DATABASE_READ_URLS: replica.url("orgit"),
    REPLICA_MAX_LAG_MS: String(maxLagMs),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    LOG_LEVEL: "warn",
    // the load comes from one address (HAProxy's): the IP and key buckets are not under test;
    // the plan's per-organization limit and the daily quota are
    RATE_LIMIT_IP_PER_MIN: "1000000",
    RATE_LIMIT_KEY_PER_MIN: "1000000",
    RATE_LIMIT_BURST_PER_SEC: "1000000",
  };
  const ports = [await freePort(), await freePort(), await freePort()];
  const launch = (index: number) =>
    startServiceProcess({
      command: [BUN, "run", "src/index.ts"],
      adminToken: ADMIN_TOKEN,
      env,
      port: ports[index],
      startTimeoutMs: 60_000,
      label: `instance ${index}`,
    });
  // one at a time: the first applies the migrations
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      instances.push({
        label: `instance ${i}`,
        port: ports[i] as number,
        process: await launch(i),
      });
    }
  } catch (error) {
    // an instance that does not start: stop what is running, then say why
    await Promise.all(instances.map((instance) => instance.process.stop()));
    redis.kill("SIGTERM");
    await admin.end();
    await replica.stop("immediate");
    await primary.stop("immediate");
    for (const folder of [replica.dir, primary.dir, dir]) removeFolder(folder);
    throw error;
  }

  const port = await freePort();
  const configFile = join(dir, "haproxy.cfg");
  writeFileSync(configFile, haproxyConfig(port, ports));
  const haproxy = Bun.spawn([HAPROXY, "-db", "-f", configFile], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  await waitForPort(port, "haproxy");
  // the load starts once HAProxy's health checks have found the instances ready
  for (let i = 0; ; i++) {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (response?.status === 200) break;
    if (i > 100) throw new Error(`HAProxy finds no instance ready: ${response?.status}`);
    await Bun.sleep(200);
  }

  return {
    primary,
    replica,
    admin,
    instances,
    base: `http://127.0.0.1:${port}`,
    async killInstance(index) {
      await instances[index]?.process.kill();
    },
    async startInstance(index) {
      const instance = instances[index] as Instance;
      instance.process = await launch(index);
    },
    async restartRedis() {
      redis.kill("SIGKILL");
      await redis.exited;
      await Bun.sleep(1_000);
      redis = startRedis(dir, redisPort);
      await waitForPort(redisPort, "redis-server");
    },
    async stop() {
      haproxy.kill("SIGTERM");
      await Promise.all(instances.map((instance) => instance.process.stop()));
      redis.kill("SIGTERM");
      await Promise.all([haproxy.exited, redis.exited]);
      await admin.end();
      await replica.stop("immediate");
      await primary.stop("immediate");
      removeFolder(replica.dir);
      removeFolder(primary.dir);
      removeFolder(dir);
    },
  };
}
