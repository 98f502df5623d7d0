"""Test harness: the real orgit service as a child process on loopback, provisioned through
the operator GraphQL API, plus small loopback HTTP servers (a webhook receiver, a stub)."""

import http.server
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from orgit import Orgit, ResponseMeta

REPO_ROOT = Path(__file__).resolve().parents[3]  # clients/python/tests/service.py
ALL_SCOPES = [
    "equipment:read", "equipment:write", "tickets:read", "tickets:write", "users:read",
    "alerts:read", "alerts:write", "projects:read", "projects:write", "webhooks:read",
    "webhooks:write", "audit:read",
]
# Roomy interface A limits, so a suite's many calls from 127.0.0.1 are never refused (the
# defaults allow 60 requests a minute per IP); the 429 tests start a service with low ones.
ROOMY_LIMITS = {
    "RATE_LIMIT_IP_PER_MIN": "100000",
    "RATE_LIMIT_KEY_PER_MIN": "100000",
    "RATE_LIMIT_BURST_PER_SEC": "10000",
}

CREATE_ORG = """mutation($input: CreateOrganizationInput!) {
  createOrganization(input: $input) { id name plan dailyQuota } }"""
CREATE_USER = """mutation($input: CreateUserInput!) {
  createUser(input: $input) { id email firstName lastName } }"""
ADD_MEMBER = """mutation($input: AddMemberInput!) {
  addMember(input: $input) { organizationId userId role } }"""
CREATE_KEY = """mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { secret apiKey { id name scopes } } }"""
ADD_INGEST = """mutation($input: AddIngestSourceInput!) {
  addIngestSource(input: $input) { id cidr } }"""
CREATE_RELEASE = """mutation($input: CreateAgentReleaseInput!) {
  createAgentRelease(input: $input) { id version platform channel } }"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bun_command() -> List[str]:
    found = shutil.which("bun") or str(REPO_ROOT / "node_modules" / ".bin" / "bun")
    return [found, "run", "src/index.ts"]


@dataclass
class Account:
    """An organization, one admin member of it, and that member's API key."""

    org_id: str
    user_id: str
    key: str
    email: str


