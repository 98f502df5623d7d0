"""verify_webhook on deliveries signed here with the Standard Webhooks scheme (the real
service's deliveries are verified in test_service.py)."""

import base64
import hashlib
import hmac
import json
import unittest
from typing import Dict

from orgit import OrgitError, WebhookVerificationError, verify_webhook

KEY = b"0123456789abcdef0123456789abcdef"
SECRET = "whsec_" + base64.b64encode(KEY).decode()
NOW = 1_800_000_000
BODY = json.dumps({
    "type": "project.created",
    "timestamp": "2027-01-15T08:00:00.000Z",
    "data": {"project": {"id": "p1", "name": "Relaunch", "description": "",
                         "createdAt": "2027-01-15T08:00:00.000Z",
                         "updatedAt": "2027-01-15T08:00:00.000Z"}},
}).encode()


def sign(body: bytes, msg_id: str = "msg_1", timestamp: int = NOW, key: bytes = KEY) -> str:
    digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(body: bytes = BODY, timestamp: int = NOW) -> Dict[str, str]:
    return {"webhook-id": "msg_1", "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(body, timestamp=timestamp)}


class VerifyWebhook(unittest.TestCase):
    def test_a_valid_delivery_answers_the_event(self) -> None:
        event = verify_webhook(BODY, headers(), SECRET, now=NOW)
        self.assertEqual(event["type"], "project.created")
        self.assertEqual(event["data"]["project"]["name"], "Relaunch")
        # str payloads, header names in any case and WSGI environ names work too
        upper = {name.title(): value for name, value in headers().items()}
        self.assertEqual(verify_webhook(BODY.decode(), upper, SECRET, now=NOW), event)
        environ = {"HTTP_" + name.upper().replace("-", "_"): v for name, v in headers().items()}
        self.assertEqual(verify_webhook(BODY, environ, SECRET, now=NOW), event)

    def test_any_of_several_signatures_may_match(self) -> None:
        wrong = sign(BODY, key=b"another key, rotated out already")
        several = {**headers(), "webhook-signature": f"{wrong} v2,abc {sign(BODY)}"}
        self.assertEqual(verify_webhook(BODY, several, SECRET, now=NOW)["type"], "project.created")
        only_wrong = {**headers(), "webhook-signature": wrong}
        with self.assertRaisesRegex(WebhookVerificationError, "No matching webhook signature"):
            verify_webhook(BODY, only_wrong, SECRET, now=NOW)

    def test_a_tampered_body_is_refused(self) -> None:
        tampered = BODY.replace(b"Relaunch", b"Relaunck")
        with self.assertRaisesRegex(WebhookVerificationError, "No matching webhook signature"):
            verify_webhook(tampered, headers(), SECRET, now=NOW)

    def test_another_secret_is_refused(self) -> None:
        other = "whsec_" + base64.b64encode(b"x" * 32).decode()
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, headers(), other, now=NOW)

    def test_the_timestamp_must_be_within_the_tolerance(self) -> None:
        self.assertTrue(verify_webhook(BODY, headers(), SECRET, now=NOW + 300))
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(BODY, headers(), SECRET, now=NOW + 301)
        with self.assertRaisesRegex(WebhookVerificationError, "future"):
            verify_webhook(BODY, headers(), SECRET, now=NOW - 301)
        self.assertTrue(verify_webhook(BODY, headers(), SECRET, tolerance=1000, now=NOW + 900))
        # the timestamp is signed: moving it forward breaks the signature
        moved = {**headers(), "webhook-timestamp": str(NOW + 10)}
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, moved, SECRET, now=NOW)

    def test_missing_or_malformed_headers_are_refused(self) -> None:
        for missing in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            partial = {k: v for k, v in headers().items() if k != missing}
            with self.subTest(missing=missing):
                with self.assertRaisesRegex(WebhookVerificationError, "Missing"):
                    verify_webhook(BODY, partial, SECRET, now=NOW)
        with self.assertRaisesRegex(WebhookVerificationError, "Invalid webhook-timestamp"):
            verify_webhook(BODY, {**headers(), "webhook-timestamp": "soon"}, SECRET, now=NOW)

    def test_the_error_is_an_orgit_error_and_a_bad_secret_is_named(self) -> None:
        self.assertTrue(issubclass(WebhookVerificationError, OrgitError))
        with self.assertRaisesRegex(WebhookVerificationError, "whsec_"):
            verify_webhook(BODY, headers(), "whsec_not base64!", now=NOW)

    def test_a_signed_body_that_is_not_an_event_is_refused(self) -> None:
        body = b"[1, 2]"
        with self.assertRaisesRegex(WebhookVerificationError, "not an event"):
            verify_webhook(body, headers(body), SECRET, now=NOW)


if __name__ == "__main__":
    unittest.main()
