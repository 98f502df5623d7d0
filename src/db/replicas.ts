import { AsyncLocalStorage } from "node:async_hooks";
import type postgres from "postgres";
import type { Logger } from "../logger.ts";
import type { ReadCounts, ReadRouting, ReplicaState } from "./database.ts";
import { databaseUnavailableCode } from "./errors.ts";
import { routedClient } from "./replica-client.ts";
import { lagFromSamples, parseLsn, WritePositions } from "./wal-positions.ts";

export interface ReplicaHandle {
  /** the replica's pool, for the probes */
  sql: postgres.Sql;
  /** what Drizzle's statements run on there (the pool, wrapped to prepare them, or not) */
  client: postgres.Sql;
  /** a fresh pool, when the replica stopped answering: the old one is destroyed */
  reopen(): { sql: postgres.Sql; client: postgres.Sql };
}

export interface ReadRoutingOptions {
  maxLagMs: number;
  /** how often each replica and the primary's WAL position are probed */
  probeIntervalMs?: number;
  logger?: Logger;
}

const POSITIONS_CHANNEL = "orgit_wal_positions";
const PROBE_TIMEOUT_MS = 2_000;

interface Replica extends ReplicaHandle {
  name: string;
  state: ReplicaState;
  lagMs: number | null;
  /** the last replay position seen: replay never goes back, so it is a lower bound of now's */
  replayed: bigint | null;
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref?.(),
    ),
  ]);

/**
 * Routes Drizzle's statements at the driver, when each runs: a plain select made inside `read`
 * goes to the replica chosen for that request; every other statement (writes, locks,
 * transactions, which postgres.js runs on a client of their own) and everything outside `read`
 * (sign-in, key checks, background jobs) goes to the primary. At the driver rather than with
 * drizzle-orm's `withReplicas`, which picks when a query is built: our lists are Drizzle
 * prepared queries built once per handle (docs/decisions.md, read replicas).
 */