class Service:
    """``bun run src/index.ts`` on a free loopback port, in-memory PGlite, stopped by SIGTERM."""

    def __init__(self, label: str, env: Optional[Dict[str, str]] = None) -> None:
        self.label = label
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.admin_token = secrets.token_hex(24)
        # a file, not a pipe: a pipe nobody reads fills up and blocks the child
        self._log = tempfile.TemporaryFile()
        child_env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", "/tmp"),
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "ADMIN_TOKEN": self.admin_token,
            "ALLOW_PRIVATE_WEBHOOK_URLS": "true",  # webhooks may target the loopback receiver
            "LOG_LEVEL": "warn",
            **(env or {}),
        }
        self._child = subprocess.Popen(
            bun_command(), cwd=REPO_ROOT, env=child_env, stdin=subprocess.DEVNULL,
            stdout=self._log, stderr=subprocess.STDOUT,
        )

    def output(self) -> str:
        self._log.seek(0)
        return f"\n--- {self.label} output ---\n" + self._log.read().decode("utf-8", "replace")

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until ``GET /api/v1/health`` without a key answers 401; stops the child on failure."""
        deadline = time.monotonic() + timeout
        while True:
            if self._child.poll() is not None:
                failure = f"{self.label} exited with {self._child.returncode}{self.output()}"
                self.stop()
                raise RuntimeError(failure)
            try:
                urllib.request.urlopen(f"{self.base_url}/api/v1/health", timeout=2).close()
            except urllib.error.HTTPError as answer:
                if answer.code == 401:
                    return
            except OSError:
                pass  # not listening yet
            if time.monotonic() > deadline:
                failure = f"{self.label} did not answer within {timeout} s{self.output()}"
                self.stop()
                raise RuntimeError(failure)
            time.sleep(0.2)

    def stop(self) -> None:
        """SIGTERM (graceful shutdown), then SIGKILL if it still runs after 10 s."""
        if self._child.poll() is None:
            self._child.send_signal(signal.SIGTERM)
            try:
                self._child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._child.kill()
                self._child.wait()
        self._log.close()

    def operator(self, query: str, variables: Dict[str, Any]) -> Any:
        """One operator mutation (ADMIN_TOKEN); answers its single root field."""
        request = urllib.request.Request(
            f"{self.base_url}/graphql",
            data=json.dumps({"query": query, "variables": variables}).encode(),
            headers={"Authorization": f"Bearer {self.admin_token}",
                     "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = json.load(response)
        if body.get("errors") or not body.get("data"):
            raise RuntimeError(f"operator API: {body}{self.output()}")
        return next(iter(body["data"].values()))

    def client(
        self, account: Account, seen: Optional[List[ResponseMeta]] = None, **options: Any
    ) -> Orgit:
        """A client with the account's key; ``seen`` collects the meta of every response."""
        callback = seen.append if seen is not None else None
        return Orgit(api_key=account.key, base_url=self.base_url, on_response=callback, **options)

    def keyless(self) -> Orgit:
        """A client without an API key (ingest, install links)."""
        return Orgit(api_key="", base_url=self.base_url)

    def provision(
        self,
        *,
        plan: str = "PRO",
        scopes: Sequence[str] = ALL_SCOPES,
        daily_quota: Optional[int] = None,
        role: str = "admin",
    ) -> Account:
        suffix = uuid.uuid4().hex[:10]
        organization: Dict[str, Any] = {"name": f"Python client {suffix}", "plan": plan}
        if daily_quota is not None:
            organization["dailyQuota"] = daily_quota
        org = self.operator(CREATE_ORG, {"input": organization})
        email = f"py-{suffix}@example.com"
        person = {"email": email, "firstName": "Ada", "lastName": "Py"}
        user = self.operator(CREATE_USER, {"input": person})
        member = {"organizationId": org["id"], "userId": user["id"], "role": role}
        self.operator(ADD_MEMBER, {"input": member})
        key_input = {"organizationId": org["id"], "userId": user["id"], "name": "python tests",
                     "scopes": list(scopes), "expiresIn": "NEVER"}
        key = self.operator(CREATE_KEY, {"input": key_input})
        return Account(org_id=org["id"], user_id=user["id"], key=key["secret"], email=email)


def start_service(label: str, env: Optional[Dict[str, str]] = None) -> Service:
    service = Service(label, env)
    service.wait_ready()
    return service


def unique(prefix: str) -> str:
    """A name no other test of the run uses."""
    return f"{prefix} {uuid.uuid4().hex[:8]}"


class ModuleService:
    """The service one test module shares: its ``setUpModule`` calls ``start()``, and it stops at
    module cleanup. ``client()`` uses the module's main account unless given another."""

    service: Service
    main: Account

    def __init__(self, label: str, env: Optional[Dict[str, str]] = None) -> None:
        self.label = label
        self.env = ROOMY_LIMITS if env is None else env

    def start(self) -> Tuple[Service, Account]:
        self.service = start_service(self.label, self.env)
        unittest.addModuleCleanup(self.service.stop)
        self.main = self.service.provision()
        return self.service, self.main

    def client(self, account: Optional[Account] = None,
               seen: Optional[List[ResponseMeta]] = None, **options: Any) -> Orgit:
        return self.service.client(account or self.main, seen, **options)

    def keyless(self) -> Orgit:
        return self.service.keyless()


Recorded = Tuple[str, str, Dict[str, str], bytes]
"""(method, path, headers with lower-case names, raw body) of one received request"""


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1 that records each request and answers it with
    ``respond(method, path) -> (status, headers, body)``."""

    def __init__(self, respond: Callable[[str, str], Tuple[int, Dict[str, str], bytes]]) -> None:
        self.requests: List[Recorded] = []
        self._lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {name.lower(): value for name, value in self.headers.items()}
                with owner._lock:
                    owner.requests.append((self.command, self.path, headers, body))
                status, answer_headers, answer = respond(self.command, self.path)
                try:
                    self.send_response(status)
                    for name, value in answer_headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (the timeout test)

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def recorded(self) -> List[Recorded]:
        with self._lock:
            return list(self.requests)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def poll(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Calls ``check`` until it answers something truthy; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)
