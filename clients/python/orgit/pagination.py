"""Lazy iteration over every item of a list, page after page."""

import re
import urllib.parse
from typing import Any, Callable, Iterator, Mapping, Optional, Set, Tuple, cast

OFFSET_MAX_LIMIT = 200
"""interface A (``/api/v1``): ``limit`` 1..200, pages by ``offset``"""
PAGE_MAX_LIMIT = 100
"""interface B (``/api``): ``limit`` 1..100, pages by ``page``"""


def _identity(item: Any) -> Optional[str]:
    if isinstance(item, Mapping):
        fields = cast(Mapping[str, Any], item)
        value: Any = fields.get("id", fields.get("userId"))
        return value if isinstance(value, str) else None
    return None


def _fresh(items: Any, seen: Set[str]) -> Iterator[Any]:
    """Items not yielded yet in this iteration (rows inserted meanwhile shift offset pages)."""
    for item in items:
        key = _identity(item)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        yield item


def iterate_offset(fetch: Callable[[int, int], Any], limit: Optional[int] = None) -> Iterator[Any]:
    """Every item of an interface A list: ``fetch(limit, offset)`` answers one page's body.

    Requests start on the first ``next()``; each page is fetched when the previous one is used up.
    """
    size = OFFSET_MAX_LIMIT if limit is None else limit
    offset = 0
    seen: Set[str] = set()
    while True:
        page = fetch(size, offset)
        data = page["data"]
        yield from _fresh(data, seen)
        offset += len(data)
        if len(data) < size or offset >= page["pagination"]["total"]:
            return


def iterate_pages(fetch: Callable[[int, int], Any], limit: Optional[int] = None) -> Iterator[Any]:
    """Every item of an interface B list: ``fetch(page, limit)`` answers one page's body."""
    size = PAGE_MAX_LIMIT if limit is None else limit
    number = 1
    seen: Set[str] = set()
    while True:
        page = fetch(number, size)
        data = page["data"]
        yield from _fresh(data, seen)
        if len(data) < size or number * size >= page["pagination"]["total"]:
            return
        number += 1


_LINK = re.compile(r'^<([^>]+)>;\s*rel="next"$')


def next_link(headers: Mapping[str, str]) -> Optional[str]:
    """The path and query of a ``Link`` header's ``rel="next"``, or None on the last page.

    The service writes its links on its PUBLIC_BASE_URL; the client sends them to its own base.
    """
    for part in re.split(r",\s*(?=<)", headers.get("link", "")):
        match = _LINK.match(part.strip())
        if match:
            url = urllib.parse.urlsplit(match.group(1))
            return url.path + ("?" + url.query if url.query else "")
    return None


def follow_cursors(fetch: Callable[[str], Tuple[Any, Any]], path: str) -> Iterator[Any]:
    """Every item of a list by its cursors: ``fetch(path)`` answers ``(body, meta)``.

    The first page from ``path``, then each ``rel="next"`` until there is none: a deep page
    costs what the first one costs, and rows inserted meanwhile never shift a page.
    """
    next_path: Optional[str] = path
    while next_path is not None:
        page, meta = fetch(next_path)
        yield from page["data"]
        next_path = next_link(meta.headers)
