import type { AuditTrail } from "../../auth/audit-trail.ts";
import { randomBase62, sha256Hex } from "../../auth/keys.ts";
import { passwordWeakness } from "../../auth/password-policy.ts";
import {
  hashPassword,
  OWASP_SCRYPT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PasswordQueueFull,
  type ScryptParams,
  verifyDecoy,
  verifyPassword,
} from "../../auth/passwords.ts";
import type { SessionStore } from "../../auth/sessions.ts";
import { accountOfEmail, SignInThrottle } from "../../auth/sign-in-throttle.ts";
import type { Database, Executor } from "../../db/client.ts";
import { Problems } from "../../validation.ts";
import { requireUser } from "../operator/lookups.ts";
import {
  deleteOpenInvitations,
  findInvitation,
  insertInvitation,
  markInvitationUsed,
  passwordByEmail,
  upsertPassword,
} from "./account-queries.ts";

export const INVITATION_TTL_MS = 7 * 86_400_000;

export type SignInResult =
  | { kind: "ok"; token: string; enrollOnly: boolean }
  | { kind: "invalid" }
  | { kind: "throttled"; retryAfterS: number }
  | { kind: "busy" }
  | { kind: "passkey-required" };
/** What a correct password opens for a user (src/modules/passkeys, docs/decisions.md §12). */
export type PasswordPolicyCheck = (
  userId: string,
) => Promise<"allow" | "passkey-required" | "enroll-only">;
export type InvitationState =
  | { kind: "valid"; email: string; firstName: string }
  | { kind: "used" | "expired" | "unknown" };

/** Passwords, invitation links and sign-in for the settings screen. */
export class AccountService {
  private readonly throttle: SignInThrottle;

  constructor(
    private readonly database: Database,
    private readonly sessions: SessionStore,
    private readonly publicBaseUrl: string,
    private readonly now: () => Date = () => new Date(),
    private readonly passwordPolicy: PasswordPolicyCheck = async () => "allow",
    private readonly audit?: Pick<AuditTrail, "record">,
    /** new hashes' scrypt parameters (createApp's `passwordHashing`) */
    private readonly hashing: ScryptParams = OWASP_SCRYPT,
  ) {
    this.throttle = new SignInThrottle(database, now);
  }

  private get db() {
    return this.database.db;
  }

  /** Operator mutation setPassword: the new password ends every session of the user. */
  async setPassword(userId: string, password: string): Promise<true> {
    const user = await requireUser(this.db, userId);
    checkPassword(password, ["password"], user.email);
    const hash = await hashPassword(password, this.hashing);
    await this.db.transaction(async (tx) => {
      await this.storePassword(tx, userId, hash);
      await this.sessions.endAll(userId, tx);
    });
    return true;
  }

  /** A one-time link, valid 7 days; an older unused link of the same user stops working. */
  async createInvitation(userId: string): Promise<{ url: string; expiresAt: Date }> {
    await requireUser(this.db, userId);
    const token = randomBase62(43);
    const expiresAt = new Date(this.now().getTime() + INVITATION_TTL_MS);
    await this.db.transaction(async (tx) => {
      await deleteOpenInvitations(tx, userId);
      await insertInvitation(tx, {
        userId,
        tokenHash: sha256Hex(token),
        expiresAt,
        createdAt: this.now(),
      });
    });
    return { url: `${this.publicBaseUrl}/invite/${token}`, expiresAt };
  }

  async invitation(token: string): Promise<InvitationState> {
    const row = await findInvitation(this.db, sha256Hex(token));
    if (!row) return { kind: "unknown" };
    if (row.usedAt) return { kind: "used" };
    if (row.expiresAt.getTime() <= this.now().getTime()) return { kind: "expired" };
    return { kind: "valid", email: row.email, firstName: row.firstName };
  }

  /**
   * Sets the password chosen on an invitation page and signs the member in. The link is
   * marked used in the same transaction, by a conditional UPDATE, so two submissions of one
   * link cannot both succeed.
   */
  async acceptInvitation(
    token: string,
    password: string,
  ): Promise<{ kind: "ok"; token: string } | { kind: "used" | "expired" | "unknown" }> {
    const state = await this.invitation(token);
    if (state.kind !== "valid") return state;
    checkPassword(password, ["password"], state.email);
    const hash = await hashPassword(password, this.hashing);
    const now = this.now();
    const session = await this.db.transaction(async (tx) => {
      const used = await markInvitationUsed(tx, sha256Hex(token), now);
      if (!used) return null;
      await this.storePassword(tx, used.userId, hash);
      await this.sessions.endAll(used.userId, tx);
      return this.sessions.create(used.userId, tx);
    });
    return session ? { kind: "ok", token: session } : { kind: "used" };
  }

  /**
   * One answer for an unknown email and a wrong password (same result, about the same time);
   * throttled per account and per IP before any password is checked (docs/security.md).
   */
  async signIn(
    emailInput: string,
    password: string,
    /** the client as the throttle counts it (an IPv6 client's /64) */
    network: string,
    /** the client's own address, for the audit trail */
    ip: string | null = network,
  ): Promise<SignInResult> {
    const email = accountOfEmail(emailInput);
    const reservation = await this.throttle.reserve(email, network);
    if (reservation.kind === "throttled") return reservation;
    const row = await passwordByEmail(this.db, email);
    const tooLong = password.length > PASSWORD_MAX_LENGTH;
    let ok: boolean;
    try {
      ok =
        row?.hash && !tooLong
          ? await verifyPassword(password, row.hash)
          : await verifyDecoy(tooLong ? "" : password, this.hashing);
    } catch (error) {
      if (!(error instanceof PasswordQueueFull)) throw error;
      await this.throttle.release(reservation.id);
      return { kind: "busy" };
    }
    // a failure stays counted (it was reserved above); a success clears the account's count
    if (!ok || !row) {
      // an unknown email belongs to no organization's trail
      if (row) this.signInFailed(row.userId, ip, "wrong password");
      return { kind: "invalid" };
    }
    await this.throttle.clearAccount(email);
    const policy = await this.passwordPolicy(row.userId);
    if (policy === "passkey-required") {
      // the right password, refused by the organization's policy: still a failed sign-in
      this.signInFailed(row.userId, ip, "passkey required");
      return { kind: "passkey-required" };
    }
    const enrollOnly = policy === "enroll-only";
    const token = await this.sessions.create(row.userId, undefined, { enrollOnly });
    this.audit?.record({
      kind: "session.signed_in",
      userId: row.userId,
      ip,
      detail: { method: "password" },
    });
    return { kind: "ok", token, enrollOnly };
  }

  private signInFailed(userId: string, ip: string | null, reason: string) {
    const detail = { method: "password", reason };
    this.audit?.record({ kind: "session.sign_in_failed", userId, ip, detail });
  }

  private async storePassword(db: Executor, userId: string, hash: string) {
    await upsertPassword(db, { userId, hash, updatedAt: this.now() });
  }
}

/** Length, then the policy of src/auth/password-policy.ts (docs/security.md, "Passwords"). */
export function checkPassword(password: string, path: string[], email?: string): void {
  const length = [...password].length;
  const problems = new Problems()
    .check(
      length >= PASSWORD_MIN_LENGTH,
      path,
      `Must be at least ${PASSWORD_MIN_LENGTH} characters`,
    )
    .check(
      length <= PASSWORD_MAX_LENGTH,
      path,
      `Must be at most ${PASSWORD_MAX_LENGTH} characters`,
    );
  problems.throwIfAny();
  const weakness = passwordWeakness(password, email);
  problems.check(weakness === undefined, path, weakness ?? "").throwIfAny();
}
