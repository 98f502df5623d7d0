"""429s from a REAL service started with a low burst limit (2 requests a second per key):
the error when retries are off, and a retry after Retry-After that succeeds."""

import time
import unittest
from typing import List, Tuple

from orgit import Orgit, RateLimitError, ResponseMeta

from .service import ROOMY_LIMITS, Service, start_service

SERVICE: Service


def setUpModule() -> None:
    global SERVICE
    # a 3rd request of one key within a second answers 429 with Retry-After: 1
    env = {**ROOMY_LIMITS, "RATE_LIMIT_BURST_PER_SEC": "2"}
    SERVICE = start_service("orgit service with RATE_LIMIT_BURST_PER_SEC=2", env)
    unittest.addModuleCleanup(SERVICE.stop)


class BurstLimit(unittest.TestCase):
    def test_without_retries_the_429_is_raised_with_retry_after(self) -> None:
        seen: List[ResponseMeta] = []
        orgit = Orgit(api_key=SERVICE.provision().key, base_url=SERVICE.base_url, max_retries=0,
                      on_response=seen.append)
        with self.assertRaises(RateLimitError) as raised:
            for _ in range(10):  # a few quick calls spend the burst of 2
                orgit.whoami()
        error = raised.exception
        self.assertEqual((error.status, error.error), (429, "API key rate limit exceeded"))
        self.assertFalse(error.is_quota)
        self.assertIsNotNone(error.retry_after)
        self.assertGreaterEqual(error.retry_after or 0, 1)
        assert error.meta is not None and error.meta.rate_limit is not None
        self.assertEqual(error.meta.rate_limit.remaining, 0)
        self.assertEqual(error.meta.rate_limit.limit, 2)
        self.assertEqual(error.meta.headers["retry-after"], str(int(error.retry_after or 0)))
        self.assertEqual([m.status for m in seen][-1], 429)
        self.assertEqual(seen[-1].request_id, error.request_id)

    def test_a_429_is_retried_after_retry_after_and_succeeds(self) -> None:
        seen: List[Tuple[float, ResponseMeta]] = []
        orgit = Orgit(api_key=SERVICE.provision().key, base_url=SERVICE.base_url, max_retries=2,
                      on_response=lambda meta: seen.append((time.monotonic(), meta)))
        # quick calls until one is refused (the 3rd within a second), waited for and sent again
        for _ in range(10):
            self.assertEqual(orgit.whoami()["apiKey"]["name"], "python tests")
            if any(meta.status == 429 for _, meta in seen):
                break
        statuses = [meta.status for _, meta in seen]
        self.assertIn(429, statuses)
        refused = statuses.index(429)
        self.assertEqual(statuses[refused + 1], 200)
        waited = seen[refused + 1][0] - seen[refused][0]
        retry_after = int(seen[refused][1].headers["retry-after"])
        self.assertGreaterEqual(retry_after, 1)
        self.assertGreaterEqual(waited, retry_after - 0.05)
        assert orgit.last_response is not None
        self.assertEqual(orgit.last_response.status, 200)


if __name__ == "__main__":
    unittest.main()
