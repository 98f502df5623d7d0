"""Retries on 5xx, network failures, timeouts and request headers, against a local stub
server: the real service cannot produce a 503 or a dropped connection on demand. Everything
else is tested against the real service (test_service.py, test_rate_limits.py)."""

import json
import os
import threading
import time
import unittest
import uuid
from typing import Any, Dict, Iterator, List, Tuple
from unittest import mock

from orgit import (
    BadRequestError,
    Orgit,
    OrgitConnectionError,
    OrgitError,
    OrgitTimeoutError,
    RateLimitError,
    ResponseMeta,
    ServerError,
    __version__,
)
from orgit.meta import parse_retry_after

from .service import LoopbackServer, free_port

Answer = Tuple[int, Dict[str, str], bytes]
JSON = {"Content-Type": "application/json"}
OK: Answer = (200, {**JSON, "X-Request-Id": "req-ok"}, b'{"status": "ok"}')
UNAVAILABLE: Answer = (503, {**JSON, "X-Request-Id": "req-503"},
                       b'{"error": "Service unavailable"}')
TICKET = {"id": "t1", "title": "Printer jams", "status": "open", "priority": "medium",
          "equipment_id": None, "created_by": "u1", "created_at": "2027-01-01T00:00:00.000Z"}


class StubTestCase(unittest.TestCase):
    """A stub that answers the scripted responses in order (the last one repeats)."""

    def start_stub(self, *answers: Answer) -> LoopbackServer:
        script: Iterator[Answer] = iter(answers)
        last: List[Answer] = [answers[-1]]

        def respond(method: str, path: str) -> Answer:
            last[0] = next(script, last[0])
            return last[0]

        stub = LoopbackServer(respond)
        self.addCleanup(stub.close)
        return stub

    def client(self, stub: LoopbackServer, **options: Any) -> Tuple[Orgit, List[ResponseMeta]]:
        seen: List[ResponseMeta] = []
        orgit = Orgit(api_key="orgit_stub", base_url=stub.url, on_response=seen.append, **options)
        return orgit, seen


