-- Custom migration (drizzle-kit generate --custom): the usage and audit trail, range-partitioned
-- by day on `at` (docs/decisions.md §audit-retention). Day partitions (audit_log_dYYYYMMDD) are
-- created ahead and dropped at retention by src/db/queries/audit-partitions.ts; the indexes
-- below are declared once here and Postgres adds them to every partition.
CREATE SEQUENCE "audit_log_id_seq" AS bigint;
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint DEFAULT nextval('audit_log_id_seq') NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"api_key_id" uuid,
	"user_id" uuid,
	"method" text,
	"route" text,
	"status" smallint,
	"duration_ms" real,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"detail" jsonb
) PARTITION BY RANGE ("at");
--> statement-breakpoint
ALTER SEQUENCE "audit_log_id_seq" OWNED BY "audit_log"."id";
--> statement-breakpoint
-- an organization's newest first (every page and export walks this order); the filtered
-- columns after the order's are checked on the index entries, so a filter that matches few
-- rows skips the rows it does not match without reading them from the table
CREATE INDEX "audit_log_organization_at_idx" ON "audit_log" ("organization_id", "at" DESC, "id" DESC, "status", "route", "ip", "user_id");
--> statement-breakpoint
-- one key's use: the settings page's last use and daily counts, the keyId filter
CREATE INDEX "audit_log_api_key_at_idx" ON "audit_log" ("api_key_id", "at" DESC, "id" DESC) WHERE "api_key_id" IS NOT NULL;
