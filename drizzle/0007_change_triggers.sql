-- Custom migration (drizzle-kit generate --custom): the change feed written by statement-level
-- triggers on tickets, alerts and equipment, in the same transaction as every insert, update and
-- delete (docs/decisions.md: the change feed). xid and at take their defaults: the writing
-- transaction's id and its start time. The triggers come first: creating them locks each table
-- against writes, so the backfill below records every committed record exactly once.
CREATE FUNCTION changes_record_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO changes (organization_id, type, record_id, op, owner_id)
    SELECT organization_id, 'tickets', id, 'delete', created_by FROM old_rows ORDER BY id;
  ELSE
    INSERT INTO changes (organization_id, type, record_id, op, owner_id)
    SELECT organization_id, 'tickets', id, 'upsert', created_by FROM new_rows ORDER BY id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION changes_record_alerts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO changes (organization_id, type, record_id, op)
    SELECT organization_id, 'alerts', id, 'delete' FROM old_rows ORDER BY id;
  ELSE
    INSERT INTO changes (organization_id, type, record_id, op)
    SELECT organization_id, 'alerts', id, 'upsert' FROM new_rows ORDER BY id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- an owner-only key follows the equipment assigned to it: a reassignment also names the
-- previous assignee, for whom the equipment left their view. Retired equipment is a tombstone
-- (a delete), as a deleted one is: it has left the fleet a sync client mirrors.
CREATE FUNCTION changes_record_equipment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO changes (organization_id, type, record_id, op, owner_id)
    SELECT organization_id, 'equipment', id, 'delete', assigned_user_id FROM old_rows ORDER BY id;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO changes (organization_id, type, record_id, op, owner_id, previous_owner_id)
    SELECT n.organization_id, 'equipment', n.id,
      (CASE WHEN n.status = 'retired' THEN 'delete' ELSE 'upsert' END)::change_op,
      n.assigned_user_id,
      CASE WHEN o.assigned_user_id IS DISTINCT FROM n.assigned_user_id THEN o.assigned_user_id END
    FROM new_rows n JOIN old_rows o ON o.id = n.id ORDER BY n.id;
  ELSE
    INSERT INTO changes (organization_id, type, record_id, op, owner_id)
    SELECT organization_id, 'equipment', id,
      (CASE WHEN status = 'retired' THEN 'delete' ELSE 'upsert' END)::change_op, assigned_user_id
    FROM new_rows ORDER BY id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_changes_insert AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_tickets();
--> statement-breakpoint
CREATE TRIGGER tickets_changes_update AFTER UPDATE ON tickets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_tickets();
--> statement-breakpoint
CREATE TRIGGER tickets_changes_delete AFTER DELETE ON tickets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_tickets();
--> statement-breakpoint
CREATE TRIGGER alerts_changes_insert AFTER INSERT ON alerts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_alerts();
--> statement-breakpoint
CREATE TRIGGER alerts_changes_update AFTER UPDATE ON alerts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_alerts();
--> statement-breakpoint
CREATE TRIGGER alerts_changes_delete AFTER DELETE ON alerts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_alerts();
--> statement-breakpoint
CREATE TRIGGER equipment_changes_insert AFTER INSERT ON equipment
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_equipment();
--> statement-breakpoint
CREATE TRIGGER equipment_changes_update AFTER UPDATE ON equipment
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changes_record_equipment();
--> statement-breakpoint
CREATE TRIGGER equipment_changes_delete AFTER DELETE ON equipment
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION changes_record_equipment();
--> statement-breakpoint
INSERT INTO change_retention (id) VALUES (1);
--> statement-breakpoint
INSERT INTO changes (organization_id, type, record_id, op, owner_id)
SELECT organization_id, 'tickets', id, 'upsert', created_by FROM tickets ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO changes (organization_id, type, record_id, op)
SELECT organization_id, 'alerts', id, 'upsert' FROM alerts ORDER BY received_at, id;
--> statement-breakpoint
INSERT INTO changes (organization_id, type, record_id, op, owner_id)
SELECT organization_id, 'equipment', id,
  (CASE WHEN status = 'retired' THEN 'delete' ELSE 'upsert' END)::change_op, assigned_user_id
FROM equipment ORDER BY created_at, id;
