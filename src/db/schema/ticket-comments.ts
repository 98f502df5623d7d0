import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/** Comments on a ticket, newest first; the organization column keeps every read filtered. */
export const ticketComments = pgTable(
  "ticket_comments",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    /** the key owner who wrote it */
    authorId: uuid()
      .notNull()
      .references(() => users.id),
    /** 1 to 10,000 characters */
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ticket_comments_ticket_created_idx").on(
      t.organizationId,
      t.ticketId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
  ],
);
