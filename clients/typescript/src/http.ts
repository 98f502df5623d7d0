import {
  errorFromResponse,
  OrgitConnectionError,
  type OrgitError,
  OrgitTimeoutError,
  RateLimitError,
} from "./errors.js";
import { parseMeta, type ResponseMeta } from "./meta.js";
import { webCrypto } from "./web-crypto.js";

export const VERSION = "0.1.0";
const USER_AGENT = `orgit-typescript/${VERSION}`;

/** What the client needs of `fetch`; the global `fetch` of every runtime fits. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** `orgit_…`; default: the `ORGIT_API_KEY` environment variable */
  apiKey?: string;
  /** the service's origin; default: `ORGIT_BASE_URL`, then `http://127.0.0.1:3000` */
  baseUrl?: string;
  /** per attempt, body included; default 30 000 */
  timeoutMs?: number;
  /** extra attempts after a 429, a 5xx or a network error; default 2 */
  maxRetries?: number;
  /** a 429 asking to wait longer than this is thrown at once; default 60 000 */
  maxRetryWaitMs?: number;
  /** a fetch implementation to use instead of the global one (a proxy agent, a test double) */
  fetch?: FetchLike;
  /** called with the meta of EVERY response: errors and retried attempts included */
  onResponse?: (meta: ResponseMeta) => void;
}

export interface RequestSpec {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** path and query, e.g. `/api/v1/tickets?limit=3` */
  path: string;
  body?: unknown;
  /** false for the keyless routes (ingest, install): no Authorization header */
  auth?: boolean;
  /** send an Idempotency-Key: `idempotencyKey`, or a random UUID when none is given */
  idempotent?: boolean;
  idempotencyKey?: string;
  /** `If-Match`: the version (or ETag) a change expects; another version answers 412 */
  ifMatch?: number | string;
}

/** `"3"` from 3; an ETag as given. */
export const etagOf = (version: number | string) =>
  typeof version === "number" ? `"${version}"` : version;

/** Reads an environment variable under Node, Bun or Deno; undefined in a browser. */
function readEnv(name: string): string | undefined {
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get(name: string): string | undefined } };
  };
  try {
    return g.process?.env?.[name] ?? g.Deno?.env?.get(name);
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/** 0.5 s · 2^n, ±25 % jitter, at most 8 s. */
function backoffMs(retry: number): number {
  const base = Math.min(8000, 500 * 2 ** retry);
  return base * (0.75 + Math.random() * 0.5);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A query string from defined values only. */
export function withQuery(path: string, query: object = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export class Http {
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  private readonly fetchImpl: FetchLike;
  private readonly onResponse: ((meta: ResponseMeta) => void) | undefined;
  lastResponse: ResponseMeta | undefined;

  constructor(options: ClientOptions = {}) {
    this.apiKey = options.apiKey ?? readEnv("ORGIT_API_KEY");
    const base = options.baseUrl ?? readEnv("ORGIT_BASE_URL") ?? "http://127.0.0.1:3000";
    this.baseUrl = base.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
    this.fetchImpl = options.fetch ?? ((url, init) => fetch(url, init));
    this.onResponse = options.onResponse;
  }

  /** Sends with retries; answers the parsed JSON body or throws an OrgitError. */
  async request<T>(spec: RequestSpec): Promise<T> {
    return (await this.exchange<T>(spec)).body;
  }

  /** As `request`, with the answer's meta (its headers: a list's `Link`). */
  async exchange<T>(spec: RequestSpec): Promise<{ body: T; meta: ResponseMeta }> {
    if (spec.idempotent && spec.idempotencyKey === undefined) {
      // one key for every attempt, so a retried POST is applied at most once
      spec = { ...spec, idempotencyKey: (await webCrypto()).randomUUID() };
    }
    const url = this.baseUrl + spec.path;
    // 5xx and network errors are retried only when repeating cannot do anything twice
    const idempotent =
      spec.method === "GET" || spec.method === "DELETE" || spec.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.maxRetries;
      let meta: ResponseMeta;
      let body: unknown;
      try {
        ({ meta, body } = await this.send(spec, url, attempt));
      } catch (error) {
        if (canRetry && idempotent && error instanceof OrgitConnectionError) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw error;
      }
      if (meta.status >= 200 && meta.status < 300) return { body: body as T, meta };
      const error: OrgitError = errorFromResponse(meta, body);
      if (canRetry && error instanceof RateLimitError) {
        // a refused request had no effect: any method may repeat it, after Retry-After
        const waitMs =
          error.retryAfter === undefined ? backoffMs(attempt) : error.retryAfter * 1000;
        if (waitMs <= this.maxRetryWaitMs) {
          await sleep(waitMs);
          continue;
        }
      }
      if (canRetry && idempotent && meta.status >= 500) {
        await sleep(backoffMs(attempt));
        continue;
      }
      throw error;
    }
  }

  /**
   * One attempt whose body is handed over unread (a stream, e.g. NDJSON): an answer other than
   * 2xx is read and thrown as an OrgitError. The timeout covers the wait for the headers.
   */
  async open(spec: RequestSpec): Promise<ReadableStream<Uint8Array>> {
    const url = this.baseUrl + spec.path;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: spec.method,
        headers: this.headers(spec, "application/x-ndjson"),
        signal: controller.signal,
      });
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new OrgitConnectionError({ message: `${spec.method} ${url} failed: ${reason}`, cause });
    } finally {
      clearTimeout(timer);
    }
    const meta = parseMeta(response, { method: spec.method, url, attempt: 0 });
    this.lastResponse = meta;
    this.onResponse?.(meta);
    if (response.status >= 300 || !response.body) {
      throw errorFromResponse(meta, parseBody(await response.text()));
    }
    return response.body;
  }

  private headers(spec: RequestSpec, accept = "application/json"): Record<string, string> {
    const headers: Record<string, string> = { accept, "user-agent": USER_AGENT };
    if (spec.auth !== false && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (spec.idempotencyKey !== undefined) headers["idempotency-key"] = spec.idempotencyKey;
    if (spec.ifMatch !== undefined) headers["if-match"] = etagOf(spec.ifMatch);
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    return headers;
  }

  /** One attempt: the timeout covers the whole answer, body included. */
  private async send(spec: RequestSpec, url: string, attempt: number) {
    const headers = this.headers(spec);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      const what = `${spec.method} ${url}`;
      if (timedOut) {
        const message = `${what} timed out after ${this.timeoutMs} ms`;
        throw new OrgitTimeoutError({ message, cause });
      }
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new OrgitConnectionError({ message: `${what} failed: ${reason}`, cause });
    } finally {
      clearTimeout(timer);
    }
    const meta = parseMeta(response, { method: spec.method, url, attempt });
    this.lastResponse = meta;
    this.onResponse?.(meta);
    return { meta, body: parseBody(text) };
  }
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
