import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./service-process.ts";

/**
 * Real Postgres servers started by a test in a temporary folder (docs/testing.md, system tests):
 * a primary made with `initdb`, a streaming replica made from it with `pg_basebackup -R`, and
 * PgBouncer in front of one. Postgres (and PgBouncer) refuse to run as root: as root every
 * command runs as the `postgres` OS user, in a folder it owns.
 */
export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const ROOT_USER = process.getuid?.() === 0;

/** why the engines cannot run here, or undefined when they can */
export function postgresMissing(): string | undefined {
  if (!existsSync(join(PG_BIN, "initdb"))) return `no Postgres binaries in ${PG_BIN} (set PG_BIN)`;
  return undefined;
}

function asOwner(command: string[]): string[] {
  return ROOT_USER ? ["runuser", "-u", "postgres", "--", ...command] : command;
}

export async function run(command: string[], what: string): Promise<string> {
  const child = Bun.spawn(asOwner(command), { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${what} failed (${code}): ${err}${out}`);
  return out;
}

/** a temporary folder the engines' user owns; removed by `removeFolder` */
export function ownedFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (ROOT_USER) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface PostgresServer {
  port: number;
  dir: string;
  /** a URL to `database` on it, as the postgres superuser (trust on 127.0.0.1) */
  url(database?: string): string;
  start(): Promise<void>;
  /** `immediate`: as a crash would (no shutdown checkpoint) */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** the server's log so far, for failure messages */
  log(): string;
}

function server(dir: string, port: number): PostgresServer {
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  return {
    port,
    dir,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await run(
        [
          join(PG_BIN, "pg_ctl"),
          "-D",
          data,
          "-l",
          logFile,
          "-w",
          "-t",
          "30",
          "-o",
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
          "start",
        ],
        `pg_ctl start (port ${port})`,
      );
    },
    async stop(mode = "fast") {
      await run(
        [join(PG_BIN, "pg_ctl"), "-D", data, "-m", mode, "-w", "stop"],
        "pg_ctl stop",
      ).catch(() => {});
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
  };
}

/** a new primary on a free port: trust on 127.0.0.1 (replication included), no fsync */
export async function startPrimary(): Promise<PostgresServer> {
  const dir = ownedFolder("orgit-primary-");
  await run(
    [
      join(PG_BIN, "initdb"),
      "-D",
      join(dir, "data"),
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-sync",
    ],
    "initdb",
  );
  writeFileSync(
    join(dir, "data", "postgresql.auto.conf"),
    [
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "wal_level = replica",
      "",
    ].join("\n"),
  );
  const primary = server(dir, await freePort());
  await primary.start();
  return primary;
}

/** a streaming replica of `primary` (`pg_basebackup -R`: standby.signal and primary_conninfo) */
export async function startReplica(primary: PostgresServer): Promise<PostgresServer> {
  const dir = ownedFolder("orgit-replica-");
  await run(
    [
      join(PG_BIN, "pg_basebackup"),
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-D",
      join(dir, "data"),
      "-R",
      "-X",
      "stream",
      // a fast checkpoint: the default spreads it over checkpoint_timeout (minutes)
      "-c",
      "fast",
      "--no-sync",
    ],
    "pg_basebackup",
  );
  const replica = server(dir, await freePort());
  await replica.start();
  return replica;
}

const PGBOUNCER = "/usr/sbin/pgbouncer";

/**
 * Debian's PgBouncer, installed with apt-get when missing and running as root (as in CI);
 * answers why it cannot run otherwise.
 */
export async function ensurePgbouncer(): Promise<string | undefined> {
  if (existsSync(PGBOUNCER)) return undefined;
  if (!ROOT_USER) return "pgbouncer is not installed (apt-get install pgbouncer, or run as root)";
  const apt = async (...args: string[]) => {
    const child = Bun.spawn(["apt-get", ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [err, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    return code === 0 ? undefined : err;
  };
  const install = ["install", "-y", "--no-install-recommends", "pgbouncer"];
  // a machine whose package lists were never fetched (a fresh image) gets them once
  let failure = await apt(...install);
  if (failure) failure = (await apt("update")) ?? (await apt(...install));
  if (failure || !existsSync(PGBOUNCER)) return `apt-get install pgbouncer failed: ${failure}`;
  // the package starts its own daemon (port 6432) where it can: ours runs on a port of its own
  Bun.spawnSync(["service", "pgbouncer", "stop"]);
  return undefined;
}

export interface Pgbouncer {
  port: number;
  url(database: string): string;
  stop(): Promise<void>;
  log(): string;
}

/**
 * PgBouncer in transaction mode in front of `primary`, with few server sessions per pool;
 * `database` "*": every database of that server (the suites make one per test file)
 */
export async function startPgbouncer(
  primary: Pick<PostgresServer, "port">,
  database: string,
  poolSize = 2,
): Promise<Pgbouncer> {
  const dir = ownedFolder("orgit-pgbouncer-");
  const port = await freePort();
  const logFile = join(dir, "pgbouncer.log");
  const pidFile = join(dir, "pgbouncer.pid");
  writeFileSync(join(dir, "userlist.txt"), '"postgres" ""\n');
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      database === "*"
        ? `* = host=127.0.0.1 port=${primary.port}`
        : `${database} = host=127.0.0.1 port=${primary.port} dbname=${database}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      // SHOW STATS on the admin console (npm run test:pgbouncer counts the pooled transactions)
      "stats_users = postgres",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${logFile}`,
      `pidfile = ${pidFile}`,
      "",
    ].join("\n"),
  );
  await run([PGBOUNCER, "-d", join(dir, "pgbouncer.ini")], "pgbouncer");
  // the daemon writes its pid file a moment after the launcher exits
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await Bun.sleep(50);
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  return {
    port,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async stop() {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
      for (let i = 0; i < 100 && existsSync(pidFile); i++) await Bun.sleep(50);
      removeFolder(dir);
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
  };
}
