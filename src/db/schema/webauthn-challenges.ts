import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Challenges of WebAuthn ceremonies in progress (src/modules/passkeys): kept on the server,
 * never taken from the client, taken at most once and valid 5 minutes.
 */
export const webauthnChallenges = pgTable("webauthn_challenges", {
  id: uuid().primaryKey().defaultRandom(),
  /**
   * hex SHA-256 of what the ceremony is bound to: the session (adding a passkey) or the
   * sign-in attempt's cookie (signing in); one open ceremony per binding
   */
  bindingHash: text().notNull().unique(),
  /** "registration" or "authentication" */
  purpose: text().notNull(),
  /** the member adding a passkey; null while signing in (nobody is known yet) */
  userId: uuid().references(() => users.id, { onDelete: "cascade" }),
  /** base64url random bytes sent to the browser; worthless once taken or expired */
  challenge: text().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
