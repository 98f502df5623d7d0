-- Custom migration (drizzle-kit generate --custom): ticket_counts kept exact by statement-level
-- triggers on tickets, in the same transaction as each insert, update and delete. The triggers
-- come first: creating them locks tickets against writes, so the backfill below counts every
-- committed ticket and every later write goes through a trigger.
CREATE FUNCTION ticket_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE ticket_counts AS c SET count = c.count - d.n
    FROM (
      SELECT organization_id, created_by, status, priority, count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4
    ) AS d
    WHERE c.organization_id = d.organization_id AND c.created_by = d.created_by
      AND c.status = d.status AND c.priority = d.priority;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- in key order, so two multi-row writes never lock the same counters in opposite orders
    INSERT INTO ticket_counts AS c (organization_id, created_by, status, priority, count)
    SELECT organization_id, created_by, status, priority, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, created_by, status, priority)
    DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_count_insert AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_apply();
--> statement-breakpoint
CREATE TRIGGER tickets_count_update AFTER UPDATE ON tickets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_apply();
--> statement-breakpoint
CREATE TRIGGER tickets_count_delete AFTER DELETE ON tickets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_apply();
--> statement-breakpoint
INSERT INTO ticket_counts (organization_id, created_by, status, priority, count)
SELECT organization_id, created_by, status, priority, count(*)
FROM tickets GROUP BY 1, 2, 3, 4;