class RetriesOnServerErrors(StubTestCase):
    def test_a_get_is_retried_with_backoff_until_it_succeeds(self) -> None:
        stub = self.start_stub(UNAVAILABLE, UNAVAILABLE, OK)
        client, seen = self.client(stub)
        started = time.monotonic()
        self.assertEqual(client.health(), {"status": "ok"})
        self.assertEqual([meta.status for meta in seen], [503, 503, 200])
        self.assertGreaterEqual(time.monotonic() - started, 0.75 * (0.5 + 1.0))  # 0.5 s, 1 s ±25 %
        assert client.last_response is not None
        self.assertEqual(client.last_response.request_id, "req-ok")

    def test_after_max_retries_the_server_error_is_raised(self) -> None:
        stub = self.start_stub(UNAVAILABLE)
        client, seen = self.client(stub, max_retries=1)
        with self.assertRaises(ServerError) as raised:
            client.projects.get("p1")
        error = raised.exception
        self.assertEqual((error.status, error.error, error.request_id),
                         (503, "Service unavailable", "req-503"))
        self.assertEqual(str(error), "503 Service unavailable (request id req-503)")
        self.assertEqual(len(stub.recorded()), 2)
        self.assertIs(error.meta, seen[-1])

    def test_a_post_with_an_idempotency_key_is_retried_with_the_same_key(self) -> None:
        stub = self.start_stub(UNAVAILABLE, (201, JSON, json.dumps(TICKET).encode()))
        client, _ = self.client(stub)
        ticket = client.tickets.create(title="Printer jams", description="On every page, floor 2.")
        self.assertEqual(ticket["id"], "t1")
        keys = [headers["idempotency-key"] for _, _, headers, _ in stub.recorded()]
        self.assertEqual(len(keys), 2)
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(str(uuid.UUID(keys[0])), keys[0])  # a generated random UUID
        sent = [json.loads(body) for _, _, _, body in stub.recorded()]
        self.assertEqual(sent[0], sent[1])
        self.assertEqual(sent[0]["description"], "On every page, floor 2.")

    def test_requests_without_an_idempotency_key_are_not_retried(self) -> None:
        stub = self.start_stub(UNAVAILABLE)
        client, _ = self.client(stub)
        calls = {
            "POST ingest": lambda: client.alerts.ingest({"source": "s", "title": "t"}),
            "POST delivery retry": lambda: client.webhooks.retry_delivery("w1", "d1"),
            "PATCH project": lambda: client.projects.update("p1", name="New"),
            "PATCH webhook": lambda: client.webhooks.update("w1", active=False),
        }
        for name, call in calls.items():
            before = len(stub.recorded())
            with self.subTest(call=name), self.assertRaises(ServerError):
                call()
            self.assertEqual(len(stub.recorded()) - before, 1, name)

    def test_a_client_error_is_not_retried(self) -> None:
        details = [{"path": ["title"], "message": "too short"},
                   {"path": ["items", "0", "name"], "message": "x"}]
        body = {"error": "Validation failed", "details": details}
        stub = self.start_stub((400, {**JSON, "X-Request-Id": "r4"}, json.dumps(body).encode()))
        client, _ = self.client(stub)
        with self.assertRaises(BadRequestError) as raised:
            client.tickets.list()
        self.assertEqual(len(stub.recorded()), 1)
        self.assertEqual(str(raised.exception),
                         "400 Validation failed: title: too short; items.0.name: x (request id r4)")

    def test_other_statuses_and_non_json_bodies(self) -> None:
        stub = self.start_stub((418, JSON, b'{"error": "I am a teapot"}'),
                               (502, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>"),
                               (302, {"Location": "http://example.com/"}, b""))
        client, _ = self.client(stub, max_retries=0)
        with self.assertRaises(OrgitError) as teapot:
            client.whoami()
        self.assertIs(type(teapot.exception), OrgitError)  # no subclass for 418
        self.assertEqual((teapot.exception.status, teapot.exception.error), (418, "I am a teapot"))
        with self.assertRaises(ServerError) as gateway:
            client.whoami()
        self.assertEqual((gateway.exception.error, gateway.exception.body),
                         (None, "<h1>Bad gateway</h1>"))
        with self.assertRaises(OrgitError) as redirect:  # never followed
            client.whoami()
        self.assertEqual(redirect.exception.status, 302)


class NetworkFailures(StubTestCase):
    def test_a_closed_port_is_a_connection_error(self) -> None:
        client = Orgit(api_key="k", base_url=f"http://127.0.0.1:{free_port()}", max_retries=1)
        started = time.monotonic()
        with self.assertRaises(OrgitConnectionError) as raised:
            client.whoami()
        self.assertNotIsInstance(raised.exception, OrgitTimeoutError)
        self.assertIsNone(raised.exception.status)
        self.assertGreaterEqual(time.monotonic() - started, 0.375)  # one retry after 0.5 s ±25 %

    def test_no_answer_within_the_timeout_is_a_timeout_error(self) -> None:
        release = threading.Event()

        def respond(method: str, path: str) -> Answer:
            release.wait(5)  # holds the answer back until the test is over
            return OK

        stub = LoopbackServer(respond)
        self.addCleanup(stub.close)
        self.addCleanup(release.set)  # cleanups run last-in first-out: released, then closed
        client = Orgit(api_key="k", base_url=stub.url, timeout=0.3, max_retries=0)
        started = time.monotonic()
        with self.assertRaises(OrgitTimeoutError) as raised:
            client.whoami()
        self.assertIsInstance(raised.exception, OrgitConnectionError)
        self.assertLess(time.monotonic() - started, 3)


class RequestsAndConfiguration(StubTestCase):
    def test_headers_sent(self) -> None:
        stub = self.start_stub(OK)
        client, _ = self.client(stub)
        client.health()
        client.install.get("tok/en")
        (_, path, headers, _), (_, install_path, install_headers, _) = stub.recorded()
        self.assertEqual(path, "/api/v1/health")
        self.assertEqual(headers["authorization"], "Bearer orgit_stub")
        self.assertEqual(headers["user-agent"], f"orgit-python/{__version__}")
        self.assertEqual(headers["accept"], "application/json")
        self.assertEqual(install_path, "/install/tok%2Fen")
        self.assertNotIn("authorization", install_headers)  # the install token is the credential

    def test_key_and_base_url_from_the_environment(self) -> None:
        stub = self.start_stub(OK)
        environment = {"ORGIT_API_KEY": "orgit_env", "ORGIT_BASE_URL": stub.url + "/"}
        with mock.patch.dict(os.environ, environment):
            client = Orgit()
        self.assertEqual(client.base_url, stub.url)
        client.health()
        self.assertEqual(stub.recorded()[0][2]["authorization"], "Bearer orgit_env")
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(Orgit().base_url, "http://127.0.0.1:3000")

    def test_without_a_key_no_authorization_is_sent(self) -> None:
        stub = self.start_stub(OK)
        with mock.patch.dict(os.environ, {}, clear=True):
            Orgit(base_url=stub.url).health()
        self.assertNotIn("authorization", stub.recorded()[0][2])

    def test_a_long_retry_after_is_not_waited_for(self) -> None:
        quota = {"error": "API quota exceeded", "limit": 5, "used": 5, "window": "24h"}
        stub = self.start_stub((429, {**JSON, "Retry-After": "3600"}, json.dumps(quota).encode()))
        client, _ = self.client(stub, max_retry_wait=60)
        with self.assertRaises(RateLimitError) as raised:
            client.whoami()
        self.assertEqual(len(stub.recorded()), 1)
        self.assertEqual(raised.exception.retry_after, 3600)

    def test_retry_after_as_seconds_or_http_date(self) -> None:
        self.assertEqual(parse_retry_after("2"), 2.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        in_30_s = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
        later = parse_retry_after(in_30_s)
        self.assertTrue(later is not None and 25 <= later <= 31, later)


if __name__ == "__main__":
    unittest.main()
