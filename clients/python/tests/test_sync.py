"""``changes.sync(types, since)`` and ``paginate()`` against a REAL orgit service process on
loopback (docs/api.md, the change feed and cursor pages)."""

import unittest
from typing import Any, Callable, List, Mapping, Optional, Tuple

from orgit import BadRequestError, GoneError, Orgit
from orgit.errors import error_from_response
from orgit.meta import parse_meta

from .service import (
    ADD_INGEST,
    ADD_MEMBER,
    CREATE_RELEASE,
    CREATE_USER,
    Account,
    LoopbackServer,
    ModuleService,
    Service,
    unique,
)

SERVICE: Service
MAIN: Account

SHARED = ModuleService("orgit service (python client, sync and cursors)")
client = SHARED.client


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()
    # alerts from 127.0.0.1 belong to MAIN
    SERVICE.operator(ADD_INGEST, {"input": {"organizationId": MAIN.org_id, "cidr": "127.0.0.1/32"}})


def ticket(n: int) -> dict:
    return {"title": f"Synced ticket {n}", "description": "Followed by sync() in Python."}


class Sync(unittest.TestCase):
    def test_sync_yields_each_change_once_and_the_token_to_store(self) -> None:
        orgit = client(SERVICE.provision())  # an organization of its own: its feed is this test's
        created: List[str] = [orgit.tickets.create(**ticket(n))["id"] for n in range(5)]
        pages = list(orgit.changes.sync(["tickets"], limit=2))
        self.assertEqual([len(page["data"]) for page in pages], [2, 2, 1])
        self.assertEqual([c["id"] for page in pages for c in page["data"]], created)
        self.assertFalse(pages[-1]["hasMore"])
        stored = pages[-1]["next"]

        later = orgit.tickets.create(**ticket(9))
        again = [c for page in orgit.changes.sync(["tickets"], stored) for c in page["data"]]
        self.assertEqual([(c["id"], c["op"]) for c in again], [(later["id"], "upsert")])
        self.assertEqual(again[0]["record"], orgit.tickets.get(later["id"]), "as GET answers it")

    def test_a_malformed_token_is_a_bad_request_and_410_a_gone_error(self) -> None:
        with self.assertRaises(BadRequestError) as raised:
            list(client().changes.sync(["tickets"], "not-a-token"))
        self.assertEqual(raised.exception.status, 400)
        expired = error_from_response(410, {"error": "Sync token expired"}, parse_meta(410, {}), None)
        self.assertIsInstance(expired, GoneError)
        self.assertEqual(expired.error, "Sync token expired")


class Paginate(unittest.TestCase):
    def test_paginate_follows_the_cursors_and_yields_what_one_big_page_holds(self) -> None:
        orgit = client(SERVICE.provision())
        for n in range(5):
            orgit.tickets.create(**ticket(20 + n))
            orgit.projects.create(name=f"Paged project {n}")
        tickets = [t["id"] for t in orgit.tickets.paginate(limit=2)]
        self.assertGreaterEqual(len(tickets), 5)
        self.assertEqual(tickets, [t["id"] for t in orgit.tickets.list(limit=200)["data"]])
        projects = [p["id"] for p in orgit.projects.paginate(limit=2)]
        self.assertEqual(projects, [p["id"] for p in orgit.projects.list(limit=100)["data"]])
        self.assertEqual(len(projects), 5)


Fetch = Callable[[Optional[str]], Mapping[str, Any]]


def walk(orgit: Orgit, fetch: Fetch) -> List[str]:
    """The ids of a list read one item a page, each page asked for with ``after=`` the cursor of
    the answer before (``orgit.last_response.next_cursor``), until there is no next page."""
    ids: List[str] = []
    after: Optional[str] = None
    for _ in range(50):
        page = fetch(after)
        ids.extend(str(item.get("id", item.get("userId"))) for item in page["data"])
        meta = orgit.last_response
        assert meta is not None
        after = meta.next_cursor
        if after is None:
            return ids
    raise AssertionError("the cursor pages never ended")


