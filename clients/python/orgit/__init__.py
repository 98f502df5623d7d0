"""Official Python client of the orgit REST API (interfaces A and B, signed webhooks)."""

from . import models
from .meta import QuotaInfo, RateLimitInfo, ResponseMeta
from ._version import __version__
from .client import DEFAULT_BASE_URL, Orgit
from .errors import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GoneError,
    NotFoundError,
    OrgitConnectionError,
    OrgitError,
    OrgitTimeoutError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    WebhookVerificationError,
)
from .models import WebhookEvent
from .webhooks import verify_webhook

__all__ = [
    "__version__",
    "DEFAULT_BASE_URL",
    "Orgit",
    "ResponseMeta",
    "RateLimitInfo",
    "QuotaInfo",
    "OrgitError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "GoneError",
    "RateLimitError",
    "ServerError",
    "OrgitConnectionError",
    "OrgitTimeoutError",
    "WebhookVerificationError",
    "WebhookEvent",
    "verify_webhook",
    "models",
]
