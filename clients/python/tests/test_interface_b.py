"""Interface B (``/api``) against a REAL orgit service process on loopback: projects CRUD and
pagination, webhook subscriptions, and a real signed delivery to a loopback receiver."""

import unittest
import uuid
from typing import List, get_type_hints

from orgit import (
    NotFoundError,
    ResponseMeta,
    WebhookEvent,
    WebhookVerificationError,
    models,
    verify_webhook,
)
from orgit.models import WebhookEventType

from .service import (
    Account,
    LoopbackServer,
    ModuleService,
    Recorded,
    Service,
    poll,
    unique,
)

SERVICE: Service
MAIN: Account


SHARED = ModuleService("orgit service (python client, interface B)")
client = SHARED.client
keyless = SHARED.keyless


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()


class Projects(unittest.TestCase):
    def test_create_get_update_delete(self) -> None:
        orgit = client()
        created = orgit.projects.create(name="Website relaunch", description="Q3")
        self.assertEqual((created["name"], created["description"]), ("Website relaunch", "Q3"))
        project = orgit.projects.get(created["id"])
        self.assertEqual(project["createdAt"], created["createdAt"])
        updated = orgit.projects.update(created["id"], name="Website relaunch 2")
        self.assertEqual((updated["name"], updated["description"]), ("Website relaunch 2", "Q3"))
        self.assertGreaterEqual(updated["updatedAt"], project["updatedAt"])
        self.assertEqual(orgit.projects.delete(created["id"]),
                         {"success": True, "message": "Project deleted"})
        with self.assertRaises(NotFoundError) as raised:
            orgit.projects.get(created["id"])
        self.assertEqual(raised.exception.error, "Project not found")

    def test_answers_carry_the_organization_limit(self) -> None:
        orgit = client()
        orgit.projects.list()
        meta = orgit.last_response
        assert meta is not None and meta.rate_limit is not None
        self.assertEqual(meta.rate_limit.limit, 1000)  # PRO: 1,000 a minute
        self.assertIn('"org"', meta.rate_limit.policy or "")
        self.assertIsNone(meta.quota)


class Pagination(unittest.TestCase):
    def test_interface_b_every_project_once_in_order_across_pages(self) -> None:
        account = SERVICE.provision()
        seen: List[ResponseMeta] = []
        orgit = client(account, seen)
        created = {orgit.projects.create(name=f"Project {n}")["id"] for n in range(7)}
        listed = [p["id"] for p in orgit.projects.list(limit=100)["data"]]
        self.assertEqual(set(listed), created)
        seen.clear()
        self.assertEqual([p["id"] for p in orgit.projects.list_all(limit=3)], listed)
        self.assertEqual(len(seen), 3)
        last = orgit.projects.list(page=3, limit=3)
        self.assertEqual(last["pagination"], {"page": 3, "limit": 3, "total": 7})
        self.assertEqual([p["id"] for p in last["data"]], listed[6:])

