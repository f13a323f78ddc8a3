from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Union
from urllib.parse import quote

from ._http import Transport
from ._streams import stream_events
from .errors import APIConnectionError, api_error
from .models import ChatChunk, ChatResult, Citation, QueryResult, Usage, context_of

Message = Dict[str, str]


class Chat:
    def __init__(self, transport: Transport, default_model: str) -> None:
        self._t = transport
        self._default_model = default_model

    def _body(
        self,
        messages: List[Message],
        model: Optional[str],
        knowledge_base_id: Union[str, List[str], None],
        temperature: Optional[float],
        max_tokens: Optional[int],
        filter: Optional[Dict[str, Any]] = None,
        conversation: Optional[str] = None,
    ) -> Dict[str, Any]:
        body: Dict[str, Any] = {"model": model or self._default_model, "messages": messages}
        # A list of ids is the several-knowledge-bases form.
        several = isinstance(knowledge_base_id, list)
        extra = {
            "knowledge_base_ids" if several else "knowledge_base_id": knowledge_base_id,
            "filter": filter,
            "conversation": conversation,
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        body.update({k: v for k, v in extra.items() if v is not None})
        return body

    def create(
        self,
        messages: List[Message],
        *,
        model: Optional[str] = None,
        knowledge_base_id: Union[str, List[str], None] = None,
        temperature: Optional[float] = None,
        max_tokens: Optional[int] = None,
        filter: Optional[Dict[str, Any]] = None,
        conversation: Optional[str] = None,
    ) -> ChatResult:
        """One answer (``POST /v1/chat/completions``); with ``knowledge_base_id`` (an id, or a list of
        ids) it cites the knowledge bases; ``filter`` narrows retrieval (see ``Kbqa.search``);
        ``conversation`` (``conv_...``) continues a server-side conversation: send only the new message."""
        body = self._body(messages, model, knowledge_base_id, temperature, max_tokens, filter, conversation)
        c = self._t.json("POST", "/chat/completions", json_body=body).body
        choice = c["choices"][0]
        return ChatResult(
            id=c["id"],
            model=c["model"],
            content=choice["message"]["content"],
            finish_reason=choice["finish_reason"],
            citations=[Citation.from_api(x) for x in c.get("citations") or []],
            usage=Usage.from_dict(c["usage"]),
            knowledge_base_id=c.get("knowledge_base_id"),
            answerable=c.get("answerable"),
            coverage=c.get("coverage"),
            knowledge_base_ids=c.get("knowledge_base_ids"),
            context=context_of(c.get("context")),
        )

    def stream(
        self,
        messages: List[Message],
        *,
        model: Optional[str] = None,
        knowledge_base_id: Union[str, List[str], None] = None,
        temperature: Optional[float] = None,
        max_tokens: Optional[int] = None,
        include_usage: bool = False,
        filter: Optional[Dict[str, Any]] = None,
        conversation: Optional[str] = None,
    ) -> Iterator[ChatChunk]:
        """The answer as it is generated: ``for chunk in client.chat.stream(...)``. The first chunk
        carries the ``context``, the one with the finish reason the ``citations``; an error the server sends mid-stream is raised as its APIError;
        leaving the loop early closes the connection."""
        body = self._body(messages, model, knowledge_base_id, temperature, max_tokens, filter, conversation)
        body["stream"] = True
        if include_usage:
            body["stream_options"] = {"include_usage": True}
        for event, data in stream_events(self._t, "POST", "/chat/completions", json_body=body):
            if event == "done":
                return
            if event == "error":
                raise api_error(data.get("status", 500), data)
            yield _chunk(data)
        raise APIConnectionError("The chat stream ended before [DONE].")

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
        """SPEC.md's query operation (``POST /v1/chat``): the answer to a question and the passages it
        cites; a list of ids asks several knowledge bases."""
        messages = list(history or []) + [{"role": "user", "content": question}]
        a = self._t.json("POST", "/chat", json_body=self._body(messages, model, knowledge_base_id, None, None, filter, conversation)).body
        citations = [Citation.from_api(c) for c in a["citations"]]
        return QueryResult(id=a["id"], model=a["model"], answer=a["content"], citations=citations, context=context_of(a.get("context")), answerable=a.get("answerable"), coverage=a.get("coverage"))

    def feedback(self, chat_id: str, rating: str, *, comment: Optional[str] = None) -> Dict[str, Any]:
        """Rates a chat's answer (``POST /v1/chat/completions/{id}/feedback``): ``rating`` is ``"up"`` or ``"down"``."""
        body = {"rating": rating, **({"comment": comment} if comment is not None else {})}
        return self._t.json("POST", f"/chat/completions/{quote(chat_id, safe='')}/feedback", json_body=body).body


def _chunk(c: Dict[str, Any]) -> ChatChunk:
    choice = (c.get("choices") or [{}])[0]
    usage = c.get("usage")
    return ChatChunk(
        id=c["id"],
        model=c["model"],
        content=(choice.get("delta") or {}).get("content") or "",
        finish_reason=choice.get("finish_reason"),
        citations=[Citation.from_api(x) for x in c["citations"]] if "citations" in c else None,
        knowledge_base_id=c.get("knowledge_base_id"),
        usage=Usage.from_dict(usage) if usage else None,
        knowledge_base_ids=c.get("knowledge_base_ids"),
        context=context_of(c["context"]) if "context" in c else None,
    )
