-- Custom migration (drizzle-kit generate --custom): a folded audit row's arrays (drizzle/0023)
-- are kept out of line without compression (docs/decisions.md §31). A row of a thousand
-- requests holds some 37 KB of request ids, and Postgres ran pglz over them on every insert
-- only to find that hexadecimal ids do not shrink by the quarter it asks for, and store them
-- as they were: the wasted attempt was about a third of what a recorded request cost it.
-- Partitioned: the change reaches every existing day partition, and new ones copy it
-- (`create table … (like audit_log … including storage)`, src/db/queries/day-partitions.ts).
ALTER TABLE "audit_log" ALTER COLUMN "offsets" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "durations" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "request_ids" SET STORAGE EXTERNAL;
