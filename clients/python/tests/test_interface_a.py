"""Interface A (``/api/v1``) against a REAL orgit service process on loopback: identity,
response meta, every list with its lazy pagination, tickets, bulk-create, install links, alerts."""

import unittest
import urllib.parse
import uuid
from typing import List

from orgit import ConflictError, NotFoundError, ResponseMeta
from orgit.models import IngestAlert

from .service import ADD_INGEST, CREATE_RELEASE, Account, ModuleService, Service, unique

RELEASE = {"version": "9.4.2", "platform": "linux", "architecture": "x86_64", "channel": "stable",
           "downloadUrl": "https://downloads.example.com/agent-9.4.2.tar.gz", "sha256": "ab" * 32}

SERVICE: Service
MAIN: Account


SHARED = ModuleService("orgit service (python client, interface A)")
client = SHARED.client
keyless = SHARED.keyless


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()
    # alerts from 127.0.0.1 belong to MAIN; a stable linux release for install links
    SERVICE.operator(ADD_INGEST, {"input": {"organizationId": MAIN.org_id, "cidr": "127.0.0.1/32"}})
    SERVICE.operator(CREATE_RELEASE, {"input": RELEASE})


class Identity(unittest.TestCase):
    def test_whoami(self) -> None:
        me = client().whoami()
        self.assertEqual(me["organization"]["id"], MAIN.org_id)
        self.assertEqual(me["user"], {"id": MAIN.user_id, "role": "admin"})
        self.assertEqual(me["apiKey"]["name"], "python tests")
        self.assertIsNone(me["apiKey"]["expiresAt"])
        self.assertIn("webhooks:write", me["apiKey"]["scopes"])

    def test_health_and_the_meta_of_every_response(self) -> None:
        seen: List[ResponseMeta] = []
        orgit = client(seen=seen)
        self.assertEqual(orgit.health(), {"status": "ok"})
        meta = orgit.last_response
        assert meta is not None
        self.assertIs(meta, seen[-1])
        self.assertEqual(meta.status, 200)
        self.assertTrue(meta.request_id)
        self.assertEqual(meta.request_id, meta.headers["x-request-id"])
        assert meta.rate_limit is not None and meta.quota is not None
        self.assertIsInstance(meta.rate_limit.limit, int)
        self.assertEqual(meta.rate_limit.remaining, int(meta.headers["x-ratelimit-remaining"]))
        self.assertIsInstance(meta.rate_limit.reset, int)
        self.assertIn('"burst"', meta.rate_limit.policy or "")
        self.assertEqual(meta.rate_limit.raw, meta.headers["ratelimit"])
        self.assertEqual(meta.quota.limit, 100_000)  # PRO
        self.assertFalse(meta.idempotent_replayed)
        # whoami counts against the daily quota, health does not
        orgit.whoami()
        used = seen[-1].quota.used if seen[-1].quota else None
        orgit.whoami()
        after = seen[-1].quota
        assert used is not None and after is not None
        self.assertEqual(after.used, used + 1)
        self.assertEqual(after.remaining, 100_000 - used - 1)
        orgit.health()
        self.assertEqual(seen[-1].quota.used if seen[-1].quota else None, used + 1)


class Pagination(unittest.TestCase):
    def test_interface_a_every_ticket_once_in_order_across_pages(self) -> None:
        account = SERVICE.provision()
        seen: List[ResponseMeta] = []
        orgit = client(account, seen)
        created = set()
        for n in range(7):
            ticket = orgit.tickets.create(title=f"Ticket number {n}", description="Paginated body.",
                                          priority="high" if n % 2 else "low")
            created.add(ticket["id"])
        listed = [t["id"] for t in orgit.tickets.list(limit=100)["data"]]
        self.assertEqual(set(listed), created)
        seen.clear()
        items = orgit.tickets.list_all(limit=3)
        self.assertEqual(seen, [])  # lazy: nothing is fetched before the first item is asked for
        self.assertEqual(next(items)["id"], listed[0])
        self.assertEqual(len(seen), 1)
        self.assertEqual([listed[0]] + [t["id"] for t in items], listed)
        self.assertEqual(len(seen), 3)  # 3 + 3 + 1
        page = orgit.tickets.list(limit=3, offset=3)
        self.assertEqual(page["pagination"], {"total": 7, "limit": 3, "offset": 3})
        self.assertEqual([t["id"] for t in page["data"]], listed[3:6])
        # filters hold on every page: 3 high-priority tickets in pages of 2
        high = {t["id"] for t in orgit.tickets.list(priority="high")["data"]}
        self.assertEqual(len(high), 3)
        paged = [t["id"] for t in orgit.tickets.list_all(priority="high", limit=2)]
        self.assertEqual(paged, [t for t in listed if t in high])
        seen.clear()
        self.assertEqual([t["id"] for t in orgit.tickets.list_all()], listed)
        self.assertEqual(len(seen), 1)  # default page size: the maximum, 200


