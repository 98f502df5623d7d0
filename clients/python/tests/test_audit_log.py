"""The usage and audit trail (``orgit.audit_log``) against a REAL orgit service process:
pages with cursors, every entry, the NDJSON export, and bad input raised as typed errors."""

import datetime
import unittest

from orgit import BadRequestError, PermissionDeniedError

from .service import Account, ModuleService, Service, poll

SERVICE: Service
MAIN: Account

SHARED = ModuleService("orgit service (python client, audit log)")
client = SHARED.client


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()


class AuditLog(unittest.TestCase):
    def test_pages_every_entry_and_the_export_hold_the_requests_made(self) -> None:
        orgit = client()
        made = []
        for _ in range(3):
            orgit.whoami()
            made.append(orgit.last_response.request_id)  # type: ignore[union-attr]

        def recorded() -> bool:  # the trail is written in batches about once a second
            page = orgit.audit_log.list(route="/api/v1/whoami")
            return all(any(e["requestId"] == r for e in page["data"]) for r in made)

        poll(recorded, 15, "the three whoami requests in the trail")
        page = orgit.audit_log.list(route="/api/v1/whoami", status_class="2xx", limit=2)
        self.assertEqual(len(page["data"]), 2)
        self.assertIsNotNone(page["nextCursor"])
        first = page["data"][0]
        self.assertEqual((first["kind"], first["method"], first["route"], first["status"]),
                         ("request", "GET", "/api/v1/whoami", 200))
        every = list(orgit.audit_log.list_all(route="/api/v1/whoami", limit=1))
        self.assertEqual(sorted(e["requestId"] for e in every), sorted(made))

        now = datetime.datetime.now(datetime.timezone.utc)
        exported = list(orgit.audit_log.export(start=now - datetime.timedelta(hours=1),
                                               end=now + datetime.timedelta(minutes=1)))
        whoamis = [e["requestId"] for e in exported if e["route"] == "/api/v1/whoami"]
        self.assertEqual(whoamis, made, "oldest first")
        self.assertTrue(any(e["kind"] == "api_key.created" for e in exported))

    def test_bad_input_and_missing_rights_raise_typed_errors(self) -> None:
        orgit = client()
        with self.assertRaises(BadRequestError) as bad:
            orgit.audit_log.list(status_class="20x")
        self.assertEqual([d["path"] for d in bad.exception.details or []], [["statusClass"]])
        with self.assertRaises(BadRequestError) as backwards:
            list(orgit.audit_log.export(start="2026-05-02T00:00:00Z", end="2026-05-01T00:00:00Z"))
        self.assertEqual([d["path"] for d in backwards.exception.details or []], [["to"]])
        narrow = SERVICE.provision(scopes=["tickets:read"])
        with self.assertRaises(PermissionDeniedError) as refused:
            client(narrow).audit_log.list()
        self.assertIn("audit:read", str(refused.exception))
