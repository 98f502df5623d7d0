CREATE TYPE "public"."change_op" AS ENUM('upsert', 'delete');--> statement-breakpoint
CREATE TYPE "public"."change_type" AS ENUM('tickets', 'alerts', 'equipment');--> statement-breakpoint
CREATE TABLE "change_retention" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"scanned_seq" bigint DEFAULT 0 NOT NULL,
	"horizon_xid" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"horizon_seq" bigint DEFAULT 0 NOT NULL,
	"ran_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" "change_type" NOT NULL,
	"record_id" uuid NOT NULL,
	"op" "change_op" NOT NULL,
	"owner_id" uuid,
	"previous_owner_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "changes_org_type_position_idx" ON "changes" USING btree ("organization_id","type","xid","seq");--> statement-breakpoint
CREATE INDEX "changes_record_idx" ON "changes" USING btree ("record_id","seq");