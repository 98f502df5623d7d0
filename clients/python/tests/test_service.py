"""The client against a REAL orgit service process on loopback (one per module): every
resource of interfaces A and B, pagination, idempotency, errors and response meta."""

import json
import time
import unittest
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, List, Literal, Optional, Set, Union, get_args, get_origin, get_type_hints

from orgit import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    Orgit,
    OrgitError,
    PermissionDeniedError,
    RateLimitError,
    ResponseMeta,
    WebhookEvent,
    WebhookVerificationError,
    models,
    verify_webhook,
)

from .service import (
    ADD_INGEST,
    CREATE_RELEASE,
    ROOMY_LIMITS,
    Account,
    LoopbackServer,
    Recorded,
    Service,
    poll,
    start_service,
)

SERVICE: Service
MAIN: Account
RELEASE = {"version": "9.4.2", "platform": "linux", "architecture": "x86_64", "channel": "stable",
           "downloadUrl": "https://downloads.example.com/agent-9.4.2.tar.gz", "sha256": "ab" * 32}


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE = start_service("orgit service (python client tests)", ROOMY_LIMITS)
    unittest.addModuleCleanup(SERVICE.stop)
    MAIN = SERVICE.provision()
    # alerts from 127.0.0.1 belong to MAIN; a stable linux release for install links
    SERVICE.operator(ADD_INGEST, {"input": {"organizationId": MAIN.org_id, "cidr": "127.0.0.1/32"}})
    SERVICE.operator(CREATE_RELEASE, {"input": RELEASE})


def client(account: Optional[Account] = None, seen: Optional[List[ResponseMeta]] = None,
           **options: Any) -> Orgit:
    key = (account or MAIN).key
    callback = seen.append if seen is not None else None
    return Orgit(api_key=key, base_url=SERVICE.base_url, on_response=callback, **options)


def keyless() -> Orgit:
    return Orgit(api_key="", base_url=SERVICE.base_url)


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


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

    def test_interface_b_answers_carry_the_organization_limit(self) -> None:
        orgit = client()
        orgit.projects.list()
        meta = orgit.last_response
        assert meta is not None and meta.rate_limit is not None
        self.assertEqual(meta.rate_limit.limit, 1000)  # PRO: 1,000 a minute
        self.assertIn('"org"', meta.rate_limit.policy or "")
        self.assertIsNone(meta.quota)


class Pagination(unittest.TestCase):
    def test_interface_a_every_ticket_once_in_order_across_pages(self) -> None:
        account = SERVICE.provision()
        seen: List[ResponseMeta] = []
        orgit = client(account, seen)
        created = {orgit.tickets.create(title=f"Ticket number {n}", description="Paginated ticket body.",
                                        priority="high" if n % 2 else "low")["id"] for n in range(7)}
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
        high = [t["id"] for t in orgit.tickets.list_all(priority="high", limit=2)]
        self.assertEqual(high, [t for t in listed if t in {x["id"] for x in orgit.tickets.list(priority="high")["data"]}])
        self.assertEqual(len(high), 3)
        seen.clear()
        self.assertEqual([t["id"] for t in orgit.tickets.list_all()], listed)
        self.assertEqual(len(seen), 1)  # default page size: the maximum, 200

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


