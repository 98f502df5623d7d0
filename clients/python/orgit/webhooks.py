"""Verification of signed webhook deliveries (https://www.standardwebhooks.com)."""

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union, cast

from .errors import WebhookVerificationError
from .models import WebhookEvent

__all__ = ["verify_webhook", "DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 300
"""seconds a delivery's timestamp may be away from now (replays of older ones are refused)"""


def _header_name(name: str) -> str:
    """``webhook-id``, ``Webhook-Id`` and WSGI's ``HTTP_WEBHOOK_ID`` all name the same header."""
    key = name.lower().replace("_", "-")
    return key[5:] if key.startswith("http-") else key


def _signing_key(secret: str) -> bytes:
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("The webhook secret is not whsec_<base64>") from error


def verify_webhook(
    payload: Union[bytes, str],
    headers: Mapping[str, str],
    secret: str,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Checks a delivery's signature and timestamp and answers its event.

    ``payload`` is the raw request body exactly as received (not re-serialized JSON);
    ``headers`` the request's headers (any case; WSGI ``HTTP_*`` names work too); ``secret``
    the subscription's ``whsec_…``. Raises WebhookVerificationError when a header is missing,
    no ``v1`` signature matches, or the timestamp is more than ``tolerance`` seconds old or
    ahead of ``now`` (default: the current time).
    """
    found = {_header_name(name): value for name, value in headers.items()}
    message_id = found.get("webhook-id")
    timestamp = found.get("webhook-timestamp")
    signatures = found.get("webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("Invalid webhook-timestamp") from None
    current = time.time() if now is None else now
    if sent_at < current - tolerance:
        raise WebhookVerificationError("Webhook timestamp too old")
    if sent_at > current + tolerance:
        raise WebhookVerificationError("Webhook timestamp too far in the future")

    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + body
    digest = hmac.new(_signing_key(secret), signed, hashlib.sha256).digest()
    expected = base64.b64encode(digest)
    for candidate in signatures.split():
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("utf-8"), expected):
            break
    else:
        raise WebhookVerificationError("No matching webhook signature")

    try:
        event: Any = json.loads(body)
    except ValueError:
        raise WebhookVerificationError("The webhook payload is not JSON") from None
    if not isinstance(event, dict) or not isinstance(cast(Dict[str, Any], event).get("type"), str):
        raise WebhookVerificationError("The webhook payload is not an event")
    return cast(WebhookEvent, event)
