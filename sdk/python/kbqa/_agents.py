from __future__ import annotations

from typing import Any, Dict, List, Optional
from urllib.parse import quote

from ._http import Transport
from .models import Agent, AgentPublication, AgentVersion, Deleted, Page

# A sentinel for PATCH: None is a value the API takes (it clears a field), so "not given" needs its own.
_UNSET: Any = object()


class Agents:
    """Agents: a draft edited with ``update``, immutable versions made by ``publish``. ``model="agt_…"`` in chat talks to one."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    @staticmethod
    def _path(agent_id: str) -> str:
        return f"/agents/{quote(agent_id, safe='')}"

    def create(
        self,
        name: str,
        *,
        model: str,
        instructions: Optional[str] = None,
        knowledge_base_ids: Optional[List[str]] = None,
        workflow_id: Optional[str] = None,
        opening_message: Optional[str] = None,
        suggested_questions: Optional[List[str]] = None,
        retrieval: Optional[Dict[str, Any]] = None,
        public: Optional[Dict[str, Any]] = None,
    ) -> Agent:
        """``public`` may hold ``access_code`` (stored only as a hash), ``allowed_origins`` and the daily caps."""
        fields = {
            "name": name,
            "model": model,
            "instructions": instructions,
            "knowledge_base_ids": knowledge_base_ids,
            "workflow_id": workflow_id,
            "opening_message": opening_message,
            "suggested_questions": suggested_questions,
            "retrieval": retrieval,
            "public": public,
        }
        body = {k: v for k, v in fields.items() if v is not None}
        return Agent.from_dict(self._t.json("POST", "/agents", json_body=body).body)

    def list(self, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None) -> Page[Agent]:
        body = self._t.json("GET", "/agents", query={"limit": limit, "after": after, "order": order}).body
        return Page([Agent.from_dict(a) for a in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))

    def get(self, agent_id: str) -> Agent:
        return Agent.from_dict(self._t.json("GET", self._path(agent_id)).body)

    def update(
        self,
        agent_id: str,
        *,
        name: Any = _UNSET,
        model: Any = _UNSET,
        instructions: Any = _UNSET,
        knowledge_base_ids: Any = _UNSET,
        workflow_id: Any = _UNSET,
        opening_message: Any = _UNSET,
        suggested_questions: Any = _UNSET,
        retrieval: Any = _UNSET,
        public: Any = _UNSET,
    ) -> Agent:
        """Changes the draft: only the fields given (None clears the ones that may be null). The published version stays."""
        fields = {
            "name": name,
            "model": model,
            "instructions": instructions,
            "knowledge_base_ids": knowledge_base_ids,
            "workflow_id": workflow_id,
            "opening_message": opening_message,
            "suggested_questions": suggested_questions,
            "retrieval": retrieval,
            "public": public,
        }
        body = {k: v for k, v in fields.items() if v is not _UNSET}
        return Agent.from_dict(self._t.json("PATCH", self._path(agent_id), json_body=body).body)

    def delete(self, agent_id: str) -> Deleted:
        return Deleted.from_dict(self._t.json("DELETE", self._path(agent_id)).body)

    def publish(self, agent_id: str) -> AgentPublication:
        """Freezes the draft as the next version; the landing page (``public_url``) and ``model="agt_…"`` answer from it."""
        return AgentPublication.from_dict(self._t.json("POST", f"{self._path(agent_id)}/publish").body)

    def unpublish(self, agent_id: str) -> Agent:
        return Agent.from_dict(self._t.json("POST", f"{self._path(agent_id)}/unpublish").body)

    def versions(self, agent_id: str, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None) -> Page[AgentVersion]:
        body = self._t.json("GET", f"{self._path(agent_id)}/versions", query={"limit": limit, "after": after, "order": order}).body
        return Page([AgentVersion.from_dict(v) for v in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))
