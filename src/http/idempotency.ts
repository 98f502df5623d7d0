import type { Context } from "elysia";
import { sha256Hex } from "../auth/keys.ts";
import type { Principal } from "../auth/principal.ts";
import type { Database } from "../db/client.ts";
import {
  completeKey,
  dropStaleKey,
  pruneKeysBefore,
  releaseKey,
  reserveKey,
} from "../db/queries/idempotency.ts";
import { ApiError, validationFailed } from "../errors.ts";
import { bearerToken } from "./bearer-token.ts";
import {
  isSealed,
  openAnswer,
  ReplayUnreadableError,
  replayKey,
  sealAnswer,
} from "./replay-cipher.ts";

/** How long a key and its response are remembered (docs/decisions.md §9). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A reservation older than this whose request never finished (a crashed instance) is taken over. */
const ABANDONED_MS = 60_000;
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 30_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentResponse {
  status: number;
  body: unknown;
}

/** What the store needs of the app: its database and clock. */
export interface IdempotencyDeps {
  database: Database;
  now: () => Date;
}

interface Call {
  request: Request;
  principal: Principal;
  body: unknown;
  set: Context["set"];
}

/** Requests of this process still running per reservation, so duplicates here need no polling. */
const running = new Map<string, Promise<unknown>>();
/** When each database was last pruned, by its app's clock (one app per database in production). */
const lastPrune = new WeakMap<Database, number>();

/**
 * Runs `create` once per `Idempotency-Key`: the same key and body within 24 h replays the first
 * response (with `Idempotent-Replayed: true`), the same key with another body is 409, and
 * concurrent duplicates wait for the first and replay it. Without the header `create` just runs.
 * Failures (thrown errors) are not remembered, so a retry runs again. The remembered answer is
 * encrypted with a key derived from the caller's API key secret (replay-cipher.ts): the row
 * keeps the API key id, the Idempotency-Key, a SHA-256 of the request, the status code and
 * that ciphertext — no secret or install link in clear.
 */
export async function idempotent(
  deps: IdempotencyDeps,
  { request, principal, body, set }: Call,
  create: () => Promise<IdempotentResponse>,
): Promise<unknown> {
  const key = request.headers.get("idempotency-key");
  const answer = (response: IdempotentResponse, replayed = false) => {
    set.status = response.status;
    if (replayed) set.headers["idempotent-replayed"] = "true";
    return response.body;
  };
  // the secret the answer is encrypted with; every caller today authenticates with a bearer
  // API key, and without one there would be no way to keep the answer unreadable at rest
  const secret = bearerToken(request.headers.get("authorization"));
  if (key === null || secret === undefined) return answer(await create());
  if (!KEY_SHAPE.test(key)) {
    throw validationFailed([
      { path: ["Idempotency-Key"], message: "Must be 1 to 255 visible ASCII characters" },
    ]);
  }
  const { database } = deps;
  const apiKeyId = principal.apiKey.id;
  const slot = `${apiKeyId}:${key}`;
  const requestHash = sha256Hex(
    `${request.method} ${new URL(request.url).pathname}\n${canonicalJson(body)}`,
  );
  const cipher = {
    key: await replayKey(secret, apiKeyId),
    context: `${apiKeyId}\n${key}\n${requestHash}`,
  };
  await pruneExpired(deps);
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const now = deps.now();
    const reservation = await reserveKey(database, { apiKeyId, key, requestHash, createdAt: now });
    if (reservation.reserved) {
      const work = runReserved(deps, apiKeyId, key, cipher, create);
      running.set(slot, work);
      try {
        return answer(await work);
      } finally {
        running.delete(slot);
      }
    }
    const { existing } = reservation;
    if (!existing) continue; // the first request failed and released the key: try to take it
    const age = now.getTime() - existing.createdAt.getTime();
    const stale = existing.statusCode === null ? age > ABANDONED_MS : age > IDEMPOTENCY_TTL_MS;
    if (stale) {
      await dropStaleKey(database, apiKeyId, key, existing.createdAt);
      continue;
    }
    if (existing.requestHash !== requestHash) {
      throw new ApiError(
        "CONFLICT",
        "Idempotency-Key was already used with a different request; use a new key",
      );
    }
    if (existing.statusCode !== null) {
      return answer(
        { status: existing.statusCode, body: await replayBody(existing, cipher) },
        true,
      );
    }
    if (Date.now() > deadline) {
      throw new ApiError(
        "CONFLICT",
        "A request with this Idempotency-Key is still being processed; retry later",
      );
    }
    const local = running.get(slot);
    if (local) await local.catch(() => {});
    else await sleep(Math.min(25 * 2 ** attempt, 500));
  }
}

interface Cipher {
  key: CryptoKey;
  /** bound to the ciphertext, so it opens only on the row it was written for */
  context: string;
}

/** The remembered answer; rows written before answers were encrypted are replayed as stored. */
async function replayBody(row: { responseBody: unknown }, cipher: Cipher): Promise<unknown> {
  if (!isSealed(row.responseBody)) return row.responseBody;
  try {
    return await openAnswer(cipher.key, row.responseBody, cipher.context);
  } catch (error) {
    if (!(error instanceof ReplayUnreadableError)) throw error;
    throw new ApiError(
      "CONFLICT",
      "The answer to this Idempotency-Key cannot be replayed; use a new key",
    );
  }
}

async function runReserved(
  { database, now }: IdempotencyDeps,
  apiKeyId: string,
  key: string,
  cipher: Cipher,
  create: () => Promise<IdempotentResponse>,
): Promise<IdempotentResponse> {
  try {
    const response = await create();
    await completeKey(database, apiKeyId, key, {
      statusCode: response.status,
      responseBody: await sealAnswer(cipher.key, response.body, cipher.context),
      completedAt: now(),
    });
    return response;
  } catch (error) {
    await releaseKey(database, apiKeyId, key);
    throw error;
  }
}

/**
 * Drops remembered keys past their 24 hours, at most once a minute per database. The time of
 * the last prune is kept per database, so apps with clocks of their own (tests) never hold
 * each other's pruning back.
 */
async function pruneExpired(deps: IdempotencyDeps): Promise<void> {
  const now = deps.now().getTime();
  if (now - (lastPrune.get(deps.database) ?? 0) < 60_000) return;
  lastPrune.set(deps.database, now);
  await pruneKeysBefore(deps.database, new Date(now - IDEMPOTENCY_TTL_MS));
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` count as the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
