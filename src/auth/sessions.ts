import type { Database, Executor } from "../db/client.ts";
import * as q from "../db/queries/sessions.ts";
import { randomBase62, sha256Hex } from "./keys.ts";

/** The settings screen's sessions (OWASP Session Management): server-side, hashed ids. */
export const SESSION_COOKIE = "orgit_session";
export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
/** a session that may only add a passkey lasts long enough for that, no longer */
export const ENROLL_ONLY_SESSION_MS = 15 * 60_000;
/** last-seen is written at most this often, so reading a page is not always a write */
const TOUCH_MS = 60_000;
/** 43 base62 characters: about 256 bits, unguessable */
const TOKEN_LENGTH = 43;

/** The signed-in member, as the pages and the in-process GraphQL operations see them. */
export interface SessionMember {
  sessionId: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** a password session that may only add a passkey (docs/decisions.md §12) */
  enrollOnly: boolean;
}

export class SessionStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get db() {
    return this.database.db;
  }

  /** A new session with a new random id (never reused across sign-ins); returns the cookie value. */
  async create(
    userId: string,
    db: Executor = this.db,
    options: { enrollOnly?: boolean } = {},
  ): Promise<string> {
    const token = randomBase62(TOKEN_LENGTH);
    const now = this.now();
    await this.prune(db);
    await q.insertSession(db, {
      tokenHash: sha256Hex(token),
      userId,
      createdAt: now,
      expiresAt: new Date(
        now.getTime() + (options.enrollOnly ? ENROLL_ONLY_SESSION_MS : SESSION_ABSOLUTE_MS),
      ),
      enrollOnly: options.enrollOnly ?? false,
    });
    return token;
  }

  /** The member behind a cookie value, or null when unknown, idle too long or past 7 days. */
  async resolve(token: string | undefined): Promise<SessionMember | null> {
    if (!token || token.length !== TOKEN_LENGTH) return null;
    const row = await q.findSession(this.db, sha256Hex(token));
    if (!row) return null;
    const now = this.now().getTime();
    if (now >= row.expiresAt.getTime() || now - row.lastSeenAt.getTime() >= SESSION_IDLE_MS) {
      await q.deleteSession(this.db, { sessionId: row.sessionId });
      return null;
    }
    if (now - row.lastSeenAt.getTime() >= TOUCH_MS) {
      await q.touchSession(this.db, row.sessionId, new Date(now));
    }
    const { lastSeenAt: _seen, expiresAt: _expires, ...member } = row;
    return member;
  }

  async end(token: string | undefined): Promise<void> {
    if (!token) return;
    await q.deleteSession(this.db, { tokenHash: sha256Hex(token) });
  }

  /** Makes `flashId` the one message this session may be shown (an older one is dropped). */
  async setFlash(sessionId: string, flashId: string): Promise<void> {
    await q.setSessionFlash(this.db, sessionId, flashId);
  }

  /** True once for the session's current flash id, false after (single use across instances). */
  takeFlash(sessionId: string, flashId: string): Promise<boolean> {
    return q.takeSessionFlash(this.db, sessionId, flashId);
  }

  /** Ends every session of a user (new password, removal from an organization). */
  async endAll(userId: string, db: Executor = this.db): Promise<void> {
    await q.deleteUserSessions(db, userId);
  }

  /** Drops every expired session (run at each sign-in); expired ones are refused anyway. */
  async prune(db: Executor = this.db): Promise<void> {
    const now = this.now();
    await q.deleteExpiredSessions(db, now, new Date(now.getTime() - SESSION_IDLE_MS));
  }
}

/**
 * The CSRF token of a signed-in browser: derived from its session id, which only that browser
 * holds (HttpOnly cookie) and the database never sees. A page from another site cannot read it.
 */
export const sessionCsrfToken = (sessionToken: string) => sha256Hex(`csrf:${sessionToken}`);
