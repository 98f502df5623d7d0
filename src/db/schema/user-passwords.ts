import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** A member's password for the settings screen; users without a row cannot sign in. */
export const userPasswords = pgTable("user_passwords", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` (src/auth/passwords.ts); never the password */
  hash: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