class Tickets(unittest.TestCase):
    def test_create_answers_the_snake_case_ticket(self) -> None:
        ticket = client().tickets.create(title="Printer jams", description="The printer on floor 2 jams.",
                                         priority="high")
        self.assertEqual(set(ticket), {"id", "title", "status", "priority", "equipment_id", "created_by",
                                       "created_at"})
        self.assertEqual((ticket["title"], ticket["status"], ticket["priority"]), ("Printer jams", "open", "high"))
        self.assertEqual(ticket["created_by"], MAIN.user_id)
        self.assertIsNone(ticket["equipment_id"])
        self.assertIn(ticket["id"], [t["id"] for t in client().tickets.list(status="open", limit=200)["data"]])

    def test_a_ticket_for_equipment(self) -> None:
        orgit = client()
        equipment = orgit.equipment.bulk_create([{"name": unique("laptop"), "type": "laptop"}])["items"][0]
        ticket = orgit.tickets.create(title="Battery swollen", description="The battery bulges out.",
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
        self.assertEqual((result["errors"][0]["index"], result["errors"][0]["name"]), (1, "toaster"))
        self.assertIn("type", result["errors"][0]["error"])
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
        self.assertEqual(users[0]["profile"], {"firstName": "Ada", "lastName": "Py", "email": MAIN.email})
        releases = orgit.agent_releases.list(platform="linux", channel="stable")["data"]
        self.assertIn(RELEASE["version"], [r["version"] for r in releases])
        self.assertNotIn(RELEASE["version"], [r["version"] for r in orgit.agent_releases.list_all(platform="windows")])

    def test_alerts_ingest_then_list(self) -> None:
        first, second = unique("disk"), unique("cpu")
        batch = [{"source": "prometheus", "externalId": first, "title": "Disk above 95%", "severity": "critical"},
                 {"source": "prometheus", "externalId": second, "title": "CPU above 90%"}]
        received = keyless().alerts.ingest(batch)
        self.assertEqual((received["received"], received["created"], received["duplicates"]), (2, 2, 0))
        again = keyless().alerts.ingest({"source": "prometheus", "externalId": first, "title": "Disk above 95%"})
        self.assertEqual((again["created"], again["duplicates"], again["ids"]), (0, 1, received["ids"][:1]))
        critical = client().alerts.list(severity="critical", status="open")["data"]
        alert = next(a for a in critical if a["id"] == received["ids"][0])
        self.assertEqual((alert["externalId"], alert["title"], alert["source"]), (first, "Disk above 95%", "prometheus"))
        every = {a["id"] for a in client().alerts.list_all(limit=1)}
        self.assertTrue(set(received["ids"]) <= every)


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
        self.assertEqual(orgit.projects.delete(created["id"]), {"success": True, "message": "Project deleted"})
        with self.assertRaises(NotFoundError) as raised:
            orgit.projects.get(created["id"])
        self.assertEqual(raised.exception.error, "Project not found")


class Errors(unittest.TestCase):
    def test_400_carries_the_details(self) -> None:
        with self.assertRaises(BadRequestError) as raised:
            client().tickets.create(title="abc", description="short")
        error = raised.exception
        self.assertEqual((error.status, error.error), (400, "Validation failed"))
        paths = [detail["path"] for detail in error.details or []]
        self.assertIn(["title"], paths)
        self.assertIn(["description"], paths)
        assert error.meta is not None
        self.assertEqual(error.request_id, error.meta.headers["x-request-id"])
        self.assertTrue(str(error).startswith("400 Validation failed: title: "), str(error))
        self.assertTrue(str(error).endswith(f"(request id {error.request_id})"))
        with self.assertRaises(BadRequestError) as limit:
            client().projects.list(limit=500)
        self.assertEqual([d["path"] for d in limit.exception.details or []], [["limit"]])

    def test_401_for_a_wrong_or_missing_key(self) -> None:
        invented = Orgit(api_key="orgit_" + "a" * 40, base_url=SERVICE.base_url)
        with self.assertRaises(AuthenticationError) as raised:
            invented.whoami()
        self.assertEqual((raised.exception.status, raised.exception.error), (401, "Invalid API key"))
        with self.assertRaises(AuthenticationError) as missing:
            keyless().projects.list()
        self.assertEqual(missing.exception.error, "Missing API key")

    def test_403_for_a_missing_scope_or_plan(self) -> None:
        reader = SERVICE.provision(scopes=["tickets:read"])
        with self.assertRaises(PermissionDeniedError) as raised:
            client(reader).tickets.create(title="Not allowed", description="This key may only read.")
        self.assertEqual((raised.exception.status, raised.exception.error), (403, "Missing scope: tickets:write"))
        free = client(SERVICE.provision(plan="FREE"))
        with self.assertRaises(PermissionDeniedError) as plan:
            free.whoami()
        self.assertEqual(plan.exception.error, "API access requires the Pro plan")
        self.assertEqual(free.projects.list()["pagination"]["total"], 0)  # interface B: any plan

    def test_404_for_an_unknown_project_or_webhook(self) -> None:
        with self.assertRaises(NotFoundError) as project:
            client().projects.get(str(uuid.uuid4()))
        self.assertEqual((project.exception.status, project.exception.error), (404, "Project not found"))
        with self.assertRaises(NotFoundError) as webhook:
            client().webhooks.delete("not-a-uuid")
        self.assertEqual(webhook.exception.error, "Webhook not found")

    def test_409_when_an_idempotency_key_is_reused_with_another_body(self) -> None:
        key = str(uuid.uuid4())
        client().projects.create(name="First body", idempotency_key=key)
        with self.assertRaises(ConflictError) as raised:
            client().projects.create(name="Second body", idempotency_key=key)
        self.assertEqual(raised.exception.status, 409)
        self.assertIsInstance(raised.exception, OrgitError)

    def test_429_daily_quota_is_raised_at_once(self) -> None:
        seen: List[ResponseMeta] = []
        limited = client(SERVICE.provision(daily_quota=2), seen)
        limited.whoami()
        limited.whoami()
        started = time.monotonic()
        with self.assertRaises(RateLimitError) as raised:
            limited.whoami()  # Retry-After 3600 > max_retry_wait: not waited for
        error = raised.exception
        self.assertLess(time.monotonic() - started, 2)
        self.assertEqual([m.status for m in seen], [200, 200, 429])
        self.assertTrue(error.is_quota)
        self.assertEqual((error.error, error.limit, error.used, error.window), ("API quota exceeded", 2, 2, "24h"))
        self.assertEqual(error.retry_after, 3600)
        assert error.meta is not None and error.meta.quota is not None
        self.assertEqual((error.meta.quota.limit, error.meta.quota.remaining), (2, 0))


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
        self.assertEqual((created["url"], created["events"], created["active"]), (url, ["project.deleted"], True))
        hook = orgit.webhooks.get(created["id"])
        self.assertNotIn("secret", hook)
        self.assertIsNone(hook["disabledReason"])
        self.assertIn(created["id"], [h["id"] for h in orgit.webhooks.list(limit=100)["data"]])
        updated = orgit.webhooks.update(created["id"], events=["project.created", "project.updated"], active=False)
        self.assertEqual((updated["events"], updated["active"]), (["project.created", "project.updated"], False))
        self.assertEqual([h["active"] for h in orgit.webhooks.list_all(limit=1) if h["id"] == created["id"]], [False])
        self.assertEqual(orgit.webhooks.delete(created["id"]), {"success": True, "message": "Webhook deleted"})
        with self.assertRaises(NotFoundError):
            orgit.webhooks.get(created["id"])

    def test_a_real_delivery_is_verified_and_can_be_sent_again(self) -> None:
        orgit = client()
        path = f"/hook-{uuid.uuid4().hex[:8]}"
        hook = orgit.webhooks.create(url=self.receiver.url + path, events=["project.created"])
        self.addCleanup(orgit.webhooks.delete, hook["id"])
        project = orgit.projects.create(name=unique("Delivered"), description="sent to the receiver")

        def received() -> List[Recorded]:
            return [r for r in self.receiver.recorded() if r[1] == path]

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
            verify_webhook(body, headers, hook["secret"], now=int(headers["webhook-timestamp"]) + 301)

        def delivered() -> List[models.WebhookDelivery]:
            return [d for d in orgit.webhooks.list_deliveries(hook["id"])["data"] if d["status"] == "delivered"]

        delivery = poll(delivered, 15, "the delivery's status: delivered")[0]
        self.assertEqual((delivery["webhookId"], delivery["eventType"]), (headers["webhook-id"], "project.created"))
        self.assertEqual((delivery["attempts"], delivery["lastStatusCode"]), (1, 204))
        again = orgit.webhooks.retry_delivery(hook["id"], delivery["id"])
        assert orgit.last_response is not None
        self.assertEqual(orgit.last_response.status, 202)
        self.assertEqual(again["id"], delivery["id"])
        self.assertIn(again["status"], ("pending", "sending"))
        resent = poll(lambda: received()[1:], 15, "the delivery sent again")
        self.assertEqual(resent[0][2]["webhook-id"], headers["webhook-id"])
        self.assertEqual(verify_webhook(resent[0][3], resent[0][2], hook["secret"]), event)
        self.assertEqual([d["id"] for d in orgit.webhooks.list_all_deliveries(hook["id"])], [delivery["id"]])


def object_schema(schema: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The object schema inside an array, a nullable anyOf, or the schema itself."""
    if "properties" in schema:
        return schema
    if schema.get("type") == "array":
        return object_schema(schema["items"])
    for option in schema.get("anyOf", []):
        found = object_schema(option)
        if found:
            return found
    return None


def enum_values(schema: Dict[str, Any]) -> Set[str]:
    values = set(schema.get("enum", []))
    for option in schema.get("anyOf", []):
        values |= {option["const"]} if "const" in option else enum_values(option)
    return values


def unwrap(hint: Any) -> Any:
    """List[X] and Optional[X] to X."""
    while get_origin(hint) in (list, Union):
        hint = next(arg for arg in get_args(hint) if arg is not type(None))
    return hint


RESPONSES = [
    ("get", "/api/v1/whoami", "200", models.Whoami),
    ("get", "/api/v1/health", "200", models.Health),
    ("get", "/api/v1/equipments", "200", models.EquipmentList),
    ("post", "/api/v1/equipments/bulk-create", "201", models.BulkCreateResult),
    ("get", "/install/{token}", "200", models.InstallLink),
    ("get", "/api/v1/equipment-units", "200", models.EquipmentUnitList),
    ("get", "/api/v1/groups", "200", models.GroupList),
    ("get", "/api/v1/users", "200", models.UserList),
    ("get", "/api/v1/agent-releases", "200", models.AgentReleaseList),
    ("get", "/api/v1/alerts", "200", models.AlertList),
    ("post", "/api/v1/alerts/ingest", "202", models.IngestResult),
    ("get", "/api/v1/tickets", "200", models.TicketList),
    ("post", "/api/v1/tickets", "201", models.Ticket),
    ("get", "/api/projects", "200", models.ProjectList),
    ("post", "/api/projects", "201", models.CreatedProject),
    ("get", "/api/projects/{id}", "200", models.Project),
    ("patch", "/api/projects/{id}", "200", models.Project),
    ("delete", "/api/projects/{id}", "200", models.Deleted),
    ("get", "/api/webhooks", "200", models.WebhookList),
    ("post", "/api/webhooks", "201", models.CreatedWebhook),
    ("get", "/api/webhooks/{id}", "200", models.Webhook),
    ("patch", "/api/webhooks/{id}", "200", models.Webhook),
    ("delete", "/api/webhooks/{id}", "200", models.Deleted),
    ("get", "/api/webhooks/{id}/deliveries", "200", models.WebhookDeliveryList),
    ("post", "/api/webhooks/{id}/deliveries/{deliveryId}/retry", "202", models.WebhookDelivery),
]
REQUESTS = [
    ("post", "/api/v1/equipments/bulk-create", [models.BulkCreateRequest]),
    ("post", "/api/v1/alerts/ingest", [models.IngestAlert, models.IngestBatch]),
    ("post", "/api/v1/tickets", [models.CreateTicketRequest]),
    ("post", "/api/projects", [models.CreateProjectRequest]),
    ("patch", "/api/projects/{id}", [models.UpdateProjectRequest]),
    ("post", "/api/webhooks", [models.CreateWebhookRequest]),
    ("patch", "/api/webhooks/{id}", [models.UpdateWebhookRequest]),
]


class ModelDrift(unittest.TestCase):
    """The TypedDicts against the running service's OpenAPI document: a renamed, added or
    removed field (at any depth), a changed required set or enum fails here."""

    @classmethod
    def setUpClass(cls) -> None:
        with urllib.request.urlopen(f"{SERVICE.base_url}/swagger/json", timeout=30) as answer:
            cls.paths = json.load(answer)["paths"]

    def json_schema(self, content: Dict[str, Any]) -> Dict[str, Any]:
        return content["content"]["application/json"]["schema"]

    def assert_matches(self, typed: Any, schema: Dict[str, Any], where: str) -> None:
        properties = schema["properties"]
        hints = get_type_hints(typed)
        self.assertEqual(set(hints), set(properties), f"{where}: {typed.__name__} keys")
        self.assertEqual(set(typed.__required_keys__), set(schema.get("required", [])),
                         f"{where}: {typed.__name__} required keys")
        for key, hint in hints.items():
            inner = unwrap(hint)
            if get_origin(inner) is Literal and enum_values(properties[key]):
                self.assertEqual(set(get_args(inner)), enum_values(properties[key]), f"{where}.{key} values")
            if isinstance(inner, type) and hasattr(inner, "__required_keys__"):
                nested = object_schema(properties[key])
                self.assertIsNotNone(nested, f"{where}.{key} is not an object in the document")
                self.assert_matches(inner, nested or {}, f"{where}.{key}")

    def test_every_route_of_the_document_has_a_model(self) -> None:
        documented = {(method, path) for path, item in self.paths.items() for method in item}
        self.assertEqual(documented, {(method, path) for method, path, _, _ in RESPONSES})

    def test_response_models_match_the_document(self) -> None:
        for method, path, status, typed in RESPONSES:
            with self.subTest(route=f"{method.upper()} {path}"):
                schema = self.json_schema(self.paths[path][method]["responses"][status])
                self.assert_matches(typed, schema, f"{method.upper()} {path} {status}")

    def test_request_models_match_the_document(self) -> None:
        for method, path, typed_options in REQUESTS:
            with self.subTest(route=f"{method.upper()} {path}"):
                schema = self.json_schema(self.paths[path][method]["requestBody"])
                options = schema.get("anyOf", [schema])
                self.assertEqual(len(options), len(typed_options))
                for typed, option in zip(typed_options, options):
                    self.assert_matches(typed, option, f"{method.upper()} {path} body")

    def test_a_renamed_field_would_be_caught(self) -> None:
        schema = self.json_schema(self.paths["/api/v1/tickets"]["post"]["responses"]["201"])
        renamed = {**schema, "properties": {**schema["properties"], "equipmentId": {"type": "string"}}}
        del renamed["properties"]["equipment_id"]
        with self.assertRaises(AssertionError):
            self.assert_matches(models.Ticket, renamed, "renamed")