class Tickets(unittest.TestCase):
    def test_create_answers_the_snake_case_ticket(self) -> None:
        ticket = client().tickets.create(
            title="Printer jams", description="The printer on floor 2 jams.", priority="high"
        )
        self.assertEqual(set(ticket), {"id", "title", "status", "priority", "equipment_id",
                                       "created_by", "created_at"})
        self.assertEqual((ticket["title"], ticket["status"], ticket["priority"]),
                         ("Printer jams", "open", "high"))
        self.assertEqual(ticket["created_by"], MAIN.user_id)
        self.assertIsNone(ticket["equipment_id"])
        open_tickets = client().tickets.list(status="open", limit=200)["data"]
        self.assertIn(ticket["id"], [t["id"] for t in open_tickets])

    def test_a_ticket_for_equipment(self) -> None:
        orgit = client()
        created = orgit.equipment.bulk_create([{"name": unique("laptop"), "type": "laptop"}])
        equipment = created["items"][0]
        ticket = orgit.tickets.create(title="Battery swollen",
                                      description="The battery bulges out.",
                                      equipment_id=equipment["id"])
        self.assertEqual(ticket["equipment_id"], equipment["id"])

    def test_the_same_idempotency_key_replays_the_first_answer(self) -> None:
        orgit = client()
        key = str(uuid.uuid4())
        body = {"title": "Replayed ticket", "description": "Sent twice with one key."}
        first = orgit.tickets.create(**body, idempotency_key=key)
        assert orgit.last_response is not None
        self.assertFalse(orgit.last_response.idempotent_replayed)
        second = orgit.tickets.create(**body, idempotency_key=key)
        self.assertEqual(second, first)
        self.assertTrue(orgit.last_response.idempotent_replayed)
        with self.assertRaises(ConflictError) as raised:
            orgit.tickets.create(title="Another ticket", description="Same key, other body.",
                                 idempotency_key=key)
        self.assertEqual(raised.exception.status, 409)


class EquipmentAndInstall(unittest.TestCase):
    def test_bulk_create_with_a_per_item_error_then_the_install_link(self) -> None:
        orgit = client()
        name = unique("build server")
        result = orgit.equipment.bulk_create([
            {"name": name, "type": "server", "platform": "linux", "location": "Rack 4"},
            {"name": "toaster", "type": "toaster"},
        ])
        self.assertEqual((result["requested"], result["created"], result["failed"]), (2, 1, 1))
        self.assertEqual(len(result["errors"]), 1)
        error = result["errors"][0]
        self.assertEqual((error["index"], error["name"]), (1, "toaster"))
        self.assertIn("type", error["error"])
        item = result["items"][0]
        self.assertEqual(item["name"], name)

        token = urllib.parse.urlparse(item["installUrl"]).path.rsplit("/", 1)[-1]
        link = keyless().install.get(token)
        self.assertEqual((link["equipmentId"], link["equipmentName"]), (item["id"], name))
        self.assertEqual((link["platform"], link["tokenKind"]), ("linux", "bulk"))
        assert link["agentRelease"] is not None
        self.assertEqual(link["agentRelease"]["version"], RELEASE["version"])
        with self.assertRaises(NotFoundError):
            keyless().install.get("no-such-token")

        listed = orgit.equipment.list(status="pending", limit=200)["data"]
        self.assertIn(item["id"], [e["id"] for e in listed])
        found = [e for e in orgit.equipment.list_all(status="pending") if e["id"] == item["id"]]
        self.assertEqual(found[0]["location"], "Rack 4")


class OtherLists(unittest.TestCase):
    def test_units_groups_users_and_agent_releases(self) -> None:
        # units and groups cannot be created over the API: their lists are empty here
        orgit = client()
        for name, resource in (("units", orgit.equipment_units), ("groups", orgit.groups),
                               ("users", orgit.users)):
            with self.subTest(list=name):
                page = resource.list(limit=5, offset=0)
                self.assertEqual(page["pagination"]["limit"], 5)
                self.assertEqual(page["pagination"]["offset"], 0)
                self.assertEqual(len(list(resource.list_all(limit=5))), page["pagination"]["total"])
        users = orgit.users.list()["data"]
        self.assertEqual([u["userId"] for u in users], [MAIN.user_id])
        self.assertEqual(users[0]["profile"],
                         {"firstName": "Ada", "lastName": "Py", "email": MAIN.email})
        linux = orgit.agent_releases.list(platform="linux", channel="stable")["data"]
        self.assertIn(RELEASE["version"], [r["version"] for r in linux])
        windows = orgit.agent_releases.list_all(platform="windows")
        self.assertNotIn(RELEASE["version"], [r["version"] for r in windows])

    def test_alerts_ingest_then_list(self) -> None:
        first, second = unique("disk"), unique("cpu")
        disk: IngestAlert = {"source": "prometheus", "externalId": first,
                             "title": "Disk above 95%", "severity": "critical"}
        cpu: IngestAlert = {"source": "prometheus", "externalId": second, "title": "CPU above 90%"}
        received = keyless().alerts.ingest([disk, cpu])  # a list is sent as {"alerts": [...]}
        self.assertEqual((received["received"], received["created"], received["duplicates"]),
                         (2, 2, 0))
        again = keyless().alerts.ingest(disk)  # one alert on its own
        self.assertEqual((again["created"], again["duplicates"], again["ids"]),
                         (0, 1, received["ids"][:1]))
        critical = client().alerts.list(severity="critical", status="open")["data"]
        alert = next(a for a in critical if a["id"] == received["ids"][0])
        self.assertEqual((alert["externalId"], alert["title"], alert["source"]),
                         (first, "Disk above 95%", "prometheus"))
        every = {a["id"] for a in client().alerts.list_all(limit=1)}
        self.assertTrue(set(received["ids"]) <= every)
