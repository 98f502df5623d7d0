import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Failed sign-ins of the last 15 minutes, for throttling per account and per IP. Kept in the
 * database so that every instance counts the same failures; older rows are deleted as they go.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** the email as typed, lower-cased, whether or not such a user exists */
    email: text().notNull(),
    ip: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sign_in_failures_email_idx").on(t.email, t.at),
    index("sign_in_failures_ip_idx").on(t.ip, t.at),
  ],
);
