-- Two filters of the audit log walk their own index in the page order (docs/decisions.md §15):
-- a first page reads about as many entries as it returns however rare the value is. The other
-- filters walk the organization's index (0012) and check its entries. Declared on the
-- partitioned table: Postgres adds them to every day partition, present and future.
-- Errors only (about a tenth of the rows, so a tenth of the writes): statusClass 4xx and 5xx,
-- with or without a route, queried with literal bounds so that the planner can match it.
CREATE INDEX "audit_log_errors_at_idx" ON "audit_log" ("organization_id", "at" DESC, "id" DESC, "status", "route") WHERE "status" >= 400;
--> statement-breakpoint
-- one client address: an investigation's first question
CREATE INDEX "audit_log_ip_at_idx" ON "audit_log" ("organization_id", "ip", "at" DESC, "id" DESC);
