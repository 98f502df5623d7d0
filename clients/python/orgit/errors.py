"""Errors raised by the client: one base class, one subclass per kind of failure."""

from typing import Any, Dict, List, Mapping, Optional, Type, cast

from .meta import ResponseMeta

__all__ = [
    "OrgitError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "OrgitConnectionError",
    "OrgitTimeoutError",
    "WebhookVerificationError",
    "error_from_response",
]


class OrgitError(Exception):
    """Base of every error of this library.

    ``status`` is the HTTP status (None for network failures), ``error`` the body's error text,
    ``details`` the validation problems (``[{"path": [...], "message": ...}]``), ``retry_after``
    the seconds to wait (from ``Retry-After`` or the body), ``request_id`` the service's
    ``X-Request-Id``, ``body`` the parsed JSON body and ``meta`` the response's ResponseMeta.
    """

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        error: Optional[str] = None,
        details: Optional[List[Dict[str, Any]]] = None,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
        body: Any = None,
        meta: Optional[ResponseMeta] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.error = error
        self.details = details
        self.retry_after = retry_after
        self.request_id = request_id
        self.body = body
        self.meta = meta


class BadRequestError(OrgitError):
    """400: validation failed or a malformed body; ``details`` names each field."""


class AuthenticationError(OrgitError):
    """401: missing, invalid, expired or revoked API key."""


class PermissionDeniedError(OrgitError):
    """403: missing scope or permission, plan without API access, IP not allowed."""


class NotFoundError(OrgitError):
    """404: unknown route or resource."""


class ConflictError(OrgitError):
    """409: Idempotency-Key reused with another body, or a conflicting state."""


class GoneError(OrgitError):
    """410: e.g. ``Sync token expired`` (start the change feed again without ``since``)."""


class RateLimitError(OrgitError):
    """429: a rate limit (``retry_after`` seconds) or the daily quota (``is_quota``)."""

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        said: Any = self.body
        body: Dict[str, Any] = cast(Dict[str, Any], said) if isinstance(said, dict) else {}
        self.limit: Optional[int] = body.get("limit")
        self.used: Optional[int] = body.get("used")
        self.window: Optional[str] = body.get("window")
        self.is_quota: bool = self.error == "API quota exceeded"


class ServerError(OrgitError):
    """5xx: the service failed; retried for idempotent requests."""


class OrgitConnectionError(OrgitError):
    """The service could not be reached or the connection broke (no status)."""


class OrgitTimeoutError(OrgitConnectionError):
    """No answer within the client's timeout."""


class WebhookVerificationError(OrgitError):
    """A webhook delivery whose headers, signature or timestamp do not check out."""


_BY_STATUS: Mapping[int, Type[OrgitError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    429: RateLimitError,
}


def _describe(error: str, details: Optional[List[Dict[str, Any]]]) -> str:
    if not details:
        return error
    problems: List[str] = []
    for detail in details:
        parts: List[Any] = detail.get("path") or []
        path = ".".join(str(part) for part in parts)
        text = str(detail.get("message", ""))
        problems.append(f"{path}: {text}" if path else text)
    return f"{error}: {'; '.join(problems)}"


def error_from_response(
    status: int, body: Any, meta: ResponseMeta, retry_after: Optional[float]
) -> OrgitError:
    """The error for a non-2xx answer: the subclass of its status, or plain OrgitError."""
    fields: Dict[str, Any] = cast(Dict[str, Any], body) if isinstance(body, dict) else {}
    said: Any = fields.get("error")
    error = said if isinstance(said, str) else None
    error_text = error or f"HTTP {status}"
    listed: Any = fields.get("details")
    details = cast(List[Dict[str, Any]], listed) if isinstance(listed, list) else None
    waited: Any = fields.get("retryAfter")
    if retry_after is None and isinstance(waited, (int, float)):
        retry_after = float(waited)
    message = f"{status} {_describe(error_text, details)}"
    if meta.request_id:
        message += f" (request id {meta.request_id})"
    if status >= 500:
        cls: Type[OrgitError] = ServerError
    else:
        cls = _BY_STATUS.get(status, OrgitError)
    return cls(
        message,
        status=status,
        error=error,
        details=details,
        retry_after=retry_after,
        request_id=meta.request_id,
        body=body,
        meta=meta,
    )
