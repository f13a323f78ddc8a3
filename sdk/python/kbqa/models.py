"""Results as dataclasses. Field names are the API's (snake_case, API.md), with one exception
SPEC.md asks for: a citation carries ``text`` where the API says ``paragraph``. Each result keeps
the object it was built from in ``raw`` (fields a newer server adds are there)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Optional, Type, TypeVar

T = TypeVar("T")
R = TypeVar("R", bound="_Result")


@dataclass
class _Result:
    @classmethod
    def from_dict(cls: Type[R], data: Dict[str, Any], **overrides: Any) -> R:
        """Picks the fields this class has (missing ones are None), then applies ``overrides``."""
        values = {f.name: data.get(f.name) for f in dataclasses.fields(cls) if f.name != "raw"}
        values.update(overrides)
        return cls(**values, raw=data)  # type: ignore[call-arg]


def _raw() -> Any:
    return field(default_factory=dict, repr=False, compare=False)


@dataclass
class Page(Generic[T]):
    """A list as the API pages it: continue with ``after=page.last_id``."""

    data: List[T]
    has_more: bool
    first_id: Optional[str] = None
    last_id: Optional[str] = None


@dataclass
class Deleted(_Result):
    id: str
    object: str
    deleted: bool
    raw: Dict[str, Any] = _raw()


@dataclass
class Model(_Result):
    id: str
    created: int
    owned_by: str
    """``kbqa`` (the offline models), ``deployment`` (the environment's providers), the name of
    the workspace's model provider whose model this is (its id is then ``{provider}/{model}``), or
    ``agent`` for a published agent (its id is ``agt_…``)."""
    type: Optional[str]
    """``chat``, ``embedding``, ``rerank`` or ``agent``: what the model is for (None from a server that does not say)."""
    raw: Dict[str, Any] = _raw()


@dataclass
class KnowledgeBase(_Result):
    id: str
    name: str
    description: Optional[str]
    settings: Dict[str, Any]
    document_count: int
    chunk_count: int
    created_at: str
    updated_at: str
    etag: Optional[str] = None
    """From the ``ETag`` header: pass it back as ``if_match`` for optimistic concurrency."""
    raw: Dict[str, Any] = _raw()


@dataclass
class Document(_Result):
    id: str
    knowledge_base_id: str
    name: str
    media_type: str
    size_bytes: int
    sha256: str
    status: str
    """queued, parsing, indexing, ready or failed."""
    metadata: Dict[str, Any]
    page_count: Optional[int]
    page_estimated: Optional[bool]
    """True when page_count and chunk pages are estimated (the file does not say where its pages break)."""
    chunk_count: Optional[int]
    ocr_pages: List[int]
    warnings: List[str]
    error: Optional[Dict[str, str]]
    """``{stage, code, message, detail?}`` when failed (the codes: docs/api/documents.md, why a document failed)."""
    timings: Dict[str, Any]
    created_at: str
    updated_at: str
    parent_document_id: Optional[str] = None
    """The email this document was attached to (attachments become documents of their own); None for an uploaded file."""
    raw: Dict[str, Any] = _raw()


@dataclass
class Chunk(_Result):
    id: str
    document_id: str
    index: int
    source: str
    page: int
    paragraph: str
    heading_path: List[str]
    char_start: int
    char_end: int
    token_count: int
    boxes: List[Dict[str, float]]
    """The chunk's lines on ``page``: ``{x0, y0, x1, y1, start}``, fractions of the page from its top left
    (``start``: the line's offset in ``paragraph``); empty for formats without page layout."""
    raw: Dict[str, Any] = _raw()


@dataclass
class SearchResult(_Result):
    chunk_id: str
    document_id: str
    source: str
    page: int
    paragraph: Optional[str]
    """The passage; None when the search's ``include`` leaves it out (likewise heading_path and boxes)."""
    heading_path: Optional[List[str]]
    boxes: Optional[List[Dict[str, float]]]
    """The chunk's lines on ``page`` (see ``Chunk.boxes``)."""
    score: float
    scores: Optional[Dict[str, Optional[float]]]
    """Every stage's score, with ``explain=True``."""
    knowledge_base_id: Optional[str] = None
    """The knowledge base of the document (None from servers before multi-knowledge-base search)."""
    raw: Dict[str, Any] = _raw()


@dataclass
class SearchResponse:
    data: List[SearchResult]
    knowledge_base_id: Optional[str]
    """The knowledge base searched; None when several were (see ``knowledge_base_ids``)."""
    mode: str
    rerank: bool
    answerable: Optional[bool] = None
    coverage: Optional[float] = None
    knowledge_base_ids: Optional[List[str]] = None


@dataclass
class Citation(_Result):
    """A cited passage: ``source`` is the document's file name, ``page`` 1-based, ``text`` the passage."""

    index: int
    source: str
    page: int
    text: str
    document_id: str
    chunk_id: str
    score: float
    quote: Optional[Dict[str, Any]]
    """``{text, start, end}``: the span of ``text`` the citing statement rests on; None when none of its
    sentences matches it (a loose paraphrase), and always None in a chat's ``context``."""
    heading_path: List[str]
    char_start: int
    """The span the citation points at, as offsets in the page's text (as chunks count): the quote's when there is one, else the whole passage."""
    char_end: int
    boxes: List[Dict[str, float]]
    """Where that span sits on ``page``: ``{x0, y0, x1, y1, start}`` per line, fractions of the page from its top left;
    empty for formats without page layout. ``documents.page_image(..., highlight=chunk_id)`` draws them."""
    knowledge_base_id: Optional[str] = None
    """The knowledge base of the document (None from servers before multi-knowledge-base chat)."""
    raw: Dict[str, Any] = _raw()

    @classmethod
    def from_api(cls, data: Dict[str, Any]) -> "Citation":
        text = data.get("paragraph") or ""
        # Servers from before the citation contract send none of these.
        return cls.from_dict(
            data,
            text=text,
            heading_path=data.get("heading_path") or [],
            char_start=data.get("char_start", 0),
            char_end=data.get("char_end", len(text)),
            boxes=data.get("boxes") or [],
        )


@dataclass
class ContextPassage(Citation):
    """A passage the model was given, cited or not, as retrieved (its span the whole passage, ``quote``
    None): the chat's retrieval ``context``. ``index`` is its marker: the citation with the same
    ``index`` is this passage."""

    @classmethod
    def from_api(cls, data: Dict[str, Any]) -> "ContextPassage":
        return super().from_api(data)  # type: ignore[return-value]


def context_of(passages: Optional[List[Dict[str, Any]]]) -> List[ContextPassage]:
    """A response's ``context``; servers before the field send none."""
    return [ContextPassage.from_api(p) for p in passages or []]


@dataclass
class Usage(_Result):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    raw: Dict[str, Any] = _raw()


@dataclass
class QueryResult:
    """The result of ``query``: the answer, the passages it cites, and every passage the model was given."""

    id: str
    model: str
    answer: str
    citations: List[Citation]
    """The passages the answer cites: one per ``[n]`` marker it writes, ``index`` being n."""
    context: List[ContextPassage] = field(default_factory=list)
    """Every passage the model was given, numbered as the prompt numbers them, cited or not."""
    answerable: Optional[bool] = None
    """False when the knowledge base does not cover the question: the answer says so and cites nothing."""
    coverage: Optional[float] = None


@dataclass
class ChatResult:
    id: str
    model: str
    content: str
    finish_reason: str
    citations: List[Citation]
    """The passages the answer cites: one per ``[n]`` marker it writes, ``index`` being n."""
    usage: Usage
    knowledge_base_id: Optional[str]
    answerable: Optional[bool] = None
    coverage: Optional[float] = None
    knowledge_base_ids: Optional[List[str]] = None
    context: List[ContextPassage] = field(default_factory=list)
    """Every passage the model was given, numbered as the prompt numbers them, cited or not."""


@dataclass
class ChatChunk:
    """One event of a streamed chat: the first carries ``context``; the one with ``finish_reason``
    the ``citations``, then ``usage`` when asked for."""

    id: str
    model: str
    content: str
    """The text this chunk adds ('' when it adds none)."""
    finish_reason: Optional[str] = None
    citations: Optional[List[Citation]] = None
    """With the finish reason: the passages the answer cites."""
    knowledge_base_id: Optional[str] = None
    usage: Optional[Usage] = None
    knowledge_base_ids: Optional[List[str]] = None
    context: Optional[List[ContextPassage]] = None
    """On the first chunk: every passage the model is given."""


@dataclass
class Workflow(_Result):
    id: str
    name: str
    description: Optional[str]
    graph: Dict[str, Any]
    version: int
    """The draft's version: each save adds one."""
    published_version: Optional[int]
    """The version runs take unless they name one; None until published (then the draft runs)."""
    created_at: str
    updated_at: str
    raw: Dict[str, Any] = _raw()


@dataclass
class WorkflowRun(_Result):
    id: str
    workflow_id: str
    workflow_version: int
    status: str
    """queued, running, succeeded or failed."""
    inputs: Dict[str, Any]
    outputs: Optional[Dict[str, Any]]
    node_runs: List[Dict[str, Any]]
    error: Optional[Dict[str, Any]]
    created_at: str
    started_at: Optional[str]
    finished_at: Optional[str]
    elapsed_ms: Optional[float]
    raw: Dict[str, Any] = _raw()

    @property
    def finished(self) -> bool:
        return self.status in ("succeeded", "failed")

    @property
    def answer(self) -> Optional[str]:
        """``outputs.answer``: what the run's direct_reply node answered."""
        return (self.outputs or {}).get("answer")

    @property
    def citations(self) -> List[Citation]:
        """``outputs.citations`` of the last retrieval that ran, as SDK citations."""
        return [Citation.from_api(c) for c in (self.outputs or {}).get("citations") or []]


@dataclass
class ServerEvent:
    """A server-sent event: ``event`` is its name, ``data`` its parsed JSON."""

    event: str
    data: Any


@dataclass
class UploadProgress:
    """One step of one document on its way to ``ready``, and how many of the waited-for documents have settled."""

    document_id: str
    name: str
    status: str
    event: str
    """``document`` (its state when the stream opened), a lifecycle event (``DocumentParsed`` ...) or ``progress``."""
    settled: int
    total: int
    pages_parsed: Optional[int] = None
    page_count: Optional[int] = None
    chunks_indexed: Optional[int] = None
    chunk_count: Optional[int] = None


@dataclass(frozen=True)
class RetryInfo:
    """What a retry reports to ``on_retry``: the attempt that failed (0-based), why, and the wait before the next."""

    attempt: int
    delay: float
    method: str
    path: str
    status: Optional[int]
    error: Exception


@dataclass
class Agent(_Result):
    """An agent's draft, and which version its landing page answers from (``published_version``, ``public_url``)."""

    id: str
    name: str
    status: str
    """draft or published."""
    published_version: Optional[int]
    public_url: Optional[str]
    model: str
    instructions: Optional[str]
    knowledge_base_ids: List[str]
    workflow_id: Optional[str]
    opening_message: Optional[str]
    suggested_questions: List[str]
    retrieval: Dict[str, Any]
    public: Dict[str, Any]
    """``access_code_set`` (never the code), ``allowed_origins``, ``daily_message_cap``, ``visitor_daily_message_cap``."""
    created_at: str
    updated_at: str
    raw: Dict[str, Any] = _raw()


@dataclass
class AgentVersion(_Result):
    """A published version: the agent as it was when published, immutable."""

    agent_id: str
    version: int
    published_at: str
    name: str
    model: str
    instructions: Optional[str]
    knowledge_base_ids: List[str]
    raw: Dict[str, Any] = _raw()


@dataclass
class AgentPublication(_Result):
    agent_id: str
    version: int
    public_url: str
    """``/a/{slug}`` on the server."""
    embed: Dict[str, str]
    """``iframe`` and ``script`` snippets for a web page."""
    raw: Dict[str, Any] = _raw()
