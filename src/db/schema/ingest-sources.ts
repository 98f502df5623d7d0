import { cidr, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** Networks allowed to POST /alerts/ingest; the matching source names the organization. */
export const ingestSources = pgTable(
  "ingest_sources",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    cidr: cidr().notNull(),
    label: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ingest_sources_cidr_idx").using("gist", t.cidr.op("inet_ops"))],
);
