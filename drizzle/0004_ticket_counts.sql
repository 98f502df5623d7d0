CREATE TABLE "ticket_counts" (
	"organization_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "ticket_counts_organization_id_created_by_status_priority_pk" PRIMARY KEY("organization_id","created_by","status","priority")
);
--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;