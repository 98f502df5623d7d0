-- Custom migration (drizzle-kit generate --custom): each session adds to ticket counters of its
-- own (slot = pg_backend_pid()), as one signed delta per key, so two open transactions that
-- write tickets of the same creator, status and priority no longer wait for each other's
-- counter row (a transaction held open stalled every later ticket write of that key). The
-- change feed's retention run folds the slots back into slot 0 (docs/decisions.md §12).
CREATE OR REPLACE FUNCTION ticket_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_counts AS c (organization_id, created_by, status, priority, slot, count)
    SELECT organization_id, created_by, status, priority, pg_backend_pid(), count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, created_by, status, priority, slot)
    DO UPDATE SET count = c.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ticket_counts AS c (organization_id, created_by, status, priority, slot, count)
    SELECT organization_id, created_by, status, priority, pg_backend_pid(), -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, created_by, status, priority, slot)
    DO UPDATE SET count = c.count + excluded.count;
  ELSE
    INSERT INTO ticket_counts AS c (organization_id, created_by, status, priority, slot, count)
    SELECT organization_id, created_by, status, priority, pg_backend_pid(), sum(n)
    FROM (
      SELECT organization_id, created_by, status, priority, -1 AS n FROM old_rows
      UNION ALL
      SELECT organization_id, created_by, status, priority, 1 AS n FROM new_rows
    ) AS d
    GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, created_by, status, priority, slot)
    DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END $$;
