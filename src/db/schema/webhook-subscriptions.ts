import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** An organization's outgoing webhook endpoint (interface B). */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text().notNull(),
    /** event types this endpoint receives, e.g. project.created */
    events: text().array().notNull(),
    /**
     * a `whsec_…` secret of a row written before secrets were encrypted; sealed into
     * `secretSealed` and cleared at the next start (src/outbox/secret-box.ts)
     */
    secret: text(),
    /** the `whsec_…` signing secret, AES-256-GCM under WEBHOOK_SECRET_KEY (docs/security.md) */
    secretSealed: jsonb(),
    /** the secret before the last rotation, still sent beside the new one until the time below */
    previousSecretSealed: jsonb(),
    previousSecretUntil: timestamp({ withTimezone: true }),
    /** false: no new deliveries are queued and pending ones are not sent */
    active: boolean().notNull().default(true),
    /** why the dispatcher disabled it (410 Gone, failing for 5 days); null when active or disabled by the user */
    disabledReason: text(),
    /** start of the current run of failed attempts; null after any success */
    failingSince: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_subscriptions_org_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
  ],
);
