"""Python client of the KBQA API (standard library only).

    from kbqa import Kbqa
    client = Kbqa("http://localhost:2678/v1", "kbqa-...")
    result = client.query("kb_...", "How long is a Zephyr-9 blade?")
    result.answer, [(c.source, c.page, c.text) for c in result.citations]
    run = client.run_workflow("wf_...", {"question": "..."}, mode="blocking")
"""
from ._retry import RetryPolicy
from .client import DEFAULT_BASE_URL, Kbqa, __version__, normalise_base_url
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DocumentFailedError,
    InternalServerError,
    KbqaError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
    UnsupportedMediaTypeError,
)
from .models import (
    ChatChunk,
    ChatResult,
    Chunk,
    Citation,
    Deleted,
    Document,
    KnowledgeBase,
    Model,
    Page,
    QueryResult,
    RetryInfo,
    SearchResponse,
    SearchResult,
    ServerEvent,
    UploadProgress,
    Usage,
    Workflow,
    WorkflowRun,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "Kbqa",
    "RetryPolicy",
    "__version__",
    "normalise_base_url",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DocumentFailedError",
    "InternalServerError",
    "KbqaError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "UnprocessableEntityError",
    "UnsupportedMediaTypeError",
    "ChatChunk",
    "ChatResult",
    "Chunk",
    "Citation",
    "Deleted",
    "Document",
    "KnowledgeBase",
    "Model",
    "Page",
    "QueryResult",
    "RetryInfo",
    "SearchResponse",
    "SearchResult",
    "ServerEvent",
    "UploadProgress",
    "Usage",
    "Workflow",
    "WorkflowRun",
]
