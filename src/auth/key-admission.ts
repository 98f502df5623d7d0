import { forbidden, unauthenticated } from "../errors.ts";
import { refusedWith } from "./audit-trail.ts";
import type { KeyRecord } from "./load-principal.ts";
import type { Principal } from "./principal.ts";

/**
 * Whether a looked-up key may answer now, from this client address: its principal, or the
 * contract's 401 (unknown, revoked, rotated past its grace, expired, owner gone) or 403 (an
 * address outside its allowlist). Synchronous: the key store calls it on a cached record
 * without a promise (src/auth/key-store.ts).
 */
export function admitKey(
  record: KeyRecord | null,
  clientIp: string | undefined,
  now: Date,
): Principal {
  if (!record) throw unauthenticated("Invalid API key");
  // a recognised key's refusal goes into its organization's audit trail (refusedWith)
  const key = { apiKeyId: record.keyId, organizationId: record.organizationId };
  const owner = { ...key, userId: record.principal?.user.id ?? null };
  if (record.revokedAt) throw refusedWith(unauthenticated("API key revoked"), owner);
  // a time, not a flag: every instance refuses the old secret at the same instant
  if (record.graceEndsAt && record.graceEndsAt.getTime() <= now.getTime()) {
    throw refusedWith(unauthenticated("API key rotated"), owner);
  }
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) {
    throw refusedWith(unauthenticated("API key expired"), owner);
  }
  if (!record.principal) {
    const message = "API key owner is no longer a member of this organization";
    throw refusedWith(unauthenticated(message), owner);
  }
  // the address is not echoed: the caller knows it, a log reader must not learn it from here
  if (record.allows && !(clientIp && record.allows(clientIp))) {
    throw refusedWith(forbidden("IP address not allowed for this API key"), owner);
  }
  return record.principal;
}
