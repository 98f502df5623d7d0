"""The Orgit client and its resources: one method per endpoint of interfaces A and B."""

import os
import urllib.parse
from typing import Any, Callable, Dict, Iterator, Optional, Sequence, Union

from . import models as m
from ._http import ResponseMeta, Transport, new_idempotency_key
from .pagination import iterate_offset, iterate_pages

__all__ = ["Orgit", "DEFAULT_BASE_URL"]

DEFAULT_BASE_URL = "http://127.0.0.1:3000"


def _id(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


def _given(**fields: Any) -> Dict[str, Any]:
    """The body fields the caller passed (None means: not sent)."""
    return {name: value for name, value in fields.items() if value is not None}


class _Resource:
    def __init__(self, http: Transport) -> None:
        self._http = http

    def _get(self, path: str, **query: Any) -> Any:
        return self._http.request("GET", path, query=query)

    def _offset_pages(self, path: str, limit: Optional[int], **filters: Any) -> Iterator[Any]:
        """Interface A: every item, fetching ``limit`` (default 200) at a time by ``offset``."""
        return iterate_offset(lambda n, at: self._get(path, limit=n, offset=at, **filters), limit)

    def _numbered_pages(self, path: str, limit: Optional[int]) -> Iterator[Any]:
        """Interface B: every item, fetching ``limit`` (default 100) at a time by ``page``."""
        return iterate_pages(lambda number, n: self._get(path, page=number, limit=n), limit)

    def _create(self, path: str, body: Any, idempotency_key: Optional[str]) -> Any:
        # a generated key makes the POST safe to retry after a 5xx or a network failure
        key = idempotency_key if idempotency_key is not None else new_idempotency_key()
        return self._http.request("POST", path, body=body, idempotency_key=key)


class Equipment(_Resource):
    _path = "/api/v1/equipments"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None,
             status: Optional[m.EquipmentStatus] = None) -> m.EquipmentList:
        return self._get(self._path, limit=limit, offset=offset, status=status)

    def list_all(self, *, status: Optional[m.EquipmentStatus] = None,
                 limit: Optional[int] = None) -> Iterator[m.Equipment]:
        return self._offset_pages(self._path, limit, status=status)

    def bulk_create(
        self,
        items: Sequence[m.BulkCreateItem],
        *,
        token_kind: Optional[m.TokenKind] = None,
        idempotency_key: Optional[str] = None,
    ) -> m.BulkCreateResult:
        """Up to 100 records; each item's failure is in ``errors``, the rest are created."""
        body = _given(items=list(items), tokenKind=token_kind)
        return self._create(f"{self._path}/bulk-create", body, idempotency_key)


class Install(_Resource):
    def get(self, token: str) -> m.InstallLink:
        """An agent install link (sent without the API key: the token is the credential)."""
        return self._http.request("GET", f"/install/{_id(token)}", authenticated=False)


class EquipmentUnits(_Resource):
    _path = "/api/v1/equipment-units"

    def list(
        self, *, limit: Optional[int] = None, offset: Optional[int] = None
    ) -> m.EquipmentUnitList:
        return self._get(self._path, limit=limit, offset=offset)

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.EquipmentUnit]:
        return self._offset_pages(self._path, limit)


class Groups(_Resource):
    _path = "/api/v1/groups"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None) -> m.GroupList:
        return self._get(self._path, limit=limit, offset=offset)

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.Group]:
        return self._offset_pages(self._path, limit)


class Users(_Resource):
    _path = "/api/v1/users"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None) -> m.UserList:
        return self._get(self._path, limit=limit, offset=offset)

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.User]:
        return self._offset_pages(self._path, limit)


class AgentReleases(_Resource):
    _path = "/api/v1/agent-releases"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        platform: Optional[str] = None,
        channel: Optional[str] = None,
    ) -> m.AgentReleaseList:
        return self._get(self._path, limit=limit, offset=offset, platform=platform, channel=channel)

    def list_all(self, *, platform: Optional[str] = None, channel: Optional[str] = None,
                 limit: Optional[int] = None) -> Iterator[m.AgentRelease]:
        return self._offset_pages(self._path, limit, platform=platform, channel=channel)


class Alerts(_Resource):
    _path = "/api/v1/alerts"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        status: Optional[m.AlertStatus] = None,
        severity: Optional[m.AlertSeverity] = None,
    ) -> m.AlertList:
        return self._get(self._path, limit=limit, offset=offset, status=status, severity=severity)

    def list_all(
        self,
        *,
        status: Optional[m.AlertStatus] = None,
        severity: Optional[m.AlertSeverity] = None,
        limit: Optional[int] = None,
    ) -> Iterator[m.Alert]:
        return self._offset_pages(self._path, limit, status=status, severity=severity)

    def ingest(
        self, alerts: Union[m.IngestAlert, m.IngestBatch, Sequence[m.IngestAlert]]
    ) -> m.IngestResult:
        """One alert, a batch ``{"alerts": [...]}`` or a list of alerts; 202. Sent without the
        API key (the caller's address must be an ingest source); not retried on 5xx."""
        body = {"alerts": list(alerts)} if isinstance(alerts, (list, tuple)) else alerts
        return self._http.request("POST", f"{self._path}/ingest", body=body, authenticated=False)


