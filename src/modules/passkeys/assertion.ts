import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { Executor } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { type RelyingParty, userHandle } from "./ceremonies.ts";
import { type credentialByCredentialId, recordCredentialUse } from "./queries.ts";
import type { Verified } from "./results.ts";

export interface AssertionDeps {
  db: Executor;
  rp: RelyingParty;
  logger: Logger;
  now: () => Date;
}

/**
 * Checks a sign-in assertion against the registered passkey `row`: the user handle, the
 * signature, origin and RP ID, and a counter that goes up (else a cloned authenticator or a
 * replay). On success the new counter is stored; the owner is named once a passkey is known.
 */
export async function verifyAssertion(
  deps: AssertionDeps,
  challenge: string,
  response: AuthenticationResponseJSON | null,
  row: Awaited<ReturnType<typeof credentialByCredentialId>>,
): Promise<Verified> {
  if (!response || typeof response.id !== "string") return { kind: "invalid" };
  if (!row) return { kind: "unknown" };
  const who = { userId: row.userId, passkeyId: row.id };
  const handle = response.response?.userHandle;
  const expected = Buffer.from(userHandle(row.userId)).toString("base64url");
  if (handle !== undefined && handle !== expected) return { kind: "invalid", ...who };
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: deps.rp.origin,
      expectedRPID: deps.rp.id,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, "base64url")),
        counter: row.counter,
        transports: row.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: true,
    });
    if (!verified.verified) return { kind: "invalid", ...who };
    newCounter = verified.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof Error && /counter/i.test(error.message)) return replayed(deps.logger, row);
    return { kind: "invalid", ...who };
  }
  const at = deps.now();
  const recorded = await recordCredentialUse(deps.db, row.id, {
    counter: row.counter,
    newCounter,
    at,
  });
  if (!recorded) return replayed(deps.logger, row);
  return { kind: "ok", ...who };
}

function replayed(logger: Logger, row: { id: string; userId: string }): Verified {
  // a counter that does not go up: a copy of the authenticator, or a replayed assertion
  logger.warn("passkey sign-in refused: signature counter did not increase", {
    passkeyId: row.id,
    userId: row.userId,
  });
  return { kind: "replayed", userId: row.userId, passkeyId: row.id };
}
