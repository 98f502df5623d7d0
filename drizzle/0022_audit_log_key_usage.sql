-- Custom migration (drizzle-kit generate --custom): fills api_key_usage (0021), each key's
-- requests per UTC hour, from the log as it is; from now on the recorder adds to it in the
-- statement that writes the rows (src/db/queries/audit-log.ts), so the two cannot disagree.
-- The settings screen's usage of a key (last use, 24 h, 30 days) reads these counts instead of
-- every row of the key: 1–2 ms for a key of 110,000 rows, 140 ms before (docs/performance.md).
--
-- The indexes of audit_log were reviewed against what each costs per recorded row (about
-- 1.2–1.4 µs of Postgres CPU each, measured, beside about 3.4 µs for the row itself) and none
-- is dropped (docs/decisions.md, "Recording's cost"):
-- audit_log_organization_at_idx (0012): every page and export; the route, user, 2xx and 3xx
--   filters are checked on its entries.
-- audit_log_api_key_at_idx (0012): the keyId filter, "what did this key do", is a first page
--   of about 50 entries whatever else the organization does; answered from the organization
--   index instead (tried: api_key_id added to it), a key's page read every newer row of the
--   other keys: 38 ms for a key of 1 % of the bench's rows, 140 ms for one of 10 rows.
-- audit_log_errors_at_idx (0020, partial): written for error rows only.
-- audit_log_ip_at_idx (0020): a rare address, found without reading the whole log.
-- This scans the log once (about 1 s per million rows on the bench machine).
INSERT INTO "api_key_usage" ("api_key_id", "hour", "organization_id", "requests", "last_at", "last_ip")
	SELECT "api_key_id", date_trunc('hour', "at", 'UTC'),
		(array_agg("organization_id" ORDER BY "at" DESC, "id" DESC))[1], count(*), max("at"),
		(array_agg("ip" ORDER BY "at" DESC, "id" DESC))[1]
	FROM "audit_log"
	WHERE "kind" = 'request' AND "api_key_id" IS NOT NULL
	GROUP BY "api_key_id", date_trunc('hour', "at", 'UTC');
