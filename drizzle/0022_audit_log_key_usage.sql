-- Custom migration (drizzle-kit generate --custom): what recording a request costs Postgres
-- (docs/decisions.md, "Recording's cost"; docs/performance.md#audit-trail). Every request is one
-- row, and every index on audit_log one more entry per row: about 1.2–1.4 µs of the server's CPU
-- each, measured, beside about 3.4 µs for the row itself. The indexes after this migration,
-- each declared on the partitioned table (Postgres keeps them on every day partition):
--
-- audit_log_organization_at_idx (organization_id, at desc, id desc, status, route, ip, user_id,
--   api_key_id), rebuilt here with api_key_id: every page and export walks it newest (or oldest)
--   first; a filter's columns after the order's are checked on the entries, so the keyId filter
--   no longer needs an index of its own (a first page reads about 100 entries per match it
--   returns for a key that makes 1 % of the organization's requests).
-- audit_log_errors_at_idx (0020, partial: status >= 400): the 4xx/5xx filters, whose values are
--   rare; written for error rows only, so it costs a healthy API nearly nothing.
-- audit_log_ip_at_idx (0020): one client address, rare by nature and an investigation's first
--   question, found without reading the organization's whole log.
--
-- Dropped: audit_log_api_key_at_idx (0012). It served the keyId filter (now the organization
-- index) and the settings screen's usage of a key, which now reads api_key_usage (0021):
-- counts per key and hour written in the same statement as the rows, so the log and the counts
-- cannot disagree. The counts are filled here from the log as it is.
--
-- Rebuilding the organization index blocks writes to audit_log for as long as it takes (a
-- partitioned index cannot be built concurrently); the service holds rows in memory meanwhile
-- (100,000 at most) and writes them once the migration commits.
DROP INDEX IF EXISTS "audit_log_api_key_at_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "audit_log_organization_at_idx";
--> statement-breakpoint
CREATE INDEX "audit_log_organization_at_idx" ON "audit_log" ("organization_id", "at" DESC, "id" DESC, "status", "route", "ip", "user_id", "api_key_id");
--> statement-breakpoint
INSERT INTO "api_key_usage" ("api_key_id", "hour", "organization_id", "requests", "last_at", "last_ip")
	SELECT "api_key_id", date_trunc('hour', "at", 'UTC'),
		(array_agg("organization_id" ORDER BY "at" DESC, "id" DESC))[1], count(*), max("at"),
		(array_agg("ip" ORDER BY "at" DESC, "id" DESC))[1]
	FROM "audit_log"
	WHERE "kind" = 'request' AND "api_key_id" IS NOT NULL
	GROUP BY "api_key_id", date_trunc('hour', "at", 'UTC');
