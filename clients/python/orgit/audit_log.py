"""The usage and audit trail (``/api/v1/audit-log``): pages, every entry, the NDJSON export."""

import datetime
import json
from typing import Iterator, Optional, Union, cast

from . import models as m
from ._resource import Resource

When = Union[str, datetime.datetime]


def _iso(value: Optional[When]) -> Optional[str]:
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise ValueError("give a timezone-aware datetime (the API refuses times without a zone)")
        return value.isoformat()
    return value


class AuditLog(Resource):
    """Scope ``audit:read`` and an ADMIN seat with permission ``audit.view``."""

    _path = "/api/v1/audit-log"

    def list(
        self,
        *,
        key_id: Optional[str] = None,
        user_id: Optional[str] = None,
        route: Optional[str] = None,
        status_class: Optional[str] = None,
        ip: Optional[str] = None,
        start: Optional[When] = None,
        end: Optional[When] = None,
        after: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> m.AuditLogPage:
        """One page, newest first; pass ``after=page["nextCursor"]`` for the next one."""
        return cast(
            m.AuditLogPage,
            self._get(
         self._path, keyId=key_id, userId=user_id, route=route, statusClass=status_class,
         ip=ip, **{"from": _iso(start), "to": _iso(end)}, after=after, limit=limit,
     ),
        )

    def list_all(self, *, limit: int = 200, **filters: Optional[When]) -> Iterator[m.AuditEntry]:
        """Every entry matching the filters of ``list``, following ``nextCursor``."""
        after: Optional[str] = None
        while True:
            page = self.list(after=after, limit=limit, **filters)  # type: ignore[arg-type]
            yield from page["data"]
            after = page["nextCursor"]
            if not after:
                return

    def export(self, *, start: When, end: When) -> Iterator[m.AuditEntry]:
        """Every entry of ``[start, end)`` (at most 31 days), oldest first, read line by line."""
        query = {"from": _iso(start), "to": _iso(end)}
        for line in self._http.stream_lines("GET", f"{self._path}/export", query=query):
            if line.strip():
                yield json.loads(line)
