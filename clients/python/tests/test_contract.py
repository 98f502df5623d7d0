"""The service's contract against a REAL orgit service process on loopback: every error
class with what it carries, and the models' field names against its OpenAPI document."""

import json
import time
import unittest
import urllib.request
import uuid
from typing import Any, Dict, List, Literal, get_args, get_origin, get_type_hints

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
    models,
)

from .drift import REQUESTS, RESPONSES, enum_values, inline_refs, object_schema, unwrap
from .service import Account, ModuleService, Service

SERVICE: Service
MAIN: Account


SHARED = ModuleService("orgit service (python client, contract)")
client = SHARED.client
keyless = SHARED.keyless


def setUpModule() -> None:
    global SERVICE, MAIN
    SERVICE, MAIN = SHARED.start()


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
        self.assertEqual((raised.exception.status, raised.exception.error),
                         (401, "Invalid API key"))
        with self.assertRaises(AuthenticationError) as missing:
            keyless().projects.list()
        self.assertEqual(missing.exception.error, "Missing API key")

    def test_403_for_a_missing_scope_or_plan(self) -> None:
        reader = SERVICE.provision(scopes=["tickets:read"])
        with self.assertRaises(PermissionDeniedError) as raised:
            client(reader).tickets.create(title="Not allowed", description="This key only reads.")
        self.assertEqual((raised.exception.status, raised.exception.error),
                         (403, "Missing scope: tickets:write"))
        free = client(SERVICE.provision(plan="FREE"))
        with self.assertRaises(PermissionDeniedError) as plan:
            free.whoami()
        self.assertEqual(plan.exception.error, "API access requires the Pro plan")
        self.assertEqual(free.projects.list()["pagination"]["total"], 0)  # interface B: any plan

    def test_404_for_an_unknown_project_or_webhook(self) -> None:
        with self.assertRaises(NotFoundError) as project:
            client().projects.get(str(uuid.uuid4()))
        self.assertEqual((project.exception.status, project.exception.error),
                         (404, "Project not found"))
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
        self.assertEqual((error.error, error.limit, error.used, error.window),
                         ("API quota exceeded", 2, 2, "24h"))
        self.assertEqual(error.retry_after, 3600)
        assert error.meta is not None and error.meta.quota is not None
        self.assertEqual((error.meta.quota.limit, error.meta.quota.remaining), (2, 0))

class ModelDrift(unittest.TestCase):
    """The TypedDicts against the running service's OpenAPI document: a renamed, added or
    removed field (at any depth), a changed required set or enum fails here."""

    @classmethod
    def setUpClass(cls) -> None:
        with urllib.request.urlopen(f"{SERVICE.base_url}/swagger/json", timeout=30) as answer:
            document = json.load(answer)
        cls.paths = inline_refs(document["paths"], document)

    def json_schema(self, content: Dict[str, Any]) -> Dict[str, Any]:
        media = content["content"]
        # the audit export answers NDJSON: its schema is that of one line
        return (media.get("application/json") or media["application/x-ndjson"])["schema"]

    def assert_matches(self, typed: Any, schema: Dict[str, Any], where: str) -> None:
        properties = schema["properties"]
        hints = get_type_hints(typed)
        self.assertEqual(set(hints), set(properties), f"{where}: {typed.__name__} keys")
        self.assertEqual(set(typed.__required_keys__), set(schema.get("required", [])),
                         f"{where}: {typed.__name__} required keys")
        for key, hint in hints.items():
            inner = unwrap(hint)
            if get_origin(inner) is Literal and enum_values(properties[key]):
                self.assertEqual(set(get_args(inner)), enum_values(properties[key]),
                                 f"{where}.{key} values")
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
        properties = {**schema["properties"], "equipmentId": {"type": "string"}}
        del properties["equipment_id"]
        renamed = {**schema, "properties": properties}
        with self.assertRaises(AssertionError):
            self.assert_matches(models.Ticket, renamed, "renamed")
