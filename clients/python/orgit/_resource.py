"""What every resource shares: the transport, list helpers and idempotent creation."""

import urllib.parse
from typing import Any, Dict, Iterator, Optional, Union

from ._http import Transport, new_idempotency_key
from .pagination import follow_cursors, iterate_offset, iterate_pages


def quote_id(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


def given(**fields: Any) -> Dict[str, Any]:
    """The body fields the caller passed (None means: not sent)."""
    return {name: value for name, value in fields.items() if value is not None}


class Resource:
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

    def _cursor_pages(self, path: str, limit: int, **filters: Any) -> Iterator[Any]:
        """Every item by cursor pages (``Link: rel="next"``), ``limit`` at a time."""
        query = {name: value for name, value in {**filters, "limit": limit}.items()
                 if value is not None}
        first = path + "?" + urllib.parse.urlencode(query)
        return follow_cursors(lambda at: self._http.exchange("GET", at), first)

    def _create(self, path: str, body: Any, idempotency_key: Optional[str],
                if_match: Optional[Union[int, str]] = None) -> Any:
        # a generated key makes the POST safe to retry after a 5xx or a network failure
        key = idempotency_key if idempotency_key is not None else new_idempotency_key()
        return self._http.request("POST", path, body=body, idempotency_key=key,
                                  if_match=if_match)