export function createReadRouting(
  primarySql: postgres.Sql,
  primary: postgres.Sql,
  handles: ReplicaHandle[],
  options: ReadRoutingOptions,
): { client: postgres.Sql; routing: ReadRouting } {
  const interval = options.probeIntervalMs ?? 1_000;
  const replicas: Replica[] = handles.map((handle, index) => ({
    ...handle,
    name: `replica-${index + 1}`,
    state: "unknown",
    lagMs: null,
    replayed: null,
  }));
  // the request's replica; the holder is emptied when the request ends, so work it scheduled
  // (timers, batched flushes) that outlives it runs on the primary
  const scope = new AsyncLocalStorage<{ client: postgres.Sql | undefined }>();
  const client = routedClient(primary, () => scope.getStore()?.client);
  const positions = new WritePositions(options.maxLagMs + 2 * interval);
  const samples: { at: number; lsn: bigint }[] = [];
  const counts: ReadCounts = { replica: 0, primary: 0, fallback: 0 };
  const logger = options.logger;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let unlisten: (() => Promise<void>) | undefined;
  let logged = { ...counts };

  function setState(replica: Replica, state: ReplicaState, detail?: string) {
    if (replica.state === state) return;
    const was = replica.state;
    replica.state = state;
    if (state === "unavailable") {
      replica.lagMs = null;
      // reads waiting on a replica that went silent (a partition, a frozen host) fail now and
      // run again on the primary, rather than waiting for TCP to give up
      const silent = replica.sql;
      Object.assign(replica, replica.reopen());
      void silent.end({ timeout: 0 }).catch(() => {});
    }
    const fields = { replica: replica.name, was, lagMs: replica.lagMs, detail };
    if (state === "ok") logger?.info("read replica in use", fields);
    else if (was !== "unknown" || state === "unavailable") {
      logger?.warn(`read replica skipped: ${state}`, fields);
    }
  }

  async function probeReplica(replica: Replica) {
    try {
      const [row] = await within(
        replica.sql<{ recovery: boolean; lsn: string | null }[]>`
          select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as lsn`,
        PROBE_TIMEOUT_MS,
      );
      if (!row?.recovery || !row.lsn) {
        replica.lagMs = null;
        return setState(replica, "unavailable", "not a standby in recovery");
      }
      replica.replayed = parseLsn(row.lsn);
      replica.lagMs = lagFromSamples(samples, replica.replayed, Date.now());
      setState(
        replica,
        replica.lagMs !== null && replica.lagMs <= options.maxLagMs ? "ok" : "lagging",
      );
    } catch (error) {
      replica.lagMs = null;
      setState(replica, "unavailable", (error as Error)?.message);
    }
  }

  async function probe() {
    try {
      const [row] = await within(
        primarySql<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`,
        PROBE_TIMEOUT_MS,
      );
      if (row) samples.push({ at: Date.now(), lsn: parseLsn(row.lsn) });
    } catch {
      // the primary's readiness is /readyz's database check; replicas keep their last samples
    }
    const keepSince = Date.now() - options.maxLagMs - 3 * interval;
    while (samples.length > 2 && (samples[1]?.at ?? 0) < keepSince) samples.shift();
    await Promise.all(replicas.map(probeReplica));
    let replayedByAll: bigint | null = replicas[0]?.replayed ?? null;
    for (const { replayed } of replicas) {
      replayedByAll =
        replayed === null || replayedByAll === null
          ? null
          : replayed < replayedByAll
            ? replayed
            : replayedByAll;
    }
    if (replayedByAll !== null) positions.prune(replayedByAll);
    logCounts();
  }

  let lastCountsLog = Date.now();
  function logCounts() {
    if (Date.now() - lastCountsLog < 60_000) return;
    lastCountsLog = Date.now();
    if (counts.replica === logged.replica && counts.primary === logged.primary) return;
    logger?.info("reads that may lag", {
      replica: counts.replica - logged.replica,
      primary: counts.primary - logged.primary,
      fallback: counts.fallback - logged.fallback,
      replicas: replicas.map((r) => `${r.name}:${r.state}`).join(","),
    });
    logged = { ...counts };
  }

  function loop() {
    if (stopped) return;
    timer = setTimeout(() => {
      probe().finally(loop);
    }, interval);
    timer.unref?.();
  }

  /** a healthy replica that has replayed `minimum`, checked live when the probe's is older */
  async function pick(minimum: bigint | undefined): Promise<Replica | undefined> {
    const healthy = replicas.filter((r) => r.state === "ok");
    for (let left = healthy.length; left > 0; left--) {
      const replica = healthy.splice(Math.floor(Math.random() * healthy.length), 1)[0] as Replica;
      if (minimum === undefined || (replica.replayed ?? -1n) >= minimum) return replica;
      try {
        const [row] = await within(
          replica.sql<{ lsn: string | null }[]>`select pg_last_wal_replay_lsn()::text as lsn`,
          PROBE_TIMEOUT_MS,
        );
        const now = row?.lsn ? parseLsn(row.lsn) : null;
        if (now !== null && now > (replica.replayed ?? -1n)) replica.replayed = now;
        if (now !== null && now >= minimum) return replica;
      } catch (error) {
        setState(replica, "unavailable", (error as Error)?.message);
      }
    }
    return undefined;
  }

  const routing: ReadRouting = {
    counts,
    async read(who, run) {
      const replica = await pick(positions.get(who));
      if (!replica) {
        counts.primary++;
        return run();
      }
      const holder = { client: replica.client as postgres.Sql | undefined };
      try {
        counts.replica++;
        return await scope.run(holder, run);
      } catch (error) {
        if (!databaseUnavailableCode(error)) throw error;
        setState(replica, "unavailable", (error as Error)?.message);
        counts.fallback++;
        return run();
      } finally {
        holder.client = undefined;
      }
    },
    async wrote(who) {
      if (who === undefined) return;
      try {
        const [row] = await primarySql<{ lsn: string }[]>`
          select pg_current_wal_insert_lsn()::text as lsn,
                 pg_notify(${POSITIONS_CHANNEL}, ${who} || ' ' || pg_current_wal_insert_lsn()::text)`;
        if (row) positions.set(who, parseLsn(row.lsn));
      } catch {
        // position unknown: this caller reads from the primary until any replica must have it
        positions.unknown(who);
      }
    },
    status: () => replicas.map(({ name, state, lagMs }) => ({ name, state, lagMs })),
    async start(listen) {
      unlisten = await listen(POSITIONS_CHANNEL, (payload) => {
        const space = payload.lastIndexOf(" ");
        if (space > 0) positions.set(payload.slice(0, space), parseLsn(payload.slice(space + 1)));
      });
      await probe();
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await unlisten?.().catch(() => {});
      await Promise.all(replicas.map((r) => r.sql.end({ timeout: 5 })));
    },
  };
  return { client, routing };
}
