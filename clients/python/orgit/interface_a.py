"""Interface A resources (``/api/v1``, and the keyless ``/install`` links)."""

from typing import Iterator, Optional, Sequence, Union, cast

from . import models as m
from ._resource import Resource, given, quote_id

Version = Union[int, str]
"""what ``if_match`` takes: the ``version`` you read, or the ETag as answered"""


class Equipment(Resource):
    _path = "/api/v1/equipments"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None,
             status: Optional[m.EquipmentStatus] = None,
             after: Optional[str] = None) -> m.EquipmentList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.EquipmentList,
            self._get(self._path, limit=limit, offset=offset, status=status, after=after),
        )

    def list_all(self, *, status: Optional[m.EquipmentStatus] = None,
                 limit: Optional[int] = None) -> Iterator[m.Equipment]:
        return self._offset_pages(self._path, limit, status=status)

    def paginate(self, *, status: Optional[m.EquipmentStatus] = None,
                 limit: int = 200) -> Iterator[m.Equipment]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit, status=status)

    def bulk_create(
        self,
        items: Sequence[m.BulkCreateItem],
        *,
        token_kind: Optional[m.TokenKind] = None,
        idempotency_key: Optional[str] = None,
    ) -> m.BulkCreateResult:
        """Up to 100 records; each item's failure is in ``errors``, the rest are created."""
        body = given(items=list(items), tokenKind=token_kind)
        return cast(
            m.BulkCreateResult,
            self._create(f"{self._path}/bulk-create", body, idempotency_key),
        )

    def get(self, equipment_id: str) -> m.EquipmentRecord:
        """One record, with ``updatedAt``, ``retiredAt`` and ``version``."""
        return cast(m.EquipmentRecord, self._get(f"{self._path}/{quote_id(equipment_id)}"))

    def update(self, equipment_id: str, changes: m.UpdateEquipmentRequest, *,
               if_match: Optional[Version] = None) -> m.EquipmentRecord:
        """At least one field; ``None`` clears an optional one. 409 once retired."""
        return cast(
            m.EquipmentRecord,
            self._http.request("PATCH", f"{self._path}/{quote_id(equipment_id)}",
                               body=dict(changes), if_match=if_match),
        )

    def retire(self, equipment_id: str, *, if_match: Optional[Version] = None,
               idempotency_key: Optional[str] = None) -> m.EquipmentRecord:
        """Status ``retired``, for good."""
        path = f"{self._path}/{quote_id(equipment_id)}/retire"
        return cast(
            m.EquipmentRecord,
            self._http.request("POST", path, idempotency_key=idempotency_key,
                               if_match=if_match),
        )


class Install(Resource):
    def get(self, token: str) -> m.InstallLink:
        """An agent install link (sent without the API key: the token is the credential)."""
        return cast(
            m.InstallLink,
            self._http.request("GET", f"/install/{quote_id(token)}", authenticated=False),
        )


class EquipmentUnits(Resource):
    _path = "/api/v1/equipment-units"

    def list(
        self, *, limit: Optional[int] = None, offset: Optional[int] = None,
        after: Optional[str] = None,
    ) -> m.EquipmentUnitList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.EquipmentUnitList,
            self._get(self._path, limit=limit, offset=offset, after=after),
        )

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.EquipmentUnit]:
        return self._offset_pages(self._path, limit)

    def paginate(self, *, limit: int = 200) -> Iterator[m.EquipmentUnit]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit)


class Groups(Resource):
    _path = "/api/v1/groups"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None,
             after: Optional[str] = None) -> m.GroupList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(m.GroupList, self._get(self._path, limit=limit, offset=offset, after=after))

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.Group]:
        return self._offset_pages(self._path, limit)

    def paginate(self, *, limit: int = 200) -> Iterator[m.Group]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit)


class Users(Resource):
    _path = "/api/v1/users"

    def list(self, *, limit: Optional[int] = None, offset: Optional[int] = None,
             after: Optional[str] = None) -> m.UserList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(m.UserList, self._get(self._path, limit=limit, offset=offset, after=after))

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.User]:
        return self._offset_pages(self._path, limit)

    def paginate(self, *, limit: int = 200) -> Iterator[m.User]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit)


class AgentReleases(Resource):
    _path = "/api/v1/agent-releases"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        platform: Optional[str] = None,
        channel: Optional[str] = None,
        after: Optional[str] = None,
    ) -> m.AgentReleaseList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.AgentReleaseList,
            self._get(self._path, limit=limit, offset=offset, platform=platform, channel=channel,
                      after=after),
        )

    def list_all(self, *, platform: Optional[str] = None, channel: Optional[str] = None,
                 limit: Optional[int] = None) -> Iterator[m.AgentRelease]:
        return self._offset_pages(self._path, limit, platform=platform, channel=channel)

    def paginate(self, *, platform: Optional[str] = None, channel: Optional[str] = None,
                 limit: int = 200) -> Iterator[m.AgentRelease]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit, platform=platform, channel=channel)


