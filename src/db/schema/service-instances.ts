import { pgTable, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Running service processes. An auth change (revocation, member removal…) waits until every
 * instance seen recently has acknowledged it, so the change holds on every instance's next
 * request.
 */
export const serviceInstances = pgTable("service_instances", {
  id: uuid().primaryKey(),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** heartbeat; instances silent for 30 s are no longer waited for */
  seenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
