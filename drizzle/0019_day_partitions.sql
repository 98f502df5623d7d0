-- Custom migration (drizzle-kit generate --custom): quota usage, idempotency records and webhook
-- deliveries become range-partitioned by day (docs/decisions.md §96), so retention drops whole
-- days instead of deleting rows. Each table is rebuilt in this migration's transaction: the old
-- one is renamed, its rows copied into the new partitioned table, then dropped; nothing is lost
-- and nothing writes in between (the rename holds the table's lock until commit). Copied rows
-- land in the DEFAULT partition; the upkeep job (src/db/partition-upkeep.ts) creates day
-- partitions ahead, moving any default rows of those days into them, and deletes default rows
-- once they pass retention. Constraint and index names are the ones drizzle/meta records.
ALTER TABLE "quota_usage" RENAME TO "quota_usage_unpartitioned";
--> statement-breakpoint
ALTER TABLE "quota_usage_unpartitioned" DROP CONSTRAINT "quota_usage_organization_id_minute_pk";
--> statement-breakpoint
CREATE TABLE "quota_usage" (
	"organization_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "quota_usage_organization_id_minute_pk" PRIMARY KEY("organization_id","minute"),
	CONSTRAINT "quota_usage_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action
) PARTITION BY RANGE ("minute");
--> statement-breakpoint
CREATE TABLE "quota_usage_default" PARTITION OF "quota_usage" DEFAULT;
--> statement-breakpoint
INSERT INTO "quota_usage" ("organization_id", "minute", "count")
	SELECT "organization_id", "minute", "count" FROM "quota_usage_unpartitioned";
--> statement-breakpoint
DROP TABLE "quota_usage_unpartitioned";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" RENAME TO "idempotency_keys_unpartitioned";
--> statement-breakpoint
ALTER TABLE "idempotency_keys_unpartitioned" DROP CONSTRAINT "idempotency_keys_api_key_id_key_pk";
--> statement-breakpoint
DROP INDEX "idempotency_keys_created_idx";
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"api_key_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "idempotency_keys_api_key_id_key_created_at_pk" PRIMARY KEY("api_key_id","key","created_at"),
	CONSTRAINT "idempotency_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "idempotency_keys_default" PARTITION OF "idempotency_keys" DEFAULT;
--> statement-breakpoint
INSERT INTO "idempotency_keys" ("api_key_id", "key", "request_hash", "status_code", "response_body", "created_at", "completed_at")
	SELECT "api_key_id", "key", "request_hash", "status_code", "response_body", "created_at", "completed_at" FROM "idempotency_keys_unpartitioned";
--> statement-breakpoint
DROP TABLE "idempotency_keys_unpartitioned";
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_unpartitioned";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries_unpartitioned" DROP CONSTRAINT "webhook_deliveries_pkey";
--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";
--> statement-breakpoint
DROP INDEX "webhook_deliveries_sub_idx";
--> statement-breakpoint
DROP INDEX "webhook_deliveries_event_idx";
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_id_created_at_pk" PRIMARY KEY("id","created_at"),
	CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries_default" PARTITION OF "webhook_deliveries" DEFAULT;
--> statement-breakpoint
INSERT INTO "webhook_deliveries" ("id", "event_id", "subscription_id", "status", "attempts", "next_attempt_at", "lease_until", "last_status_code", "last_error", "last_attempt_at", "delivered_at", "created_at")
	SELECT "id", "event_id", "subscription_id", "status", "attempts", "next_attempt_at", "lease_until", "last_status_code", "last_error", "last_attempt_at", "delivered_at", "created_at" FROM "webhook_deliveries_unpartitioned";
--> statement-breakpoint
DROP TABLE "webhook_deliveries_unpartitioned";
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_sub_idx" ON "webhook_deliveries" USING btree ("subscription_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");
