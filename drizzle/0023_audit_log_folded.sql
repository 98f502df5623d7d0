-- Custom migration (drizzle-kit generate --custom): one audit_log row may hold several
-- requests (docs/decisions.md §30). The recorder folds the requests of a flush that share
-- everything but their time, duration and request id (organization, key, owner, method, route
-- template, status, client address, user agent) and fall in the same second into one row:
-- `at` is the first one's time, and the three arrays hold each request's offset from it (ms),
-- duration and request id, in time order. Postgres' cost is mostly per row (the heap tuple and
-- four index entries, about 12 µs of CPU), so a busy key's second of requests costs one row.
-- A row of one request (and every key or session event) keeps the arrays null and its values
-- in duration_ms and request_id, as before; `requests` counts the row's requests (1).
ALTER TABLE "audit_log" ADD COLUMN "requests" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "offsets" integer[];
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "durations" real[];
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "request_ids" text[];
