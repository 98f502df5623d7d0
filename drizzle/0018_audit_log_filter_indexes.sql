-- The audit log's filters each walk their own index in the page order (docs/decisions.md §15):
-- an equality on the filtered value, then (at, id) newest first, so a first page reads about
-- as many entries as it returns however rare the value is. The organization's index
-- (0012) walks every row of the organization and only suits common values. Declared on the
-- partitioned table: Postgres adds them to every day partition, present and future.
CREATE INDEX "audit_log_route_at_idx" ON "audit_log" ("organization_id", "route", "at" DESC, "id" DESC, "status");
--> statement-breakpoint
-- statusClass is queried as `status / 100 = n`, this index's expression
CREATE INDEX "audit_log_status_class_at_idx" ON "audit_log" ("organization_id", (("status" / 100)), "at" DESC, "id" DESC, "route");
--> statement-breakpoint
CREATE INDEX "audit_log_ip_at_idx" ON "audit_log" ("organization_id", "ip", "at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "audit_log_user_at_idx" ON "audit_log" ("organization_id", "user_id", "at" DESC, "id" DESC);