class Webhooks(unittest.TestCase):
    receiver: LoopbackServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.receiver = LoopbackServer(lambda method, path: (204, {}, b""))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.receiver.close()

    def test_subscription_crud(self) -> None:
        orgit = client()
        url = f"{self.receiver.url}/crud"
        created = orgit.webhooks.create(url=url, events=["project.deleted"])
        self.assertTrue(created["secret"].startswith("whsec_"))
        self.assertEqual((created["url"], created["events"], created["active"]),
                         (url, ["project.deleted"], True))
        hook = orgit.webhooks.get(created["id"])
        self.assertNotIn("secret", hook)
        self.assertIsNone(hook["disabledReason"])
        self.assertIn(created["id"], [h["id"] for h in orgit.webhooks.list(limit=100)["data"]])
        events: List[WebhookEventType] = ["project.created", "project.updated"]
        updated = orgit.webhooks.update(created["id"], events=events, active=False)
        self.assertEqual((updated["events"], updated["active"]), (events, False))
        listed = [h for h in orgit.webhooks.list_all(limit=1) if h["id"] == created["id"]]
        self.assertEqual([h["active"] for h in listed], [False])
        self.assertEqual(orgit.webhooks.delete(created["id"]),
                         {"success": True, "message": "Webhook deleted"})
        with self.assertRaises(NotFoundError):
            orgit.webhooks.get(created["id"])

    def test_a_real_delivery_is_verified_and_can_be_sent_again(self) -> None:
        orgit = client()
        path = f"/hook-{uuid.uuid4().hex[:8]}"
        hook = orgit.webhooks.create(url=self.receiver.url + path, events=["project.created"])
        self.addCleanup(orgit.webhooks.delete, hook["id"])
        project = orgit.projects.create(name=unique("Delivered"),
                                        description="sent to the receiver")

        def received() -> List[Recorded]:  # the sends of this project's event
            return [r for r in self.receiver.recorded()
                    if r[1] == path and project["id"].encode() in r[3]]

        _, _, headers, body = poll(received, 15, "the project.created delivery")[0]
        event = verify_webhook(body, headers, hook["secret"])
        self.assertEqual(event["type"], "project.created")
        self.assertEqual(event["data"]["project"]["id"], project["id"])
        self.assertEqual(event["data"]["project"]["description"], "sent to the receiver")
        self.assertEqual(set(event), set(get_type_hints(WebhookEvent)))
        self.assertEqual(set(event["data"]["project"]), set(get_type_hints(models.Project)))
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(body.replace(b"receiver", b"attacker"), headers, hook["secret"])
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            later = int(headers["webhook-timestamp"]) + 301
            verify_webhook(body, headers, hook["secret"], now=later)

        def delivered() -> List[models.WebhookDelivery]:
            deliveries = orgit.webhooks.list_deliveries(hook["id"])["data"]
            return [d for d in deliveries
                    if d["webhookId"] == headers["webhook-id"] and d["status"] == "delivered"]

        delivery = poll(delivered, 15, "the delivery's status: delivered")[0]
        self.assertEqual(delivery["eventType"], "project.created")
        self.assertEqual((delivery["attempts"], delivery["lastStatusCode"]), (1, 204))
        again = orgit.webhooks.retry_delivery(hook["id"], delivery["id"])
        assert orgit.last_response is not None
        self.assertEqual(orgit.last_response.status, 202)
        self.assertEqual(again["id"], delivery["id"])
        self.assertIn(again["status"], ("pending", "sending"))

        # sent again with the same webhook-id, so a receiver can deduplicate
        resent = poll(lambda: received()[1:], 15, "the delivery sent again")
        self.assertEqual(resent[0][2]["webhook-id"], headers["webhook-id"])
        self.assertEqual(verify_webhook(resent[0][3], resent[0][2], hook["secret"]), event)
        every = orgit.webhooks.list_all_deliveries(hook["id"])
        self.assertIn(delivery["id"], [d["id"] for d in every])

        # a rotation: during the grace a delivery verifies with the new and the previous secret
        rotated = orgit.webhooks.rotate_secret(hook["id"], grace_period_hours=1)
        self.assertEqual(rotated["id"], hook["id"])
        self.assertNotEqual(rotated["secret"], hook["secret"])
        self.assertIsNotNone(rotated["previousSecretExpiresAt"])
        later = orgit.projects.create(name=unique("Rotated"), description="after the rotation")
        sends = poll(lambda: [r for r in self.receiver.recorded()
                              if r[1] == path and later["id"].encode() in r[3]],
                     15, "the delivery after the rotation")
        _, _, rotated_headers, rotated_body = sends[0]
        self.assertEqual(len(rotated_headers["webhook-signature"].split()), 2)
        for secret in (rotated["secret"], hook["secret"]):
            verified = verify_webhook(rotated_body, rotated_headers, secret)
            self.assertEqual(verified["data"]["project"]["id"], later["id"])
