CREATE TABLE "live_stream_slots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"api_key_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_stream_slots" ADD CONSTRAINT "live_stream_slots_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_stream_slots_api_key_id_index" ON "live_stream_slots" USING btree ("api_key_id");--> statement-breakpoint
CREATE INDEX "live_stream_slots_instance_id_index" ON "live_stream_slots" USING btree ("instance_id");