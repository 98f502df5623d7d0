"""Lazy iteration over every item of a list, page after page."""

from typing import Any, Callable, Iterator, Mapping, Optional, Set

OFFSET_MAX_LIMIT = 200
"""interface A (``/api/v1``): ``limit`` 1..200, pages by ``offset``"""
PAGE_MAX_LIMIT = 100
"""interface B (``/api``): ``limit`` 1..100, pages by ``page``"""


def _identity(item: Any) -> Optional[str]:
    if isinstance(item, Mapping):
        value = item.get("id", item.get("userId"))
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
