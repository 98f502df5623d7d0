"""The Orgit client: configuration, and one attribute per resource of interfaces A and B."""

import os
from typing import Callable, Optional, cast

from . import models as m
from ._http import Transport
from .audit_log import AuditLog
from .changes import Changes
from .interface_a import (
    AgentReleases,
    Alerts,
    Equipment,
    EquipmentUnits,
    Groups,
    Install,
    Tickets,
    Users,
)
from .interface_b import Projects, Webhooks
from .meta import ResponseMeta

__all__ = ["Orgit", "DEFAULT_BASE_URL"]

DEFAULT_BASE_URL = "http://127.0.0.1:3000"


class Orgit:
    """Client of the orgit REST API.

    ``api_key`` falls back to ``ORGIT_API_KEY``; ``base_url`` (the service origin) to
    ``ORGIT_BASE_URL``, then ``http://127.0.0.1:3000``. Without a key, requests go out without
    ``Authorization`` (the keyless routes work; the others answer 401). ``timeout`` bounds, in
    seconds, the connection and each read of every attempt; ``max_retries`` extra attempts; a
    429 is retried only when its ``Retry-After`` is at most ``max_retry_wait`` seconds.
    ``on_response`` is called with the ResponseMeta of every response, retried attempts and
    errors included.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        max_retry_wait: float = 60.0,
        on_response: Optional[Callable[[ResponseMeta], None]] = None,
    ) -> None:
        self._http = Transport(
            api_key=api_key if api_key is not None else os.environ.get("ORGIT_API_KEY"),
            base_url=base_url or os.environ.get("ORGIT_BASE_URL") or DEFAULT_BASE_URL,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            on_response=on_response,
        )
        self.equipment = Equipment(self._http)
        self.install = Install(self._http)
        self.equipment_units = EquipmentUnits(self._http)
        self.groups = Groups(self._http)
        self.users = Users(self._http)
        self.agent_releases = AgentReleases(self._http)
        self.alerts = Alerts(self._http)
        self.tickets = Tickets(self._http)
        self.projects = Projects(self._http)
        self.webhooks = Webhooks(self._http)
        self.changes = Changes(self._http)
        """the change feed: ``sync(types, since)`` yields pages with the token to store"""

        self.audit_log = AuditLog(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def last_response(self) -> Optional[ResponseMeta]:
        """The meta of the most recent response (across threads, prefer ``on_response``)."""
        return self._http.last_response

    def whoami(self) -> m.Whoami:
        return cast(m.Whoami, self._http.request("GET", "/api/v1/whoami"))

    def health(self) -> m.Health:
        """``{"status": "ok"}`` while the key is valid and the daily quota not spent."""
        return cast(m.Health, self._http.request("GET", "/api/v1/health"))
