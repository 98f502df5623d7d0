"""HTTP transport: one urllib request per attempt, retries with backoff, idempotency keys."""

import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.client import HTTPException
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, Union

from ._version import __version__
from .errors import OrgitConnectionError, OrgitError, OrgitTimeoutError, error_from_response
from .meta import ResponseMeta, parse_meta, parse_retry_after

USER_AGENT = f"orgit-python/{__version__}"

def backoff(attempt: int) -> float:
    """0.5 s · 2^attempt with ±25 % jitter, at most 8 s."""
    return min(8.0, 0.5 * 2.0**attempt * random.uniform(0.75, 1.25))


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """The API never redirects; a 3xx is answered to the caller as an error, never followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


Headers = Dict[str, str]
_NO_BODY = object()


class Transport:
    """Sends requests to the service with the client's key, timeout and retry policy."""

    def __init__(
        self,
        *,
        api_key: Optional[str],
        base_url: str,
        timeout: float,
        max_retries: int,
        max_retry_wait: float,
        on_response: Optional[Callable[[ResponseMeta], None]],
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.on_response = on_response
        self.last_response: Optional[ResponseMeta] = None
        self.sleep: Callable[[float], None] = time.sleep
        self._opener = urllib.request.build_opener(_NoRedirect())

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = _NO_BODY,
        idempotency_key: Optional[str] = None,
        authenticated: bool = True,
        if_match: Optional[Union[int, str]] = None,
    ) -> Any:
        """Sends with retries; answers the parsed JSON body of the 2xx, else raises OrgitError."""
        return self.exchange(method, path, query=query, body=body,
                             idempotency_key=idempotency_key, authenticated=authenticated,
                             if_match=if_match)[0]

    def exchange(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = _NO_BODY,
        idempotency_key: Optional[str] = None,
        authenticated: bool = True,
        if_match: Optional[Union[int, str]] = None,
    ) -> Tuple[Any, ResponseMeta]:
        """As ``request``, with the answer's meta (its headers: a list's ``Link``)."""
        url = self.base_url + path
        pairs = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers: Headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        data = None
        if body is not _NO_BODY:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if authenticated and self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        if if_match is not None:
            # the version you read (an int) or its ETag as answered; another version is a 412
            headers["If-Match"] = f'"{if_match}"' if isinstance(if_match, int) else if_match
        # 5xx and network failures are retried only when a repeat cannot do anything twice
        idempotent = method in ("GET", "HEAD", "DELETE") or idempotency_key is not None
        attempt = 0
        while True:
            try:
                status, answer_headers, raw = self._send(method, url, data, headers)
            except OrgitConnectionError:
                if not idempotent or attempt >= self.max_retries:
                    raise
                self.sleep(backoff(attempt))
                attempt += 1
                continue
            meta = parse_meta(status, answer_headers)
            self.last_response = meta
            if self.on_response is not None:
                self.on_response(meta)
            parsed, is_json = _parse_body(raw)
            if 200 <= status < 300:
                if not is_json:
                    message = f"{status} answer is not JSON"
                    raise OrgitError(message, status=status, body=parsed, meta=meta)
                return parsed, meta
            retry_after = parse_retry_after(answer_headers.get("retry-after"))
            error = error_from_response(status, parsed, meta, retry_after)
            wait = self._retry_wait(status, error.retry_after, idempotent, attempt)
            if wait is None:
                raise error
            self.sleep(wait)
            attempt += 1

    def stream_lines(
        self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None
    ) -> Iterator[str]:
        """One attempt whose answer is read line by line as it arrives (NDJSON); a non-2xx
        answer raises its OrgitError before the first line."""
        url = self.base_url + path
        pairs = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers: Headers = {"Accept": "application/x-ndjson", "User-Agent": USER_AGENT}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, headers=headers, method=method)
        try:
            response = self._opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as answer:
            with answer:
                status, answer_headers, raw = answer.code, _lower(answer.headers), answer.read()
            meta = parse_meta(status, answer_headers)
            self.last_response = meta
            parsed, _ = _parse_body(raw)
            retry_after = parse_retry_after(answer_headers.get("retry-after"))
            raise error_from_response(status, parsed, meta, retry_after) from None
        except urllib.error.URLError as failure:
            raise OrgitConnectionError(f"{method} {url} failed: {failure.reason}") from failure
        with response:
            self.last_response = parse_meta(response.status, _lower(response.headers))
            if self.on_response is not None:
                self.on_response(self.last_response)
            for raw_line in response:
                yield raw_line.decode("utf-8")

    def _retry_wait(
        self, status: int, retry_after: Optional[float], idempotent: bool, attempt: int
    ) -> Optional[float]:
        """Seconds to wait before the next attempt, or None to raise now."""
        if attempt >= self.max_retries:
            return None
        if status == 429:  # a refused request had no effect: any method may repeat it
            wait = retry_after if retry_after is not None else backoff(attempt)
            return wait if wait <= self.max_retry_wait else None
        if status >= 500 and idempotent:
            return backoff(attempt)
        return None

    def _send(
        self, method: str, url: str, data: Optional[bytes], headers: Headers
    ) -> Tuple[int, Headers, bytes]:
        """One attempt: status, headers (lower-case names) and raw body, or a connection error."""
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        timed_out = f"no answer within {self.timeout} s"
        try:
            try:
                with self._opener.open(request, timeout=self.timeout) as response:
                    return response.status, _lower(response.headers), response.read()
            except urllib.error.HTTPError as answer:  # a non-2xx answer: headers and body too
                with answer:
                    return answer.code, _lower(answer.headers), answer.read()
        except urllib.error.URLError as failure:  # could not connect
            if isinstance(failure.reason, (socket.timeout, TimeoutError)):
                raise OrgitTimeoutError(f"{method} {url}: {timed_out}") from failure
            raise OrgitConnectionError(f"{method} {url} failed: {failure.reason}") from failure
        except (socket.timeout, TimeoutError) as failure:  # connected, but no answer in time
            raise OrgitTimeoutError(f"{method} {url}: {timed_out}") from failure
        except (HTTPException, OSError) as failure:
            raise OrgitConnectionError(f"{method} {url} failed: {failure!r}") from failure


def _lower(headers: Any) -> Headers:
    merged: Headers = {}
    for name, value in headers.items():
        key = name.lower()
        merged[key] = f"{merged[key]}, {value}" if key in merged else value
    return merged


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_body(raw: bytes) -> Tuple[Any, bool]:
    """The JSON value and True, or the text and False when the body is not JSON."""
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text), True
    except ValueError:
        return text, False
