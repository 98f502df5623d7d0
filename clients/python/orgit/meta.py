"""What a response's headers say besides its body: rate limits, quota, request id, replay."""

import email.utils
import time
import urllib.parse
from dataclasses import dataclass
from typing import Mapping, Optional, Union

from .pagination import next_link

__all__ = ["QuotaValue", "RateLimitInfo", "QuotaInfo", "ResponseMeta", "parse_meta",
           "parse_retry_after"]

QuotaValue = Union[int, str]
"""A quota figure: a number, or the string ``"unlimited"``."""


@dataclass(frozen=True)
class RateLimitInfo:
    """The bucket closest to exhaustion (``X-RateLimit-*``) and the IETF draft headers."""

    limit: Optional[int]
    remaining: Optional[int]
    reset: Optional[int]
    policy: Optional[str]
    """``RateLimit-Policy``: every bucket the request drew from"""
    raw: Optional[str]
    """``RateLimit``: the closest bucket, e.g. ``"burst";r=9;t=1``"""


@dataclass(frozen=True)
class QuotaInfo:
    """The organization's daily quota (``X-Quota-*``), interface A only."""

    limit: Optional[QuotaValue]
    used: Optional[int]
    remaining: Optional[QuotaValue]


@dataclass(frozen=True)
class ResponseMeta:
    """What the headers of one response say besides its body."""

    status: int
    request_id: Optional[str]
    rate_limit: Optional[RateLimitInfo]
    quota: Optional[QuotaInfo]
    idempotent_replayed: bool
    headers: Mapping[str, str]
    """every header, names in lower case"""

    @property
    def next_cursor(self) -> Optional[str]:
        """A list's next page as ``after=`` takes it (its ``Link: rel="next"``); None on the last."""
        link = next_link(self.headers)
        if link is None:
            return None
        after = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query).get("after")
        return after[0] if after else None


def _int(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _quota(value: Optional[str]) -> Optional[QuotaValue]:
    if value is None or value == "unlimited":
        return value
    return _int(value)


def parse_meta(status: int, headers: Mapping[str, str]) -> ResponseMeta:
    """Reads the rate-limit, quota, request-id and replay headers (names in lower case)."""
    rate_limit = None
    if "x-ratelimit-limit" in headers or "ratelimit-policy" in headers:
        rate_limit = RateLimitInfo(
            limit=_int(headers.get("x-ratelimit-limit")),
            remaining=_int(headers.get("x-ratelimit-remaining")),
            reset=_int(headers.get("x-ratelimit-reset")),
            policy=headers.get("ratelimit-policy"),
            raw=headers.get("ratelimit"),
        )
    quota = None
    if "x-quota-limit" in headers:
        quota = QuotaInfo(
            limit=_quota(headers.get("x-quota-limit")),
            used=_int(headers.get("x-quota-used")),
            remaining=_quota(headers.get("x-quota-remaining")),
        )
    return ResponseMeta(
        status=status,
        request_id=headers.get("x-request-id"),
        rate_limit=rate_limit,
        quota=quota,
        idempotent_replayed=headers.get("idempotent-replayed", "").lower() == "true",
        headers=dict(headers),
    )


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` as seconds: a number, or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
