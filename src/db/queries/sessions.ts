import { and, eq, lt, or } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { userSessions, users } from "../schema/index.ts";

/** The settings screen's session rows (src/auth/sessions.ts keeps the rules). */
export async function insertSession(
  db: Executor,
  row: {
    tokenHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
    enrollOnly: boolean;
  },
): Promise<void> {
  await db.insert(userSessions).values({ ...row, lastSeenAt: row.createdAt });
}

/** The session of a token hash with its member's name and email, or undefined. */
export async function findSession(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: userSessions.id,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      enrollOnly: userSessions.enrollOnly,
      lastSeenAt: userSessions.lastSeenAt,
      expiresAt: userSessions.expiresAt,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(eq(userSessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function touchSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db.update(userSessions).set({ lastSeenAt: at }).where(eq(userSessions.id, sessionId));
}

export async function deleteSession(
  db: Executor,
  which: { sessionId: string } | { tokenHash: string },
): Promise<void> {
  await db
    .delete(userSessions)
    .where(
      "sessionId" in which
        ? eq(userSessions.id, which.sessionId)
        : eq(userSessions.tokenHash, which.tokenHash),
    );
}

export async function deleteUserSessions(db: Executor, userId: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.userId, userId));
}

/** Sessions past their absolute expiry, or idle since before `idleSince`. */
export async function deleteExpiredSessions(
  db: Executor,
  now: Date,
  idleSince: Date,
): Promise<void> {
  await db
    .delete(userSessions)
    .where(or(lt(userSessions.expiresAt, now), lt(userSessions.lastSeenAt, idleSince)));
}

export async function setSessionFlash(db: Executor, sessionId: string, flashId: string) {
  await db.update(userSessions).set({ flashId }).where(eq(userSessions.id, sessionId));
}

/** Clears the session's flash id if it is this one; true when it was (the flash may show). */
export async function takeSessionFlash(db: Executor, sessionId: string, flashId: string) {
  const taken = await db
    .update(userSessions)
    .set({ flashId: null })
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.flashId, flashId)))
    .returning({ id: userSessions.id });
  return taken.length > 0;
}
