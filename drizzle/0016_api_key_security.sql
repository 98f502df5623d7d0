CREATE TABLE "api_key_notices" (
	"key_id" uuid NOT NULL,
	"point" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "api_key_notices_key_id_point_pk" PRIMARY KEY("key_id","point")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rotated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaced_by_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "grace_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "grace_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "grace_used_ip" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "max_key_lifetime_days" integer;--> statement-breakpoint
ALTER TABLE "api_key_notices" ADD CONSTRAINT "api_key_notices_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_notices_due_idx" ON "api_key_notices" USING btree ("due_at") WHERE sent_at is null;