class ListAfter(unittest.TestCase):
    """``after=`` on every ``list()``: the cursor pages of docs/api.md, beside offset/page."""

    def test_after_walks_each_list_one_page_at_a_time_as_one_big_page_holds_it(self) -> None:
        account = SERVICE.provision()
        orgit = client(account)
        for n in range(3):
            orgit.tickets.create(**ticket(40 + n))
            orgit.projects.create(name=unique("Cursor project"))
        orgit.equipment.bulk_create([{"name": f"Cursor laptop {n}", "type": "laptop"}
                                     for n in range(3)])
        ticket_id = orgit.tickets.list(limit=1)["data"][0]["id"]
        for n in range(3):
            orgit.tickets.add_comment(ticket_id, f"Cursor comment {n}")
        receiver = LoopbackServer(lambda method, path: (204, {}, b""))
        self.addCleanup(receiver.close)
        for n in range(3):
            orgit.webhooks.create(url=f"{receiver.url}/hook{n}", events=["project.deleted"])
        lists: List[Tuple[str, Fetch, Fetch]] = [
            ("tickets", lambda at: orgit.tickets.list(limit=1, after=at),
             lambda _: orgit.tickets.list(limit=200)),
            ("equipment", lambda at: orgit.equipment.list(limit=1, after=at),
             lambda _: orgit.equipment.list(limit=200)),
            ("comments", lambda at: orgit.tickets.list_comments(ticket_id, limit=1, after=at),
             lambda _: orgit.tickets.list_comments(ticket_id, limit=200)),
            ("projects", lambda at: orgit.projects.list(limit=1, after=at),
             lambda _: orgit.projects.list(limit=100)),
            ("webhooks", lambda at: orgit.webhooks.list(limit=1, after=at),
             lambda _: orgit.webhooks.list(limit=100)),
        ]
        for name, one_at_a_time, whole in lists:
            expected = [str(item["id"]) for item in whole(None)["data"]]
            self.assertEqual(len(expected), 3, name)
            self.assertEqual(walk(orgit, one_at_a_time), expected, name)

    def test_after_on_the_lists_of_alerts_users_units_groups_releases_and_deliveries(self) -> None:
        orgit = client()
        keyless = SHARED.service.keyless()
        keyless.alerts.ingest([{"source": "cursor", "title": f"Alert {n}"} for n in range(3)])
        for n in range(2):
            person = {"email": f"{unique('cursor').replace(' ', '-')}@example.com",
                      "firstName": "Cursor", "lastName": f"Member {n}"}
            user = SERVICE.operator(CREATE_USER, {"input": person})
            SERVICE.operator(ADD_MEMBER, {"input": {"organizationId": MAIN.org_id,
                                                    "userId": user["id"], "role": "technician"}})
        for n in range(2):
            SERVICE.operator(CREATE_RELEASE, {"input": {
                "version": f"7.0.{n}", "platform": "linux", "architecture": "x86_64",
                "channel": "stable", "downloadUrl": f"https://downloads.example.com/7.0.{n}.tgz",
                "sha256": "cd" * 32}})
        self.assertEqual(walk(orgit, lambda at: orgit.alerts.list(limit=1, after=at)),
                         [a["id"] for a in orgit.alerts.list(limit=200)["data"]])
        self.assertEqual(walk(orgit, lambda at: orgit.users.list(limit=1, after=at)),
                         [str(u.get("id", u.get("userId")))
                          for u in orgit.users.list(limit=200)["data"]])
        self.assertEqual(walk(orgit, lambda at: orgit.agent_releases.list(limit=1, after=at)),
                         [r["id"] for r in orgit.agent_releases.list(limit=200)["data"]])
        # lists this module cannot fill (units and groups are the operator's; deliveries need
        # events): after= is sent, a cursor that is not one is refused naming it
        receiver = LoopbackServer(lambda method, path: (204, {}, b""))
        self.addCleanup(receiver.close)
        hook = orgit.webhooks.create(url=f"{receiver.url}/cursor", events=["project.deleted"])
        for name, call in [
            ("units", lambda: orgit.equipment_units.list(after="not-a-cursor")),
            ("groups", lambda: orgit.groups.list(after="not-a-cursor")),
            ("deliveries", lambda: orgit.webhooks.list_deliveries(hook["id"], after="not-a-cursor")),
            ("alerts", lambda: orgit.alerts.list(after="not-a-cursor")),
        ]:
            with self.assertRaises(BadRequestError, msg=name) as raised:
                call()
            self.assertIn(["after"], [d["path"] for d in raised.exception.details or []], name)


if __name__ == "__main__":
    unittest.main()