class Tickets(_Resource):
    _path = "/api/v1/tickets"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        status: Optional[m.TicketStatus] = None,
        priority: Optional[m.TicketPriority] = None,
    ) -> m.TicketList:
        return self._get(self._path, limit=limit, offset=offset, status=status, priority=priority)

    def list_all(
        self,
        *,
        status: Optional[m.TicketStatus] = None,
        priority: Optional[m.TicketPriority] = None,
        limit: Optional[int] = None,
    ) -> Iterator[m.Ticket]:
        return self._offset_pages(self._path, limit, status=status, priority=priority)

    def create(
        self,
        *,
        title: str,
        description: str,
        priority: Optional[m.TicketPriority] = None,
        equipment_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> m.Ticket:
        """A ticket on behalf of the key's owner; the answer's fields are snake_case."""
        body = _given(title=title, description=description, priority=priority,
                      equipmentId=equipment_id)
        return self._create(self._path, body, idempotency_key)


class Projects(_Resource):
    _path = "/api/projects"

    def list(self, *, page: Optional[int] = None, limit: Optional[int] = None) -> m.ProjectList:
        return self._get(self._path, page=page, limit=limit)

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.ProjectSummary]:
        return self._numbered_pages(self._path, limit)

    def create(self, *, name: str, description: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> m.CreatedProject:
        return self._create(self._path, _given(name=name, description=description), idempotency_key)

    def get(self, project_id: str) -> m.Project:
        return self._get(f"{self._path}/{_id(project_id)}")

    def update(self, project_id: str, *, name: Optional[str] = None,
               description: Optional[str] = None) -> m.Project:
        body = _given(name=name, description=description)
        return self._http.request("PATCH", f"{self._path}/{_id(project_id)}", body=body)

    def delete(self, project_id: str) -> m.Deleted:
        return self._http.request("DELETE", f"{self._path}/{_id(project_id)}")


class Webhooks(_Resource):
    _path = "/api/webhooks"

    def list(self, *, page: Optional[int] = None, limit: Optional[int] = None) -> m.WebhookList:
        return self._get(self._path, page=page, limit=limit)

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.Webhook]:
        return self._numbered_pages(self._path, limit)

    def create(self, *, url: str, events: Sequence[m.WebhookEventType],
               idempotency_key: Optional[str] = None) -> m.CreatedWebhook:
        """The answer holds the ``whsec_`` signing secret: the only time it is shown."""
        return self._create(self._path, {"url": url, "events": list(events)}, idempotency_key)

    def get(self, webhook_id: str) -> m.Webhook:
        return self._get(f"{self._path}/{_id(webhook_id)}")

    def update(
        self,
        webhook_id: str,
        *,
        url: Optional[str] = None,
        events: Optional[Sequence[m.WebhookEventType]] = None,
        active: Optional[bool] = None,
    ) -> m.Webhook:
        body = _given(url=url, events=None if events is None else list(events), active=active)
        return self._http.request("PATCH", f"{self._path}/{_id(webhook_id)}", body=body)

    def delete(self, webhook_id: str) -> m.Deleted:
        return self._http.request("DELETE", f"{self._path}/{_id(webhook_id)}")

    def list_deliveries(self, webhook_id: str, *, page: Optional[int] = None,
                        limit: Optional[int] = None) -> m.WebhookDeliveryList:
        return self._get(f"{self._path}/{_id(webhook_id)}/deliveries", page=page, limit=limit)

    def list_all_deliveries(self, webhook_id: str, *,
                            limit: Optional[int] = None) -> Iterator[m.WebhookDelivery]:
        return self._numbered_pages(f"{self._path}/{_id(webhook_id)}/deliveries", limit)

    def retry_delivery(self, webhook_id: str, delivery_id: str) -> m.WebhookDelivery:
        """Queues one more attempt now (202). Not retried on 5xx: it takes no idempotency key."""
        path = f"{self._path}/{_id(webhook_id)}/deliveries/{_id(delivery_id)}/retry"
        return self._http.request("POST", path)


class Orgit:
    """Client of the orgit REST API.

    ``api_key`` falls back to ``ORGIT_API_KEY``; ``base_url`` (the service origin) to
    ``ORGIT_BASE_URL``, then ``http://127.0.0.1:3000``. Without a key, requests go out without
    ``Authorization`` (the keyless routes work; the others answer 401). ``timeout`` is per
    attempt, in seconds; ``max_retries`` extra attempts; a 429 is retried only when its
    ``Retry-After`` is at most ``max_retry_wait`` seconds. ``on_response`` is called with the
    ResponseMeta of every response, retried attempts and errors included.
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

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def last_response(self) -> Optional[ResponseMeta]:
        """The meta of the most recent response (across threads, prefer ``on_response``)."""
        return self._http.last_response

    def whoami(self) -> m.Whoami:
        return self._http.request("GET", "/api/v1/whoami")

    def health(self) -> m.Health:
        """``{"status": "ok"}`` while the key is valid and the daily quota not spent."""
        return self._http.request("GET", "/api/v1/health")
