"""When a failed attempt is tried again, and after how long.

A 429 means the request was refused before it ran, so any call may repeat it; a 5xx or a lost
connection may hide a request that ran, so only idempotent calls repeat those (GET, PUT, DELETE,
and POSTs carrying an Idempotency-Key, which the server deduplicates).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Callable, Mapping, Optional

_IDEMPOTENT_METHODS = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    initial_delay: float = 0.5
    """First backoff in seconds; doubles per attempt, with jitter."""
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    """A ``retry-after`` longer than this is not waited for: the error is raised instead."""


def is_idempotent(method: str, headers: Mapping[str, str]) -> bool:
    return method.upper() in _IDEMPOTENT_METHODS or any(h.lower() == "idempotency-key" for h in headers)


def retryable_status(status: int, code: Optional[str], idempotent: bool) -> bool:
    if status == 429:
        return True
    if not idempotent:
        return False
    # The first request with this Idempotency-Key is still running: its result will be there shortly.
    if status == 409 and code == "idempotency_key_in_progress":
        return True
    return status in (408, 500, 502, 503, 504)


def retry_after_seconds(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """``retry-after-ms``, else ``retry-after`` in seconds or as an HTTP date; None when absent or unreadable."""
    lowered = {k.lower(): v for k, v in headers.items()}
    try:
        ms = float(lowered["retry-after-ms"])
        if ms >= 0:
            return ms / 1000
    except (KeyError, ValueError):
        pass
    value = lowered.get("retry-after", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def backoff_seconds(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with jitter: attempt 0 waits 50-100 % of the initial delay, and so on."""
    ceiling = min(policy.max_delay, policy.initial_delay * 2**attempt)
    return ceiling * (0.5 + rand() / 2)
