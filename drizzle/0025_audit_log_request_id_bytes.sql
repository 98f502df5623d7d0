-- Custom migration (drizzle-kit generate --custom): a folded audit row whose request ids are
-- all the service's own (lowercase canonical UUIDs, as crypto.randomUUID() gives) keeps them
-- as one bytea of 16 bytes each, in order, instead of a text[] of 36-character strings
-- (docs/decisions.md §34). Postgres builds 16 KB from one hexadecimal string instead of parsing
-- a thousand array elements into 40 KB, and stores half as many TOAST chunks: recording such a
-- request cost it about a microsecond less. A fold with any other id (a client's own
-- X-Request-Id, an upper-case UUID, none) keeps `request_ids`; a row has one or the other.
-- Kept out of line uncompressed like the arrays (drizzle/0024): random bytes never shrink.
-- Partitioned: the column and its storage reach every day partition, and new ones copy both.
ALTER TABLE "audit_log" ADD COLUMN "request_id_bytes" bytea;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "request_id_bytes" SET STORAGE EXTERNAL;
