CREATE TABLE "api_key_usage" (
	"api_key_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"organization_id" uuid NOT NULL,
	"requests" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_ip" text,
	CONSTRAINT "api_key_usage_api_key_id_hour_pk" PRIMARY KEY("api_key_id","hour")
);
--> statement-breakpoint
CREATE INDEX "api_key_usage_hour_index" ON "api_key_usage" USING btree ("hour");