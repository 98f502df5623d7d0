import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** Signed-in browsers of the settings screen (src/auth/sessions.ts). */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** hex SHA-256 of the cookie's random id; the id itself is never stored */
    tokenHash: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** last request seen (written at most once a minute); idle expiry counts from here */
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** absolute expiry: created + 7 days, whatever the activity */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /**
     * true when a password opened it for an ADMIN seat whose organization requires a passkey
     * and who has none yet: it may only add a passkey (docs/decisions.md §12)
     */
    enrollOnly: boolean().notNull().default(false),
    /**
     * the id of the one message this browser may still be shown once (a new key's secret, a
     * revocation), set by the POST and cleared by the GET that shows it (src/pages/flash.ts)
     */
    flashId: text(),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId)],
);
