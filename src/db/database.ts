import type { PGlite } from "@electric-sql/pglite";
import type { Logger } from "../logger.ts";
import type { Db, Executor } from "./types.ts";

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** number of statements sent through Drizzle since start; tests use it to prove N+1 freedom */
  readonly stats: { queries: number };
  /**
   * Subscribes to a Postgres notification channel; resolves once the LISTEN is active.
   * `onListen` runs each time the subscription is (re)established: notifications sent while
   * the connection was down are lost, so callers drop what they cached.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * A fresh uuid for a component of this process (e.g. its key store) whose first half names
   * this handle's sessions on the server (application_name `orgit:<first 16 hex digits>`),
   * so that `liveInstances` can tell from the id alone whether its process is still there.
   */
  newInstanceId(): string;
  /**
   * Which of these ids (from `newInstanceId`) belong to a process holding a session on the
   * server right now; one that died has none (the kernel closed its sockets). Undefined where
   * the database cannot tell (PGlite, in-process only). A caller inside a transaction passes
   * it as `on`: a second connection may never come while transactions hold them all.
   */
  liveInstances?(ids: string[], on?: Executor): Promise<Set<string>>;
  /**
   * When a connection of its pools last closed (Date.now()): a terminated backend, a restart, a
   * pooler that lost its server, or a connection ended at its lifetime. Undefined while none
   * has, and always for PGlite (nothing to lose). The key store does not cache a "no such key"
   * read shortly after one (src/auth/key-store.ts).
   */
  connectionClosedAt?(): number | undefined;
  /** read replicas (DATABASE_READ_URLS): where reads that may lag go; absent without them */
  reads?: ReadRouting;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** connection pool size for postgres.js */
  poolSize?: number;
  /** an existing PGlite to share (tests run two app instances over one embedded database) */
  pglite?: PGlite;
  /** read replicas for reads that may lag (docs/operations.md) */
  readUrls?: readonly string[];
  /** a replica further behind the primary than this is skipped (default 5000) */
  maxLagMs?: number;
  /** how often replicas are probed (default 1000 ms) */
  replicaProbeMs?: number;
  /** "pgbouncer": DATABASE_URL is a transaction-mode pooler (no prepared statements kept) */
  pooler?: "pgbouncer";
  /** a session to Postgres itself: LISTEN and migrations' advisory lock (needed with a pooler) */
  directUrl?: string;
  logger?: Logger;
}

export type ReplicaState = "ok" | "lagging" | "unavailable" | "unknown";

/** What /readyz says of each replica: no host, no driver message (docs/operations.md). */
export interface ReplicaStatus {
  name: string;
  state: ReplicaState;
  /** how far behind the primary, estimated from WAL positions; null while unknown */
  lagMs: number | null;
}

/** Where the reads that may lag went since start (also logged every minute). */
export interface ReadCounts {
  replica: number;
  primary: number;
  /** reads begun on a replica that failed under them and ran again on the primary */
  fallback: number;
}

/**
 * The routing of reads that may lag (docs/decisions.md, read replicas): GraphQL queries and the
 * REST routes' read operations run through `read`, everything else stays on the primary.
 */
export interface ReadRouting {
  /** runs `run` with its plain selects on a healthy replica that has replayed `who`'s writes */
  read<T>(who: string | undefined, run: () => Promise<T>): Promise<T>;
  /** after `who` wrote: remembers the primary's WAL position (and tells the other instances) */
  wrote(who: string | undefined): Promise<void>;
  status(): ReplicaStatus[];
  readonly counts: ReadCounts;
  /** first probe, then one every interval; `listen` hears the other instances' writes */
  start(
    listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>,
  ): Promise<void>;
  stop(): Promise<void>;
}
