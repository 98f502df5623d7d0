import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * A member's passkeys (WebAuthn discoverable credentials, src/modules/passkeys). A passkey
 * belongs to a person, not to an organization: it signs them in to the settings screen, where
 * they then see every organization they belong to, as after a password sign-in.
 */
export const passkeyCredentials = pgTable(
  "passkey_credentials",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** the authenticator's credential id, base64url, as the browser reports it */
    credentialId: text().notNull().unique(),
    /** the COSE public key, base64url: public by nature, it verifies but cannot sign */
    publicKey: text().notNull(),
    /** the signature counter last seen; an assertion that does not raise it is refused */
    counter: bigint({ mode: "number" }).notNull().default(0),
    /** how the browser may reach the authenticator (internal, usb, hybrid…), a hint */
    transports: text().array().notNull().default([]),
    /** the member's own label, 1 to 100 characters */
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("passkey_credentials_user_idx").on(t.userId, t.createdAt)],
);
