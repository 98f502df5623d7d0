import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AuditTrail } from "../../auth/audit-trail.ts";
import type { SessionMember, SessionStore } from "../../auth/sessions.ts";
import { accountOfPasskey, SignInThrottle } from "../../auth/sign-in-throttle.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { isUuid } from "../../validation.ts";
import { type AssertionDeps, verifyAssertion } from "./assertion.ts";
import {
  Ceremonies,
  CHALLENGE_TTL_MS,
  PROMPT_TIMEOUT_MS,
  parseObject,
  type RelyingParty,
  userHandle,
} from "./ceremonies.ts";
import {
  credentialByCredentialId,
  credentialsOf,
  deleteCredential,
  insertCredential,
} from "./queries.ts";
import type { AddResult, PasskeySignIn, PasskeyView, Verified } from "./results.ts";

export { relyingParty } from "./ceremonies.ts";
export type { AddResult, PasskeySignIn, PasskeyView } from "./results.ts";

/** The bounds the pages show and apply (the pages read them from the service). */
export const PASSKEY_LIMITS = {
  /** characters of a passkey's name */
  nameMax: 100,
  /** one per device is usual; a cap keeps one account from filling the table */
  perMember: 20,
  /** how long a ceremony may take, from options to answer */
  challengeTtlMs: CHALLENGE_TTL_MS,
} as const;
/** The transports WebAuthn defines; anything else the browser reports is dropped. */
const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/** Passkeys of the settings screen: add, list, remove, sign in (the policy: policy.ts). */
export class PasskeyService {
  constructor(
    private readonly database: Database,
    private readonly sessions: SessionStore,
    private readonly rp: RelyingParty,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
    /** sign-ins and refused ones go into the organizations' audit trail, as a password's do */
    private readonly audit?: Pick<AuditTrail, "record">,
  ) {
    this.ceremonies = new Ceremonies(database, now);
    this.throttle = new SignInThrottle(database, now);
  }

  private readonly ceremonies: Ceremonies;
  private readonly throttle: SignInThrottle;
  readonly limits = PASSKEY_LIMITS;

  private get assertions(): AssertionDeps {
    return { db: this.db, rp: this.rp, logger: this.logger, now: this.now };
  }

  private get db() {
    return this.database.db;
  }

  async count(userId: string): Promise<number> {
    return (await credentialsOf(this.db, userId)).length;
  }

  async list(userId: string): Promise<PasskeyView[]> {
    const rows = await credentialsOf(this.db, userId);
    return rows.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
  }

  /**
   * Options for navigator.credentials.create(), bound to the member's session; null when the
   * member already has PASSKEY_LIMITS.perMember passkeys.
   */
  async registrationOptions(member: SessionMember) {
    const existing = await credentialsOf(this.db, member.userId);
    if (existing.length >= PASSKEY_LIMITS.perMember) return null;
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: member.email,
      userDisplayName: `${member.firstName} ${member.lastName}`,
      userID: userHandle(member.userId),
      attestationType: "none",
      // the same authenticator twice is refused by the browser before it asks the user
      excludeCredentials: existing.map((c) => ({
        id: c.credentialId,
        transports: c.transports as AuthenticatorTransportFuture[],
      })),
      // a discoverable credential (a passkey) with user verification: sign-in needs no email
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      timeout: PROMPT_TIMEOUT_MS,
    });
    await this.ceremonies.open("registration", member.sessionId, member.userId, options.challenge);
    return options;
  }

  /** Verifies the browser's answer to registrationOptions and stores the passkey. */
  async add(member: SessionMember, nameInput: string, responseJson: string): Promise<AddResult> {
    const name = nameInput.trim();
    const length = [...name].length;
    if (length < 1 || length > PASSKEY_LIMITS.nameMax) return { kind: "bad-name" };
    const response = parseObject<RegistrationResponseJSON>(responseJson);
    const ceremony = await this.ceremonies.take("registration", member.sessionId);
    if (!ceremony || ceremony.userId !== member.userId) return { kind: "expired" };
    if (!response) return { kind: "invalid" };
    const existing = await credentialsOf(this.db, member.userId);
    if (existing.length >= PASSKEY_LIMITS.perMember) return { kind: "too-many" };
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch {
      return { kind: "invalid" };
    }
    if (!verified.verified || !verified.registrationInfo) return { kind: "invalid" };
    const { credential } = verified.registrationInfo;
    const row = await insertCredential(this.db, {
      userId: member.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: (credential.transports ?? []).filter((t) => TRANSPORTS.has(t)),
      name,
      createdAt: this.now(),
    });
    if (!row) return { kind: "duplicate" };
    return {
      kind: "ok",
      passkey: { id: row.id, name, createdAt: row.createdAt, lastUsedAt: null },
    };
  }

  /** Removes one of the member's own passkeys; false when there is no such passkey of theirs. */
  async remove(userId: string, id: string): Promise<boolean> {
    return isUuid(id) ? deleteCredential(this.db, userId, id) : false;
  }

  /** Options for navigator.credentials.get(), bound to the browser's sign-in attempt. */
  async signInOptions(attempt: string) {
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      // empty: the browser offers whichever passkeys of this site the device holds
      allowCredentials: [],
      userVerification: "required",
      timeout: PROMPT_TIMEOUT_MS,
    });
    await this.ceremonies.open("authentication", attempt, null, options.challenge);
    return options;
  }

  /**
   * Verifies an assertion and starts a session for the passkey's owner. Refused: no open
   * ceremony for this attempt, a credential that is not (or no longer) registered, a bad
   * signature, origin or RP ID, and a counter that did not go up (a cloned authenticator).
   * Each answered ceremony is an attempt of the sign-in throttle, as a password is (the owner's
   * account and `network`; an unknown credential `network` alone), reserved before the
   * signature is checked; a success clears the account's count. A sign-in, and a refusal
   * naming a registered passkey, are audit events of the owner's organizations (`ip`: the
   * client's own address); an unknown passkey names no one.
   */
  async signIn(
    attempt: string,
    responseJson: string,
    /** the client as the throttle counts it (an IPv6 client's /64) */
    network: string,
    ip: string | null = network,
  ): Promise<PasskeySignIn> {
    const result = await this.verifySignIn(attempt, responseJson, network);
    if (!("userId" in result)) return result;
    const { kind, userId, passkeyId } = result;
    const signedIn = kind === "ok";
    this.audit?.record({
      kind: signedIn ? "session.signed_in" : "session.sign_in_failed",
      userId,
      ip,
      detail: { method: "passkey", passkeyId, ...(signedIn ? {} : { reason: kind }) },
    });
    if (kind !== "ok") return { kind };
    return { kind, token: await this.sessions.create(userId), userId };
  }

  private async verifySignIn(
    attempt: string,
    responseJson: string,
    network: string,
  ): Promise<Verified> {
    const response = parseObject<AuthenticationResponseJSON>(responseJson);
    const ceremony = await this.ceremonies.take("authentication", attempt);
    if (!ceremony) return { kind: "expired" };
    const credentialId = typeof response?.id === "string" ? response.id : "";
    const row = credentialId ? await credentialByCredentialId(this.db, credentialId) : undefined;
    // no credential id at all: the address alone counts it (the attempt is an account of its own)
    const account = accountOfPasskey(row, credentialId || `attempt:${attempt}`);
    const reservation = await this.throttle.reserve(account, network);
    if (reservation.kind === "throttled") return reservation;
    const result = await verifyAssertion(this.assertions, ceremony.challenge, response, row);
    if (result.kind === "ok") await this.throttle.clearAccount(account);
    return result;
  }
}
