/**
 * Which limits each surface meets (docs/limits.md): the http floor names the URLs, the limits
 * (src/limits) turn each surface into bucket policies with the sizes from configuration. One
 * object per surface, built once: the limits keep each one's policies.
 */
import type { Surface } from "../limits/limits.ts";

/** A surface, and whether a request without a key is limited before routing. */
export interface HttpSurface extends Surface {
  /** interface A's keyless requests: every one counts against its client before routing */
  readonly beforeRouting: boolean;
}

const INGEST_PATH = "/api/v1/alerts/ingest";
/** reports the quota without counting against it (docs/decisions.md §6) */
const QUOTA_PEEK_PATH = "/api/v1/health";

/** Interface A without a key (none sent, or ingest, which takes none): the IP and the IP's burst. */
const restKeyless: HttpSurface = {
  beforeRouting: true,
  anonymous: ["ip", "burst"],
  keyed: [],
  quota: "none",
  failed: [], // drawn before routing already
};

/**
 * Interface A with a credential: the IP, the key and the key's burst together once the key is
 * known, then the daily quota; a refused key draws as a keyless request would, and a request
 * that never reaches authentication (an unknown route, a malformed body) draws its IP bucket.
 */
const restKeyed: HttpSurface = {
  beforeRouting: false,
  anonymous: ["ip"],
  keyed: ["ip", "key", "burst"],
  quota: "count",
  failed: ["ip", "burst"],
};
const restHealth: HttpSurface = { ...restKeyed, quota: "peek" };

/** Interface B: the organization's plan limit (no IP bucket, no quota). */
const interfaceB: HttpSurface = {
  beforeRouting: false,
  anonymous: [],
  keyed: ["plan"],
  quota: "none",
  failed: ["ip"],
};

/**
 * `/graphql` with an API key: the client's IP bucket (shared with interface A), the key's
 * buckets, and the organization's plan limit (shared with interface B); no daily quota.
 */
export const graphqlSurface: HttpSurface = {
  beforeRouting: false,
  anonymous: [],
  keyed: ["ip", "key", "burst", "plan"],
  quota: "none",
  failed: ["ip"],
};

/**
 * Keyless pages that cost the service more than a page: GraphiQL outside production (9 MB) and
 * the passkey ceremonies' options (a stored challenge each). One token of the client's IP
 * bucket, the per-IP 429 beyond.
 */
export const keylessPageSurface: HttpSurface = {
  beforeRouting: false,
  anonymous: ["ip"],
  keyed: [],
  quota: "none",
  failed: [],
};

/** Anything else that takes a credential (install links, the operator token): guesses only. */
export const credentialSurface: HttpSurface = {
  beforeRouting: false,
  anonymous: [],
  keyed: [],
  quota: "none",
  failed: ["ip"],
};

/** The surface of a request by its path and whether it carries a credential. */
export function surfaceOf(path: string, hasCredential: boolean): HttpSurface {
  if (path.startsWith("/api/v1/")) {
    if (!hasCredential || path === INGEST_PATH) return restKeyless;
    return path === QUOTA_PEEK_PATH ? restHealth : restKeyed;
  }
  if (path.startsWith("/api/")) return interfaceB;
  if (path === "/graphql") return graphqlSurface;
  return credentialSurface;
}
