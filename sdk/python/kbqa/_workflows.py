from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Union
from urllib.parse import quote

from ._documents import idempotency_header
from ._http import Transport
from ._streams import stream_events
from .errors import APIConnectionError, APITimeoutError, api_error
from .models import Deleted, Page, ServerEvent, Workflow, WorkflowRun

MODES = ("blocking", "streaming", "async")


def _choices(version: Union[str, int, None], from_node: Optional[Dict[str, str]]) -> Dict[str, Any]:
    """Which version runs and where it starts, sent only when asked for."""
    return {k: v for k, v in (("version", version), ("from", from_node)) if v is not None}


class Workflows:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    @staticmethod
    def _path(workflow_id: str) -> str:
        return f"/workflows/{quote(workflow_id, safe='')}"

    def create(
        self,
        name: str,
        *,
        graph: Optional[Dict[str, Any]] = None,
        template: Optional[str] = None,
        knowledge_base_id: Optional[str] = None,
        model: Optional[str] = None,
        description: Optional[str] = None,
    ) -> Workflow:
        """A graph ``{nodes, edges}``, or ``template="knowledge-qa"`` with ``knowledge_base_id``; checked when saved."""
        fields = {"name": name, "graph": graph, "template": template, "knowledge_base_id": knowledge_base_id, "model": model, "description": description}
        body = {k: v for k, v in fields.items() if v is not None}
        return Workflow.from_dict(self._t.json("POST", "/workflows", json_body=body).body)

    def list(self, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None) -> Page[Workflow]:
        body = self._t.json("GET", "/workflows", query={"limit": limit, "after": after, "order": order}).body
        return Page([Workflow.from_dict(w) for w in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))

    def get(self, workflow_id: str) -> Workflow:
        return Workflow.from_dict(self._t.json("GET", self._path(workflow_id)).body)

    def update(self, workflow_id: str, *, name: str, graph: Dict[str, Any], description: Optional[str] = None, if_match: Optional[int] = None) -> Workflow:
        """Replaces name, description and graph: a new draft version (runs already started keep theirs).

        ``if_match``: the version edited; a save made since raises ConflictError (409) and saves nothing."""
        body: Dict[str, Any] = {"name": name, "graph": graph}
        if description is not None:
            body["description"] = description
        headers = {} if if_match is None else {"if-match": f'"{if_match}"'}
        return Workflow.from_dict(self._t.json("PUT", self._path(workflow_id), json_body=body, headers=headers).body)

    def publish(self, workflow_id: str) -> Workflow:
        """The draft becomes the version runs and agents take by default."""
        return Workflow.from_dict(self._t.json("POST", f"{self._path(workflow_id)}/publish").body)

    def versions(self, workflow_id: str) -> List[Dict[str, Any]]:
        """Every saved version, newest first: ``{version, name, graph, saved_at, published_at}``."""
        return list(self._t.json("GET", f"{self._path(workflow_id)}/versions").body["data"])

    def validate(self, graph: Dict[str, Any]) -> Dict[str, Any]:
        """Every fault of a graph at once, each on its node, without saving: ``{valid, errors: [{node_id, code, message, param}]}``."""
        return dict(self._t.json("POST", "/workflows/validate", json_body={"graph": graph}).body)

    def list_runs(self, workflow_id: str, *, limit: Optional[int] = None, after: Optional[str] = None) -> Page[WorkflowRun]:
        body = self._t.json("GET", f"{self._path(workflow_id)}/runs", query={"limit": limit, "after": after}).body
        return Page([WorkflowRun.from_dict(r) for r in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))

    def trace(self, run_id: str) -> List[Dict[str, Any]]:
        """Every node attempt of a run in order: ``{node_id, node_type, attempt, status, inputs, outputs, error, elapsed_ms, reused_from, …}``."""
        return list(self._t.json("GET", f"/workflow-runs/{quote(run_id, safe='')}/trace").body["data"])

    def run_node(self, workflow_id: str, node_id: str, inputs: Optional[Dict[str, Dict[str, Any]]] = None, *, version: Union[str, int, None] = None) -> Dict[str, Any]:
        """One node alone, given the outputs of the nodes it references (``{node_id: {field: value}}``); nothing is recorded."""
        body: Dict[str, Any] = {"inputs": inputs or {}}
        if version is not None:
            body["version"] = version
        return dict(self._t.json("POST", f"{self._path(workflow_id)}/nodes/{quote(node_id, safe='')}/run", json_body=body).body)

    def delete(self, workflow_id: str) -> Deleted:
        return Deleted.from_dict(self._t.json("DELETE", self._path(workflow_id)).body)

    def get_run(self, run_id: str) -> WorkflowRun:
        return WorkflowRun.from_dict(self._t.json("GET", f"/workflow-runs/{quote(run_id, safe='')}").body)

    def wait_for_run(self, run_id: str, *, timeout: float = 600.0, poll_interval: float = 0.25) -> WorkflowRun:
        """Polls a run until it has succeeded or failed."""
        deadline = time.monotonic() + timeout
        while True:
            run = self.get_run(run_id)
            if run.finished:
                return run
            if time.monotonic() > deadline:
                raise APITimeoutError(f"Run {run_id} still {run.status} after {timeout} s.")
            time.sleep(poll_interval)

    def stream(
        self,
        workflow_id: str,
        inputs: Optional[Dict[str, Any]] = None,
        *,
        idempotency_key: Union[str, bool, None] = None,
        version: Union[str, int, None] = None,
        from_node: Optional[Dict[str, str]] = None,
    ) -> Iterator[ServerEvent]:
        """The run's node events as the server records them, ending with ``ServerEvent("workflow_run", <the run as a dict>)``."""
        body = {"inputs": inputs or {}, "response_mode": "streaming", **_choices(version, from_node)}
        path = f"{self._path(workflow_id)}/run"
        for event, data in stream_events(self._t, "POST", path, json_body=body, headers=idempotency_header(idempotency_key)):
            if event == "error":
                raise api_error(500, data)
            yield ServerEvent(event, data)

    def run(
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
        """SPEC.md's workflow run: the workflow's id and an inputs object, answered with the run.

        ``mode``: ``blocking`` (default) returns the finished run (if the server's own wait runs out
        first, the SDK polls the run until it finishes); ``streaming`` returns the finished run and
        passes each node event to ``on_event`` as it happens; ``async`` returns the run as queued.
        ``idempotency_key``: a fresh one per call by default (a retry then returns the first run); False sends none.
        ``version``: "draft", "published" or a number (by default the published version, else the draft).
        ``from_node``: ``{"run_id": ..., "node_id": ...}`` runs again from that node of an earlier run, reusing what the nodes before it recorded."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if mode == "streaming":
            for event in self.stream(workflow_id, inputs, idempotency_key=idempotency_key, version=version, from_node=from_node):
                if event.event == "workflow_run":
                    return WorkflowRun.from_dict(event.data)
                if on_event is not None:
                    on_event(event)
            raise APIConnectionError("The run stream ended before the run.")
        body = {"inputs": inputs or {}, "response_mode": mode, **_choices(version, from_node)}
        answer = self._t.json("POST", f"{self._path(workflow_id)}/run", json_body=body, headers=idempotency_header(idempotency_key))
        run = WorkflowRun.from_dict(answer.body)
        return self.wait_for_run(run.id) if mode == "blocking" and not run.finished else run
