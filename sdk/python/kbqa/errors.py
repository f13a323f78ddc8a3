"""Errors: everything the SDK raises derives from KbqaError; API errors carry the API's error body."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

if TYPE_CHECKING:
    from .models import Document


class KbqaError(Exception):
    """Base of every error this SDK raises."""


class APIError(KbqaError):
    """The server answered with an error status. ``error`` is its error body, verbatim:
    ``{"message", "type", "param", "code"}`` (API.md, "Errors")."""

    def __init__(self, status: int, error: Dict[str, Any], headers: Optional[Mapping[str, str]] = None) -> None:
        self.status = status
        self.error = error
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}
        self.request_id: Optional[str] = self.headers.get("x-request-id")
        super().__init__(f"{status} {error.get('code') or error.get('type')}: {error.get('message')}")

    @property
    def message(self) -> str:
        return str(self.error.get("message", ""))

    @property
    def type(self) -> str:
        return str(self.error.get("type", ""))

    @property
    def code(self) -> Optional[str]:
        return self.error.get("code")

    @property
    def param(self) -> Optional[str]:
        return self.error.get("param")


class BadRequestError(APIError):
    pass


class AuthenticationError(APIError):
    pass


class PermissionDeniedError(APIError):
    pass


class NotFoundError(APIError):
    pass


class ConflictError(APIError):
    pass


class PayloadTooLargeError(APIError):
    pass


class UnsupportedMediaTypeError(APIError):
    pass


class UnprocessableEntityError(APIError):
    pass


class RateLimitError(APIError):
    @property
    def retry_after(self) -> Optional[float]:
        """Seconds the server asked to wait (``retry-after``), when it said."""
        try:
            return float(self.headers["retry-after"])
        except (KeyError, ValueError):
            return None


class InternalServerError(APIError):
    pass


_BY_STATUS = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def api_error(status: int, body: Any, headers: Optional[Mapping[str, str]] = None) -> APIError:
    """The typed error for a status and body (a body that is not the API's shape is wrapped in one)."""
    inner = body.get("error") if isinstance(body, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("message"), str):
        error = {"message": inner["message"], "type": inner.get("type", "api_error"), "param": inner.get("param"), "code": inner.get("code")}
    else:
        text = body[:500] if isinstance(body, str) and body else f"HTTP {status}"
        error = {"message": text, "type": "server_error" if status >= 500 else "api_error", "param": None, "code": None}
    cls = _BY_STATUS.get(status, InternalServerError if status >= 500 else APIError)
    return cls(status, error, headers)


class APIConnectionError(KbqaError):
    """No answer from the server (refused, reset, DNS): the request may or may not have run."""


class APITimeoutError(APIConnectionError):
    """The request took longer than the client's timeout."""


class DocumentFailedError(KbqaError):
    """A document waited for failed to parse or index. ``documents`` holds every waited-for
    document as it ended; ``failed`` those that did not become ready."""

    def __init__(self, documents: List["Document"]) -> None:
        self.documents = documents
        names = ", ".join(f"{d.name} ({(d.error or {}).get('code', d.status)})" for d in self.failed)
        super().__init__(f"{len(self.failed)} document(s) failed: {names}")

    @property
    def failed(self) -> List["Document"]:
        return [d for d in self.documents if d.status != "ready"]
