import { randomBase62, sha256Hex } from "../../auth/keys.ts";
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyDecoy,
  verifyPassword,
} from "../../auth/passwords.ts";
import type { SessionStore } from "../../auth/sessions.ts";
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
import { SignInThrottle } from "./throttle.ts";

export const INVITATION_TTL_MS = 7 * 86_400_000;

export type SignInResult =
  | { kind: "ok"; token: string }
  | { kind: "invalid" }
  | { kind: "throttled" };
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
  ) {
    this.throttle = new SignInThrottle(database, now);
  }

  private get db() {
    return this.database.db;
  }

  /** Operator mutation setPassword: the new password ends every session of the user. */
  async setPassword(userId: string, password: string): Promise<true> {
    checkPassword(password, ["password"]);
    await requireUser(this.db, userId);
    const hash = await hashPassword(password);
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
    checkPassword(password, ["password"]);
    const hash = await hashPassword(password);
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
   * throttled per account and per IP before any password is checked.
   */
  async signIn(emailInput: string, password: string, ip: string): Promise<SignInResult> {
    const email = emailInput.trim().toLowerCase();
    if (await this.throttle.isThrottled(email, ip)) return { kind: "throttled" };
    const row = await passwordByEmail(this.db, email);
    const tooLong = password.length > PASSWORD_MAX_LENGTH;
    const ok =
      row?.hash && !tooLong
        ? await verifyPassword(password, row.hash)
        : await verifyDecoy(tooLong ? "" : password);
    if (!ok || !row) {
      await this.throttle.recordFailure(email, ip);
      return { kind: "invalid" };
    }
    await this.throttle.clearAccount(email);
    return { kind: "ok", token: await this.sessions.create(row.userId) };
  }

  private async storePassword(db: Executor, userId: string, hash: string) {
    await upsertPassword(db, { userId, hash, updatedAt: this.now() });
  }
}

export function checkPassword(password: string, path: string[]): void {
  const length = [...password].length;
  new Problems()
    .check(
      length >= PASSWORD_MIN_LENGTH,
      path,
      `Must be at least ${PASSWORD_MIN_LENGTH} characters`,
    )
    .check(length <= PASSWORD_MAX_LENGTH, path, `Must be at most ${PASSWORD_MAX_LENGTH} characters`)
    .throwIfAny();
}
