ALTER TABLE "ticket_counts" ADD COLUMN "slot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_counts" DROP CONSTRAINT "ticket_counts_organization_id_created_by_status_priority_pk";--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_organization_id_created_by_status_priority_slot_pk" PRIMARY KEY("organization_id","created_by","status","priority","slot");
