from __future__ import annotations

from typing import Any, Dict, List, Optional
from urllib.parse import quote

from ._http import Transport
from .models import Deleted, Page

Item = Dict[str, Any]


class ConversationItems:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self, conversation_id: str, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None) -> Page[Item]:
        """The conversation's items (OpenAI's message items, as dicts), newest first unless ``order="asc"``."""
        body = self._t.json("GET", f"{_path(conversation_id)}/items", query={"limit": limit, "after": after, "order": order}).body
        return Page(body["data"], body["has_more"], body.get("first_id"), body.get("last_id"))

    def create(self, conversation_id: str, items: List[Item]) -> Page[Item]:
        """Adds up to 20 items, e.g. ``[{"role": "user", "content": "Hello"}]``."""
        body = self._t.json("POST", f"{_path(conversation_id)}/items", json_body={"items": items}).body
        return Page(body["data"], body["has_more"], body.get("first_id"), body.get("last_id"))

    def get(self, conversation_id: str, item_id: str) -> Item:
        return self._t.json("GET", _item(conversation_id, item_id)).body

    def delete(self, conversation_id: str, item_id: str) -> Dict[str, Any]:
        """Answers with the conversation the item was deleted from."""
        return self._t.json("DELETE", _item(conversation_id, item_id)).body

    def feedback(self, conversation_id: str, item_id: str, rating: str, *, comment: Optional[str] = None) -> Dict[str, Any]:
        """Rates the chat that added the item (its question or its answer): ``rating`` is ``"up"`` or ``"down"``."""
        body = {"rating": rating, **({"comment": comment} if comment is not None else {})}
        return self._t.json("POST", f"{_item(conversation_id, item_id)}/feedback", json_body=body).body


class Conversations:
    """Conversations kept by the server (OpenAI's Conversations API): pass ``conversation=`` to
    ``chat.create``, ``chat.stream`` or ``query`` and send only the new message."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport
        self.items = ConversationItems(transport)

    def create(self, *, items: Optional[List[Item]] = None, metadata: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        fields = {"items": items, "metadata": metadata}
        return self._t.json("POST", "/conversations", json_body={k: v for k, v in fields.items() if v is not None}).body

    def get(self, conversation_id: str) -> Dict[str, Any]:
        return self._t.json("GET", _path(conversation_id)).body

    def update(self, conversation_id: str, metadata: Dict[str, str]) -> Dict[str, Any]:
        """Replaces the conversation's metadata."""
        return self._t.json("POST", _path(conversation_id), json_body={"metadata": metadata}).body

    def delete(self, conversation_id: str) -> Deleted:
        return Deleted.from_dict(self._t.json("DELETE", _path(conversation_id)).body)


def _path(conversation_id: str) -> str:
    return f"/conversations/{quote(conversation_id, safe='')}"


def _item(conversation_id: str, item_id: str) -> str:
    return f"{_path(conversation_id)}/items/{quote(item_id, safe='')}"
