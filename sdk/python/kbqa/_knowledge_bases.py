from __future__ import annotations

from typing import Any, Dict, Optional
from urllib.parse import quote

from ._http import Response, Transport
from .models import Deleted, KnowledgeBase, Model, Page


def _page(body: Dict[str, Any], item: Any) -> Page[Any]:
    return Page([item(d) for d in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))


class Models:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self) -> Page[Model]:
        """The chat, embedding and rerank models this deployment can use."""
        return _page(self._t.json("GET", "/models").body, Model.from_dict)

    def get(self, model_id: str) -> Model:
        return Model.from_dict(self._t.json("GET", f"/models/{quote(model_id, safe='')}").body)


def _kb(response: Response) -> KnowledgeBase:
    return KnowledgeBase.from_dict(response.body, etag=response.headers.get("etag"))


def _if_match(if_match: Optional[str]) -> Dict[str, str]:
    return {"If-Match": if_match} if if_match else {}


class KnowledgeBases:
    """``if_match``: an ``etag`` this SDK returned; a stale one is a ConflictError (409) and changes nothing."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    @staticmethod
    def _path(kb_id: str) -> str:
        return f"/knowledge-bases/{quote(kb_id, safe='')}"

    def create(self, name: str, *, description: Optional[str] = None, settings: Optional[Dict[str, Any]] = None) -> KnowledgeBase:
        body: Dict[str, Any] = {"name": name}
        if description is not None:
            body["description"] = description
        if settings is not None:
            body["settings"] = settings
        return _kb(self._t.json("POST", "/knowledge-bases", json_body=body))

    def list(self, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None) -> Page[KnowledgeBase]:
        """Newest first unless ``order="asc"``; continue with ``after=page.last_id``."""
        body = self._t.json("GET", "/knowledge-bases", query={"limit": limit, "after": after, "order": order}).body
        return _page(body, KnowledgeBase.from_dict)

    def get(self, kb_id: str) -> KnowledgeBase:
        return _kb(self._t.json("GET", self._path(kb_id)))

    def update(
        self,
        kb_id: str,
        *,
        name: Optional[str] = None,
        description: Optional[str] = None,
        settings: Optional[Dict[str, Any]] = None,
        if_match: Optional[str] = None,
    ) -> KnowledgeBase:
        """Name, description or settings; the server deep-merges ``settings`` over the current ones."""
        body = {k: v for k, v in {"name": name, "description": description, "settings": settings}.items() if v is not None}
        return _kb(self._t.json("PATCH", self._path(kb_id), json_body=body, headers=_if_match(if_match)))

    def reindex(self, kb_id: str) -> Dict[str, Any]:
        """Re-embeds every ready document with the knowledge base's current embedding model (after
        changing ``settings["embedding_model"]``): queued at once, done by a worker. Returns the
        re-index (``status``, ``done``, ``total`` …); follow it with ``get(kb_id).raw["reindex"]``.
        A ConflictError (409) while one is under way."""
        return self._t.json("POST", f"{self._path(kb_id)}/reindex").body

    def delete(self, kb_id: str, *, if_match: Optional[str] = None) -> Deleted:
        return Deleted.from_dict(self._t.json("DELETE", self._path(kb_id), headers=_if_match(if_match)).body)
