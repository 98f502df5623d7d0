"""Tickets, alerts and equipment that change (the OpenAPI tag ``extensions``) against a REAL
orgit service process: typed records, ``if_match``, and the errors an integrator meets."""

import unittest
import uuid

from orgit import ConflictError, NotFoundError, OrgitError

from .service import ADD_INGEST, Account, ModuleService, Service

SERVICE: Service
MAIN: Account

SHARED = ModuleService("orgit service (python client, lifecycle)")
client = SHARED.client
keyless = SHARED.keyless


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()
    SERVICE.operator(ADD_INGEST, {"input": {"organizationId": MAIN.org_id, "cidr": "127.0.0.1/32"}})


class Tickets(unittest.TestCase):
    def test_get_update_with_if_match_and_comments(self) -> None:
        orgit = client()
        created = orgit.tickets.create(title="Laptop will not boot",
                                       description="Black screen after the vendor logo.")
        ticket = orgit.tickets.get(created["id"])
        self.assertEqual((ticket["version"], ticket["assignee_id"]), (1, None))
        updated = orgit.tickets.update(
            created["id"], {"status": "in_progress", "assigneeId": MAIN.user_id},
            if_match=ticket["version"])
        self.assertEqual((updated["status"], updated["assignee_id"], updated["version"]),
                         ("in_progress", MAIN.user_id, 2))
        with self.assertRaises(OrgitError) as stale:
            orgit.tickets.update(created["id"], {"priority": "low"}, if_match=1)
        self.assertEqual((stale.exception.status, stale.exception.error), (412, "Version mismatch"))
        orgit.tickets.update(created["id"], {"status": "closed"})
        with self.assertRaises(ConflictError) as moved:
            orgit.tickets.update(created["id"], {"status": "open"})
        self.assertEqual(moved.exception.error, "Invalid status transition: closed → open")
        comment = orgit.tickets.add_comment(created["id"], "Replaced the SSD.")
        self.assertEqual((comment["ticketId"], comment["authorId"]), (created["id"], MAIN.user_id))
        page = orgit.tickets.list_comments(created["id"], limit=10)
        self.assertEqual(page["data"], [comment])
        second = orgit.tickets.add_comment(created["id"], "Closed the case.")
        walked = list(orgit.tickets.paginate_comments(created["id"], limit=1))
        self.assertEqual(walked, [second, comment])
        with self.assertRaises(NotFoundError):
            orgit.tickets.get(str(uuid.uuid4()))


class Alerts(unittest.TestCase):
    def test_acknowledge_resolve_reopen(self) -> None:
        orgit = client()
        ingested = keyless().alerts.ingest(
            {"source": "python-lifecycle", "externalId": str(uuid.uuid4()), "title": "Backup failed"})
        alert_id = ingested["ids"][0]
        self.assertEqual(orgit.alerts.get(alert_id)["status"], "open")
        acknowledged = orgit.alerts.acknowledge(alert_id, note="Looking into it")
        self.assertEqual((acknowledged["status"], acknowledged["acknowledgementNote"]),
                         ("acknowledged", "Looking into it"))
        resolved = orgit.alerts.resolve(alert_id, if_match=acknowledged["version"])
        self.assertEqual(resolved["version"], acknowledged["version"] + 1)
        self.assertEqual(orgit.alerts.reopen(alert_id)["status"], "open")
        with self.assertRaises(ConflictError) as twice:
            orgit.alerts.reopen(alert_id)
        self.assertEqual(twice.exception.error, "Invalid status transition: open → open")


class Equipment(unittest.TestCase):
    def test_get_update_retire(self) -> None:
        orgit = client()
        result = orgit.equipment.bulk_create([{"name": "pc-1", "type": "workstation"}])
        equipment_id = result["items"][0]["id"]
        record = orgit.equipment.get(equipment_id)
        self.assertEqual((record["status"], record["retiredAt"], record["version"]),
                         ("pending", None, 1))
        updated = orgit.equipment.update(equipment_id, {"location": "Floor 4"}, if_match=1)
        self.assertEqual((updated["location"], updated["version"]), ("Floor 4", 2))
        self.assertEqual(orgit.equipment.retire(equipment_id)["status"], "retired")
        with self.assertRaises(ConflictError) as refused:
            orgit.equipment.update(equipment_id, {"name": "pc-2"})
        self.assertEqual(refused.exception.error, "Equipment is retired")


if __name__ == "__main__":
    unittest.main()
