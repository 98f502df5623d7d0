import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** Interface B projects. Every read and write is filtered by organization. */
export const projects = pgTable(
  "projects",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** "" when none was given, never null */
    description: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // the list order: newest first, id breaking ties so pages are stable
  (t) => [index("projects_org_created_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc())],
);
