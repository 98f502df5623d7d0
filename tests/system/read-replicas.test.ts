import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { CREATE_KEY } from "../helpers/operator-ops.ts";
import {
  type PostgresServer,
  postgresMissing,
  removeFolder,
  startPrimary,
  startReplica,
} from "../helpers/postgres-cluster.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * Read replicas (docs/operations.md, docs/decisions.md "Read replicas"): a primary made with
 * initdb and a streaming replica made with pg_basebackup -R, both started here, and the service
 * as a real process with DATABASE_READ_URLS. Replay is paused on the replica to make lag real.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;
const ADMIN_TOKEN = "replicas-operator-token-0123456789";
const MAX_LAG_MS = 2_000;
const SCOPES = ["tickets:read", "tickets:write", "projects:read", "projects:write"];
const missing = postgresMissing();
if (missing) console.warn(`tests/system/read-replicas.test.ts skipped: ${missing}`);

interface Readyz {
  status: string;
  replicas: { name: string; state: string; lagMs: number | null }[];
  reads: { replica: number; primary: number; fallback: number };
}
interface Ticket {
  id: string;
  title: string;
}

describe.skipIf(Boolean(missing))("read replicas (initdb, pg_basebackup -R)", () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let service: ServiceProcess;
  /** a second instance on the same primary and replica */
  let other: ServiceProcess;
  let onReplica: postgres.Sql;
  let writer: Record<string, string>;
  let reader: Record<string, string>;

  const readyz = async (on = service) =>
    (await (await fetch(`${on.base}/readyz`)).json()) as Readyz;
  const replicaState = async (on = service) => (await readyz(on)).replicas[0]?.state;
  /**
   * Each test starts here, whatever ran before it (`bun test --randomize`): both instances
   * read from the replica again (an earlier test may have paused, stopped or outrun it).
   */
  const replicaInUse = () =>
    eventually(
      async () => (await replicaState(service)) === "ok" && (await replicaState(other)) === "ok",
      "the replica in use on both instances",
      15_000,
    );
  const listTickets = async (headers: Record<string, string>, on = service) => {
    const response = await fetch(`${on.base}/api/v1/tickets?limit=100`, { headers });
    const text = await response.text();
    expect(response.status, text + service.output()).toBe(200);
    const body = JSON.parse(text) as Ticket[] | { data: Ticket[] };
    return (Array.isArray(body) ? body : body.data).map((ticket) => ticket.title);
  };
  const graphql = async (headers: Record<string, string>, query: string) => {
    const response = await fetch(`${service.base}/graphql`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text) as { data: Record<string, unknown> };
  };
  const graphqlTitles = async (headers: Record<string, string>) => {
    const { data } = await graphql(headers, "{ tickets(limit: 100) { data { title } } }");
    return (data.tickets as { data: Ticket[] }).data.map((ticket) => ticket.title);
  };
  const createTicket = async (title: string, on = service) => {
    const response = await fetch(`${on.base}/api/v1/tickets`, {
      method: "POST",
      headers: writer,
      body: JSON.stringify({ title, description: "written on the primary" }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  /** A ticket the replica has replayed: the reader's list, served by the replica, shows it. */
  const replicated = async (title: string) => {
    await createTicket(title);
    await eventually(
      async () => (await listTickets(reader)).includes(title),
      "the replica replays the ticket",
    );
  };
  /** index and sequential scans of tickets on the replica: its own statistics */
  const ticketScansOnReplica = async () => {
    const [row] = await onReplica<{ n: string }[]>`
      select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n
      from pg_stat_user_tables where relname = 'tickets'`;
    return Number(row?.n ?? 0);
  };

  beforeAll(async () => {
    primary = await startPrimary();
    const admin = postgres(primary.url(), { max: 1, onnotice: () => {} });
    await admin`create database orgit`;
    await admin.end();
    replica = await startReplica(primary);
    onReplica = postgres(replica.url("orgit"), { max: 1, onnotice: () => {} });
    const start = (label: string) =>
      startServiceProcess({
        command: [BUN, "run", "src/index.ts"],
        adminToken: ADMIN_TOKEN,
        env: {
          DATABASE_URL: primary.url("orgit"),
          DATABASE_READ_URLS: replica.url("orgit"),
          REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
          LOG_LEVEL: "info",
          RATE_LIMIT_IP_PER_MIN: "100000",
          RATE_LIMIT_KEY_PER_MIN: "100000",
          RATE_LIMIT_BURST_PER_SEC: "100000",
        },
        startTimeoutMs: 60_000,
        label,
      });
    [service, other] = await Promise.all([start("instance A"), start("instance B")]);
    const { org, user, secret } = await service.provisionKey({
      organization: { name: "Replica Co", plan: "ENTERPRISE" },
      user: { email: "replica@example.com", firstName: "Re", lastName: "Plica" },
      key: { name: "writer", scopes: SCOPES, expiresIn: "NEVER" },
    });
    const second = await service.operator<{ secret: string }>(CREATE_KEY, {
      input: {
        name: "reader",
        scopes: SCOPES,
        expiresIn: "NEVER",
        organizationId: org.id,
        userId: user.id,
      },
    });
    writer = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    reader = { authorization: `Bearer ${second.secret}`, "content-type": "application/json" };
    await replicaInUse();
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await other?.stop();
    await onReplica?.end();
    await replica?.stop("immediate");
    await primary?.stop("immediate");
    if (replica) removeFolder(replica.dir);
    if (primary) removeFolder(primary.dir);
  });

  test("a list is served by the replica: its own statistics count the scan", async () => {
    await replicaInUse();
    await replicated("counted on the replica");
    const before = await ticketScansOnReplica();
    const readsBefore = (await readyz()).reads.replica;
    expect(await listTickets(reader)).toContain("counted on the replica");
    await eventually(
      async () => (await ticketScansOnReplica()) > before,
      "a scan of tickets counted on the replica",
    );
    expect((await readyz()).reads.replica).toBeGreaterThan(readsBefore);
  });

  test("a key reads its own write through a lagging replica; another key sees the replica's copy", async () => {
    await replicaInUse();
    await replicated("replayed before the pause");
    await onReplica`select pg_wal_replay_pause()`;
    try {
      await createTicket("written while replay is paused");
      // the writer's read waits for no replica: its WAL position is not replayed, so the primary
      expect(await listTickets(writer)).toContain("written while replay is paused");
      // the other key may lag (within REPLICA_MAX_LAG_MS): the paused replica answers, without it
      const seenByReader = await listTickets(reader);
      expect(seenByReader).toContain("replayed before the pause");
      expect(seenByReader).not.toContain("written while replay is paused");
    } finally {
      await onReplica`select pg_wal_replay_resume()`;
    }
    await eventually(
      async () => (await listTickets(reader)).includes("written while replay is paused"),
      "the reader sees the ticket once replay resumes",
    );
  });

  test("a key's write on one instance is read by the same key on another instance through the paused replica", async () => {
    await replicaInUse();
    await onReplica`select pg_wal_replay_pause()`;
    try {
      await createTicket("written on instance A", service);
      // instance B heard A's write position (pg_notify at commit) before the client asks it
      expect(await listTickets(writer, other)).toContain("written on instance A");
      expect(await listTickets(reader, other)).not.toContain("written on instance A");
    } finally {
      await onReplica`select pg_wal_replay_resume()`;
    }
  });

  test("/graphql: a key's query sees its own mutation while replay is paused; another key's query reads the replica", async () => {
    await replicaInUse();
    await replicated("replayed before the GraphQL pause");
    await onReplica`select pg_wal_replay_pause()`;
    try {
      const created = await graphql(
        writer,
        'mutation { createTicket(input: { title: "written over GraphQL", description: "a mutation on /graphql" }) { id } }',
      );
      expect(created.data.createTicket).toBeDefined();
      expect(await graphqlTitles(writer)).toContain("written over GraphQL");
      const seenByReader = await graphqlTitles(reader);
      expect(seenByReader).toContain("replayed before the GraphQL pause");
      expect(seenByReader).not.toContain("written over GraphQL");
    } finally {
      await onReplica`select pg_wal_replay_resume()`;
    }
  });

  test("a replica further behind than REPLICA_MAX_LAG_MS is skipped, then used again", async () => {
    await replicaInUse();
    await onReplica`select pg_wal_replay_pause()`;
    try {
      await createTicket("behind the lag bound");
      await eventually(
        async () => (await replicaState()) === "lagging",
        "the replica reported lagging",
        MAX_LAG_MS + 5_000,
      );
      const lagging = (await readyz()).replicas[0];
      expect(lagging?.lagMs).toBeGreaterThan(MAX_LAG_MS);
      // skipped: the other key now reads the primary, which has the ticket
      expect(await listTickets(reader)).toContain("behind the lag bound");
    } finally {
      await onReplica`select pg_wal_replay_resume()`;
    }
    await eventually(async () => (await replicaState()) === "ok", "the replica in use again");
  });

  test("a replica that stops answering (SIGSTOP) is left within seconds: reads waiting on it finish on the primary", async () => {
    await replicaInUse();
    const postmaster = readFileSync(`${replica.dir}/data/postmaster.pid`, "utf8").split("\n")[0];
    const children = Bun.spawnSync(["pgrep", "-P", String(postmaster)]).stdout.toString();
    const pids = [...children.split("\n").filter(Boolean), String(postmaster)].map(Number);
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    try {
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${service.base}/api/v1/tickets?limit=5`, { headers: reader }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      // a probe interval (1 s) and its timeout (2 s), not TCP's minutes
      expect(Date.now() - started).toBeLessThan(6_000);
      expect((await readyz()).replicas[0]?.state).toBe("unavailable");
    } finally {
      for (const pid of pids) process.kill(pid, "SIGCONT");
    }
    await eventually(async () => (await replicaState()) === "ok", "the replica in use again");
  });

  test("the replica stopped: reads fall back to the primary with no 5xx and the instance stays ready; started again, it is used again", async () => {
    await replicaInUse();
    await replica.stop("immediate");
    try {
      await replicaDown();
    } finally {
      await replica.start();
    }
    await replicaInUse();
  });

  /** The body of the test above, while the replica is stopped. */
  async function replicaDown() {
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${service.base}/api/v1/tickets?limit=5`, { headers: reader }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(
      statuses.filter((status) => status !== 200),
      service.output(),
    ).toEqual([]);
    await eventually(async () => (await replicaState()) === "unavailable", "replica unavailable");
    const response = await fetch(`${service.base}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Readyz;
    expect(body.replicas).toEqual([{ name: "replica-1", state: "unavailable", lagMs: null }]);
    await createTicket("written while the replica is down");
    const before = (await readyz()).reads.primary;
    expect(await listTickets(reader)).toContain("written while the replica is down");
    expect((await readyz()).reads.primary).toBe(before + 1);
    expect(service.output()).toContain("read replica skipped: unavailable");
  }
});
