"""The change feed (``GET /api/v1/changes``): incremental sync of tickets, alerts and equipment."""

from typing import Iterator, Optional, Sequence, cast

from . import models as m
from ._resource import Resource


class Changes(Resource):
    _path = "/api/v1/changes"

    def list(self, *, types: Optional[Sequence[m.ChangeType]] = None,
             since: Optional[str] = None, limit: Optional[int] = None) -> m.ChangeList:
        """One answer of the feed: ``{"data", "next", "hasMore"}``."""
        joined = ",".join(types) if types is not None else None
        return cast(m.ChangeList, self._get(self._path, types=joined, since=since, limit=limit))

    def sync(self, types: Optional[Sequence[m.ChangeType]] = None,
             since: Optional[str] = None, *, limit: int = 1000) -> Iterator[m.ChangeList]:
        """Every change ready now, page by page from ``since`` (None: from the beginning).

        Apply each page's ``data``, then store its ``next``: the token to start from next time.
        The generator ends with the page whose ``hasMore`` is false. A stored token older than
        what the service keeps raises ``GoneError`` (410): start again without ``since``.
        """
        token = since
        while True:
            page = self.list(types=types, since=token, limit=limit)
            yield page
            token = page["next"]
            if not page["hasMore"]:
                return
