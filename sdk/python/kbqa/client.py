from __future__ import annotations

import dataclasses
import os
import platform
from typing import Any, Callable, Dict, List, Optional, Union
from urllib.parse import quote

from ._chat import Chat, Message
from ._conversations import Conversations
from ._documents import Documents
from ._http import Transport
from ._knowledge_bases import KnowledgeBases, Models
from ._retry import RetryPolicy
from ._agents import Agents
from ._workflows import Workflows
from .errors import KbqaError
from .models import QueryResult, RetryInfo, SearchResponse, SearchResult, ServerEvent, WorkflowRun

__version__ = "0.1.0"
DEFAULT_BASE_URL = "http://localhost:2678/v1"


def normalise_base_url(url: str) -> str:
    """``https://host/v1/`` and ``https://host`` both become ``https://host/v1``."""
    trimmed = url.strip().rstrip("/")
    return trimmed if trimmed.endswith("/v1") else trimmed + "/v1"


class Kbqa:
    """A client of the KBQA API.

    ``base_url``: the API root, the cloud ``{base_url}`` or ``http://{host}:2678/v1`` (``/v1`` is
    appended when missing); else ``KBQA_BASE_URL``, else localhost. ``api_key``: else ``KBQA_API_KEY``.
    ``timeout``: seconds per attempt (for streams: per read). ``max_retries``: how many times to retry
    after a 429 (any call) or a 5xx or lost connection (idempotent calls); 3, or ``retry.max_retries``
    when a ``RetryPolicy`` is given. ``on_retry`` is called before each retry.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = 60.0,
        max_retries: Optional[int] = None,
        retry: Optional[RetryPolicy] = None,
        default_model: str = "kbqa-extractive",
        on_retry: Optional[Callable[[RetryInfo], None]] = None,
    ) -> None:
        key = api_key or os.environ.get("KBQA_API_KEY")
        if not key:
            raise KbqaError("No API key: pass api_key or set KBQA_API_KEY.")
        self.base_url = normalise_base_url(base_url or os.environ.get("KBQA_BASE_URL") or DEFAULT_BASE_URL)
        policy = retry or RetryPolicy()
        if max_retries is not None:
            policy = dataclasses.replace(policy, max_retries=max_retries)
        user_agent = f"kbqa-sdk-python/{__version__} python/{platform.python_version()}"
        self._transport = Transport(self.base_url, key, timeout, policy, user_agent, on_retry)
        self.models = Models(self._transport)
        self.knowledge_bases = KnowledgeBases(self._transport)
        self.documents = Documents(self._transport)
        self.chat = Chat(self._transport, default_model)
        self.conversations = Conversations(self._transport)
        self.workflows = Workflows(self._transport)
        self.agents = Agents(self._transport)

    def query(
        self,
        knowledge_base_id: Union[str, List[str]],
        question: str,
        *,
        model: Optional[str] = None,
        history: Optional[List[Message]] = None,
        filter: Optional[Dict[str, Any]] = None,
        conversation: Optional[str] = None,
    ) -> QueryResult:
        """Asks a knowledge base (or several: a list of ids) a question:
        ``QueryResult(answer, citations=[Citation(source, page, text, knowledge_base_id, ...)])``."""
        return self.chat.query(knowledge_base_id, question, model=model, history=history, filter=filter, conversation=conversation)

    def run_workflow(
        self,
        workflow_id: str,
        inputs: Optional[Dict[str, Any]] = None,
        *,
        mode: str = "blocking",
        on_event: Optional[Callable[[ServerEvent], None]] = None,
        idempotency_key: Union[str, bool, None] = None,
        version: Union[str, int, None] = None,
        from_node: Optional[Dict[str, str]] = None,
    ) -> WorkflowRun:
        """Runs a workflow with its inputs and returns the run (see ``Workflows.run`` for the modes, ``version`` and ``from_node``)."""
        return self.workflows.run(workflow_id, inputs, mode=mode, on_event=on_event, idempotency_key=idempotency_key, version=version, from_node=from_node)

    def search(
        self,
        knowledge_base_id: Union[str, List[str]],
        query: str,
        *,
        top_k: Optional[int] = None,
        score_threshold: Optional[float] = None,
        mode: Optional[str] = None,
        rerank: Optional[bool] = None,
        filter: Optional[Dict[str, Any]] = None,
        explain: Optional[bool] = None,
        include: Optional[List[str]] = None,
    ) -> SearchResponse:
        """Retrieval only: the knowledge base's best passages for a query, with scores. A list of ids
        searches them all (``POST /v1/search``), each result naming its ``knowledge_base_id``.
        ``filter``: OpenAI's grammar, ``{"type": "and", "filters": [{"type": "gt", "key": "year", "value": 2020}, ...]}``
        (eq, ne, gt, gte, lt, lte, in, nin, and, or), or ``{"document_ids": [...], "metadata": {key: value or [values]}}``.
        ``include``: the optional parts to send (``"paragraph"``, ``"heading_path"``, ``"boxes"``, ``"scores"``,
        ``"coverage_terms"``); ``[]`` for ids, source, page and score only. Left out: the passage parts, and the
        explain data with ``explain``."""
        options = {"top_k": top_k, "score_threshold": score_threshold, "mode": mode, "rerank": rerank, "filter": filter, "explain": explain, "include": include}
        body: Dict[str, Any] = {"query": query, **{k: v for k, v in options.items() if v is not None}}
        if isinstance(knowledge_base_id, list):
            body["knowledge_base_ids"] = knowledge_base_id
            path = "/search"
        else:
            path = f"/knowledge-bases/{quote(knowledge_base_id, safe='')}/search"
        # Search changes nothing on the server, so a 5xx may be retried like a GET.
        answer = self._transport.json("POST", path, json_body=body, idempotent=True).body
        results = [SearchResult.from_dict(r) for r in answer["data"]]
        return SearchResponse(
            results,
            answer.get("knowledge_base_id"),
            answer["mode"],
            answer["rerank"],
            answer.get("answerable"),
            answer.get("coverage"),
            answer.get("knowledge_base_ids"),
        )
