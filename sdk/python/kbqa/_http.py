"""One HTTP exchange with retries, over urllib (standard library only)."""
from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Union
from urllib.parse import urlencode

from ._retry import RetryPolicy, backoff_seconds, is_idempotent, retry_after_seconds, retryable_status
from .errors import APIConnectionError, APIError, APITimeoutError, api_error
from .models import RetryInfo

Query = Mapping[str, Union[str, int, float, bool, None]]


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: Any


def _headers_of(message: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in message.items()} if message is not None else {}


def _is_timeout(error: BaseException) -> bool:
    reason = getattr(error, "reason", None)
    return isinstance(error, (socket.timeout, TimeoutError)) or isinstance(reason, (socket.timeout, TimeoutError))


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float,
        retry: RetryPolicy,
        user_agent: str,
        on_retry: Optional[Callable[[RetryInfo], None]] = None,
    ) -> None:
        self.base_url = base_url
        self._api_key = api_key
        self._timeout = timeout
        self._retry = retry
        self._user_agent = user_agent
        self._on_retry = on_retry
        self._opener = urllib.request.build_opener()

    def _url(self, path: str, query: Optional[Query]) -> str:
        pairs = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (query or {}).items() if v is not None]
        return self.base_url + path + (f"?{urlencode(pairs)}" if pairs else "")

    def _attempt(self, method: str, url: str, path: str, data: Optional[bytes], headers: Dict[str, str], timeout: float, stream: bool) -> Any:
        """The open response of a successful attempt, or the error to report."""
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            response = self._opener.open(request, timeout=timeout)
            if stream:
                return response
            with response:
                return response.status, _headers_of(response.headers), response.read()
        except urllib.error.HTTPError as error:
            with error:
                text = error.read().decode("utf-8", "replace")
            try:
                body: Any = json.loads(text)
            except ValueError:
                body = text
            raise api_error(error.code, body, _headers_of(error.headers)) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
            if _is_timeout(error):
                raise APITimeoutError(f"No answer from {method} {path} within {timeout} s.") from error
            reason = getattr(error, "reason", error)
            raise APIConnectionError(f"Could not reach {self.base_url}: {reason}") from error

    def send(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        json_body: Any = None,
        data: Optional[bytes] = None,
        headers: Optional[Dict[str, str]] = None,
        idempotent: Optional[bool] = None,
        timeout: Optional[float] = None,
        stream: bool = False,
    ) -> Any:
        """Sends a request, retrying what may be retried. Returns ``(status, headers, bytes)``, or the
        open response for ``stream=True`` (the timeout then bounds each read)."""
        all_headers = {
            "Authorization": f"Bearer {self._api_key}",
            "Accept": "application/json, text/event-stream",
            "User-Agent": self._user_agent,
        }
        if json_body is not None:
            data = json.dumps(json_body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        retryable_call = is_idempotent(method, all_headers) if idempotent is None else idempotent
        url = self._url(path, query)
        attempt = 0
        while True:
            try:
                return self._attempt(method, url, path, data, all_headers, self._timeout if timeout is None else timeout, stream)
            except (APIError, APIConnectionError) as error:
                delay = self._delay(error, retryable_call, attempt) if attempt < self._retry.max_retries else None
                if delay is None:
                    raise
                if self._on_retry is not None:
                    status = error.status if isinstance(error, APIError) else None
                    self._on_retry(RetryInfo(attempt=attempt, delay=delay, method=method, path=path, status=status, error=error))
                time.sleep(delay)
                attempt += 1

    def _delay(self, error: Exception, idempotent: bool, attempt: int) -> Optional[float]:
        if isinstance(error, APIError):
            if not retryable_status(error.status, error.code, idempotent):
                return None
            asked = retry_after_seconds(error.headers)
            if asked is None:
                return backoff_seconds(attempt, self._retry)
            return asked if asked <= self._retry.max_retry_after else None
        if isinstance(error, APIConnectionError) and idempotent:
            return backoff_seconds(attempt, self._retry)
        return None

    def json(self, method: str, path: str, **kwargs: Any) -> Response:
        status, headers, raw = self.send(method, path, **kwargs)
        return Response(status, headers, json.loads(raw.decode("utf-8")) if raw else None)
