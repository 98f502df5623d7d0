/**
 * The CLI's plumbing: flags in, one GraphQL POST over web-standard fetch, text out. Nothing
 * here knows a particular command, so commands.ts reads as a plain table.
 */
import { parseArgs } from "node:util";

/** Narrower than `typeof fetch`, so tests can pass a plain function that calls `app.handle`. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface CliIo {
  fetch: FetchLike;
  env: Record<string, string | undefined>;
  /** receives whole chunks of text, each ending with a newline */
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/** A failure whose message is ready for the operator; `exitCode` 2 means bad usage. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export interface Target {
  /** the full /graphql endpoint */
  endpoint: string;
  token: string;
}

export const DEFAULT_URL = "http://127.0.0.1:3000";
// generous for a single mutation, but a hung server must not hang a script forever
const TIMEOUT_MS = 30_000;

export const operatorTokenRefused = (said?: string) =>
  "error: the service refused the operator token" +
  (said ? ` (it answered 401 ${said})` : " (401)") +
  ": --token or ADMIN_TOKEN must equal the ADMIN_TOKEN the service was started with " +
  "(`npm run demo` prints it; a service started without ADMIN_TOKEN has operator access off " +
  "and refuses every token: restart it with ADMIN_TOKEN set)";

export function resolveTarget(flags: { url?: string; token?: string }, env: CliIo["env"]): Target {
  const base = flags.url ?? env.ORGIT_URL ?? DEFAULT_URL;
  const token = flags.token ?? env.ADMIN_TOKEN;
  if (!token) throw new CliError("error: no operator token; set ADMIN_TOKEN or pass --token", 2);
  return { endpoint: `${base.replace(/\/+$/, "")}/graphql`, token };
}

interface GraphQLErrorShape {
  message?: string;
  extensions?: { details?: { path?: string[]; message?: string }[] };
}

interface GraphQLBody {
  data?: unknown;
  errors?: GraphQLErrorShape[];
  error?: string;
}

/** Runs one operation and returns its `data`; every failure becomes a CliError with exit 1. */
export async function request(
  io: CliIo,
  target: Target,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await io.fetch(target.endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${target.token}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new CliError(
      `error: cannot reach the orgit service at ${target.endpoint} (${reason}); ` +
        "is it running? Set ORGIT_URL or pass --url",
      1,
    );
  }
  const text = await response.text();
  let body: GraphQLBody | undefined;
  try {
    body = JSON.parse(text) as GraphQLBody;
  } catch {
    body = undefined;
  }
  if (body?.errors?.length) throw new CliError(formatGraphQLErrors(body.errors), 1);
  // the service says `Invalid API key` (it checks keys and the operator token alike); the CLI
  // only ever sends the operator token, so it names that and how to fix it
  if (response.status === 401) throw new CliError(operatorTokenRefused(body?.error), 1);
  // 403 and other failures before GraphQL runs answer the REST-style `{ error }` body
  if (typeof body?.error === "string") throw new CliError(`error: ${body.error}`, 1);
  if (!response.ok || !body || typeof body.data !== "object" || body.data === null) {
    throw new CliError(
      `error: unexpected HTTP ${response.status} answer from ${target.endpoint}: ${text.slice(0, 200)}`,
      1,
    );
  }
  return body.data as Record<string, unknown>;
}

/** One line per error, then its field problems (`input.scopes.0: Unknown scope: x`) indented. */
export function formatGraphQLErrors(errors: GraphQLErrorShape[]): string {
  const lines: string[] = [];
  for (const error of errors) {
    lines.push(`error: ${error.message ?? "unknown GraphQL error"}`);
    for (const detail of error.extensions?.details ?? []) {
      lines.push(`  ${(detail.path ?? []).join(".")}: ${detail.message ?? ""}`);
    }
  }
  return lines.join("\n");
}

export type Flags = Record<string, string | undefined>;

export const usageError = (message: string) => new CliError(`error: ${message}`, 2);

/** Every `--flag` named in a usage text; with `requiredOnly`, those outside [brackets]. */
export const flagNames = (usage: string, requiredOnly = false) =>
  [...(requiredOnly ? usage.replace(/\[[^\]]*\]/g, "") : usage).matchAll(/--([a-z0-9-]+)/g)].map(
    (m) => m[1] as string,
  );

/** Strict parse: unknown flags, missing values and stray arguments are usage errors. */
export function parseFlags(usage: string, args: string[]) {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
    json: { type: "boolean" },
    get: { type: "string" },
    help: { type: "boolean", short: "h" },
    url: { type: "string" },
    token: { type: "string" },
  };
  for (const flag of flagNames(usage)) options[flag] = { type: "string" };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { json, help, get, ...rest } = values;
  return {
    json: json === true,
    help: help === true,
    get: typeof get === "string" ? get : undefined,
    flags: rest as Flags,
  };
}

/**
 * `--get id`, `--get apiKey.id`: one field of the result, alone on its line, for a script to
 * capture (`ORG=$(npx orgit create-org --name Acme --get id)`).
 */
export function pick(result: unknown, path: string): string {
  let value: unknown = result;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !(part in value)) {
      const known = value && typeof value === "object" ? Object.keys(value).join(", ") : "none";
      throw new CliError(`error: the answer has no field ${path} (fields here: ${known})`, 1);
    }
    value = (value as Record<string, unknown>)[part];
  }
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function int(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw usageError(`--${flag} must be a whole number`);
  return Number(value);
}

export function bool(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw usageError(`--${flag} must be true or false`);
  return value === "true";
}

export const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

// a bare "-" would hide what null means for these two
const NULL_MEANS: Record<string, string> = { dailyQuota: "plan default", expiresAt: "never" };

/** A title, then `  field: value` per field, so the text output stays greppable in scripts. */
export function record(title: string, value: unknown): string[] {
  const fields = Object.entries((value ?? {}) as Record<string, unknown>).map(
    ([key, v]) =>
      `  ${key}: ${v === null ? (NULL_MEANS[key] ?? "-") : Array.isArray(v) ? v.join(",") : v}`,
  );
  return [title, ...fields];
}

export interface Command {
  /** flags in usage notation; the bracketed ones are optional, every other one is required */
  usage: string;
  /** one operator operation (schema/operator.graphql, settings.graphql); its one root field is the result */
  document: string;
  title: string;
  variables(flags: Flags, env: CliIo["env"]): Record<string, unknown>;
  /** custom text output; by default the title and one line per field */
  describe?(result: unknown): string[];
}