class Alerts(Resource):
    _path = "/api/v1/alerts"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        status: Optional[m.AlertStatus] = None,
        severity: Optional[m.AlertSeverity] = None,
        after: Optional[str] = None,
    ) -> m.AlertList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.AlertList,
            self._get(self._path, limit=limit, offset=offset, status=status, severity=severity,
                      after=after),
        )

    def list_all(
        self,
        *,
        status: Optional[m.AlertStatus] = None,
        severity: Optional[m.AlertSeverity] = None,
        limit: Optional[int] = None,
    ) -> Iterator[m.Alert]:
        return self._offset_pages(self._path, limit, status=status, severity=severity)

    def paginate(
        self,
        *,
        status: Optional[m.AlertStatus] = None,
        severity: Optional[m.AlertSeverity] = None,
        limit: int = 200,
    ) -> Iterator[m.Alert]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit, status=status, severity=severity)

    def ingest(
        self, alerts: Union[m.IngestAlert, m.IngestBatch, Sequence[m.IngestAlert]]
    ) -> m.IngestResult:
        """One alert, a batch ``{"alerts": [...]}`` or a list of alerts; 202. Sent without the
        API key (the caller's address must be an ingest source); not retried on 5xx."""
        body = {"alerts": list(alerts)} if isinstance(alerts, (list, tuple)) else alerts
        return cast(
            m.IngestResult,
            self._http.request("POST", f"{self._path}/ingest", body=body, authenticated=False),
        )

    def get(self, alert_id: str) -> m.AlertRecord:
        """One alert, with who acknowledged or resolved it, when and why, and ``version``."""
        return cast(m.AlertRecord, self._get(f"{self._path}/{quote_id(alert_id)}"))

    def acknowledge(self, alert_id: str, *, note: Optional[str] = None,
                    if_match: Optional[Version] = None) -> m.AlertRecord:
        """open → acknowledged."""
        return self._move(alert_id, "acknowledge", note, if_match)

    def resolve(self, alert_id: str, *, note: Optional[str] = None,
                if_match: Optional[Version] = None) -> m.AlertRecord:
        """open or acknowledged → resolved."""
        return self._move(alert_id, "resolve", note, if_match)

    def reopen(self, alert_id: str, *, if_match: Optional[Version] = None) -> m.AlertRecord:
        """acknowledged or resolved → open (who and why are cleared)."""
        return self._move(alert_id, "reopen", None, if_match)

    def _move(self, alert_id: str, move: str, note: Optional[str],
              if_match: Optional[Version]) -> m.AlertRecord:
        path = f"{self._path}/{quote_id(alert_id)}/{move}"
        return cast(m.AlertRecord, self._create(path, given(note=note), None, if_match))


class Tickets(Resource):
    _path = "/api/v1/tickets"

    def list(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        status: Optional[m.TicketStatus] = None,
        priority: Optional[m.TicketPriority] = None,
        after: Optional[str] = None,
    ) -> m.TicketList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.TicketList,
            self._get(self._path, limit=limit, offset=offset, status=status, priority=priority,
                      after=after),
        )

    def list_all(
        self,
        *,
        status: Optional[m.TicketStatus] = None,
        priority: Optional[m.TicketPriority] = None,
        limit: Optional[int] = None,
    ) -> Iterator[m.Ticket]:
        return self._offset_pages(self._path, limit, status=status, priority=priority)

    def paginate(
        self,
        *,
        status: Optional[m.TicketStatus] = None,
        priority: Optional[m.TicketPriority] = None,
        limit: int = 200,
    ) -> Iterator[m.Ticket]:
        """Every item by cursor pages (``Link: rel="next"``): deep pages cost what the first costs."""
        return self._cursor_pages(self._path, limit, status=status, priority=priority)

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
        body = given(title=title, description=description, priority=priority,
                      equipmentId=equipment_id)
        return cast(m.Ticket, self._create(self._path, body, idempotency_key))

    def get(self, ticket_id: str) -> m.TicketRecord:
        """One ticket, with ``description``, ``assignee_id``, ``updated_at`` and ``version``."""
        return cast(m.TicketRecord, self._get(f"{self._path}/{quote_id(ticket_id)}"))

    def update(self, ticket_id: str, changes: m.UpdateTicketRequest, *,
               if_match: Optional[Version] = None) -> m.TicketRecord:
        """title, description, priority, status or assigneeId (``None`` unassigns)."""
        return cast(
            m.TicketRecord,
            self._http.request("PATCH", f"{self._path}/{quote_id(ticket_id)}",
                               body=dict(changes), if_match=if_match),
        )

    def list_comments(self, ticket_id: str, *, limit: Optional[int] = None,
                      offset: Optional[int] = None,
                      after: Optional[str] = None) -> m.TicketCommentList:
        """Newest first; ``after=orgit.last_response.next_cursor`` for the next page by cursor."""
        return cast(
            m.TicketCommentList,
            self._get(f"{self._path}/{quote_id(ticket_id)}/comments", limit=limit,
                      offset=offset, after=after),
        )

    def paginate_comments(self, ticket_id: str, *, limit: int = 200) -> Iterator[m.TicketComment]:
        """Every comment, newest first, by cursor pages (``Link: rel="next"``)."""
        return self._cursor_pages(f"{self._path}/{quote_id(ticket_id)}/comments", limit)

    def add_comment(self, ticket_id: str, body: str, *,
                    idempotency_key: Optional[str] = None) -> m.TicketComment:
        """1 to 10,000 characters."""
        path = f"{self._path}/{quote_id(ticket_id)}/comments"
        return cast(m.TicketComment, self._create(path, {"body": body}, idempotency_key))
