"""``changes.sync(types, since)`` and ``paginate()`` against a REAL orgit service process on
loopback (docs/api.md, the change feed and cursor pages)."""

import unittest
from typing import List

from orgit import BadRequestError, GoneError
from orgit.errors import error_from_response
from orgit.meta import parse_meta

from .service import Account, ModuleService, Service

SERVICE: Service
MAIN: Account

SHARED = ModuleService("orgit service (python client, sync and cursors)")
client = SHARED.client


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()


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
        self.assertEqual(again[0]["record"], later)

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


if __name__ == "__main__":
    unittest.main()
