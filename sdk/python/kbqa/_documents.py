from __future__ import annotations

import json
import time
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Union
from urllib.parse import quote

from . import _multipart
from ._http import Transport
from ._streams import stream_events
from .errors import APITimeoutError, DocumentFailedError, KbqaError
from .models import Chunk, Deleted, Document, Page, ServerEvent, UploadProgress

ProgressCallback = Callable[[UploadProgress], None]

_STATUS_OF = {
    "DocumentUploaded": "queued",
    "DocumentParsingStarted": "parsing",
    "DocumentChunksExtracted": "parsing",
    "DocumentParsed": "indexing",
    "DocumentIndexed": "ready",
    "DocumentFailed": "failed",
}
_COUNTS = ("pages_parsed", "page_count", "chunks_indexed", "chunk_count")
_SETTLED = ("ready", "failed")
_RECONNECTS = 5


def new_idempotency_key() -> str:
    """A fresh Idempotency-Key: the server answers a retry of the same request with its first result."""
    return f"kbqa-sdk-{uuid.uuid4()}"


def idempotency_header(key: Union[str, bool, None]) -> Dict[str, str]:
    if key is False:
        return {}
    return {"Idempotency-Key": key if isinstance(key, str) else new_idempotency_key()}


class Documents:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    @staticmethod
    def _base(kb_id: str) -> str:
        return f"/knowledge-bases/{quote(kb_id, safe='')}/documents"

    def _one(self, kb_id: str, doc_id: str) -> str:
        return f"{self._base(kb_id)}/{quote(doc_id, safe='')}"

    def upload(
        self,
        kb_id: str,
        files: Union[_multipart.FileInput, Sequence[_multipart.FileInput]],
        *,
        metadata: Optional[Dict[str, Any]] = None,
        chunking: Optional[Dict[str, int]] = None,
        idempotency_key: Union[str, bool, None] = None,
        wait: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        wait_timeout: float = 600.0,
    ) -> List[Document]:
        """Multipart upload of one or more files: paths, open binary files, ``(name, bytes)`` or
        ``(name, bytes, content_type)``. Returns the documents ``queued``, or with ``wait=True`` once
        each is ready (a failed one raises DocumentFailedError), calling ``on_progress`` on the way.
        ``idempotency_key``: a fresh one per call by default, which makes the upload safe to retry; False sends none."""
        items = list(files) if isinstance(files, list) else [files]
        fields = [(name, json.dumps(value)) for name, value in (("metadata", metadata), ("chunking", chunking)) if value is not None]
        data, content_type = _multipart.encode([_multipart.read_file(f) for f in items], fields)
        headers = {"Content-Type": content_type, **idempotency_header(idempotency_key)}
        body = self._t.json("POST", self._base(kb_id), data=data, headers=headers).body
        docs = [Document.from_dict(d) for d in body["data"]]
        return self.wait_until_ready(kb_id, docs, on_progress=on_progress, timeout=wait_timeout) if wait else docs

    def upload_text(
        self,
        kb_id: str,
        name: str,
        text: str,
        *,
        metadata: Optional[Dict[str, Any]] = None,
        chunking: Optional[Dict[str, int]] = None,
        idempotency_key: Union[str, bool, None] = None,
        wait: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        wait_timeout: float = 600.0,
    ) -> Document:
        """Plain text or Markdown as a document (``name`` says which: ``notes.md``, ``notes.txt``)."""
        body: Dict[str, Any] = {"name": name, "text": text}
        body.update({k: v for k, v in (("metadata", metadata), ("chunking", chunking)) if v is not None})
        answer = self._t.json("POST", self._base(kb_id), json_body=body, headers=idempotency_header(idempotency_key)).body
        docs = [Document.from_dict(d) for d in answer["data"]]
        return (self.wait_until_ready(kb_id, docs, on_progress=on_progress, timeout=wait_timeout) if wait else docs)[0]

    def wait_until_ready(
        self,
        kb_id: str,
        documents: Union[str, Document, Sequence[Union[str, Document]]],
        *,
        on_progress: Optional[ProgressCallback] = None,
        timeout: float = 600.0,
    ) -> List[Document]:
        """Waits until each document is ready, following its server-sent lifecycle (one after the
        other: each stream opens with the document as it stands) and calling ``on_progress`` on every step.
        Raises DocumentFailedError if one failed, APITimeoutError past ``timeout`` seconds."""
        pending = [documents] if isinstance(documents, (str, Document)) else list(documents)
        deadline = time.monotonic() + timeout
        done: List[Document] = []
        for doc in pending:
            done.append(self._follow(kb_id, doc, deadline, len(done), len(pending), on_progress))
        if any(d.status != "ready" for d in done):
            raise DocumentFailedError(done)
        return done

    def _follow(self, kb_id: str, start: Union[str, Document], deadline: float, settled: int, total: int, on_progress: Optional[ProgressCallback]) -> Document:
        doc_id = start if isinstance(start, str) else start.id
        name = doc_id if isinstance(start, str) else start.name
        for _ in range(_RECONNECTS):
            status: Optional[str] = None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise APITimeoutError(f"Document {doc_id} not settled in time.")
            for event, data in stream_events(self._t, "GET", f"{self._one(kb_id, doc_id)}/events", timeout=remaining):
                if event == "DocumentDeleted":
                    raise KbqaError(f"Document {doc_id} was deleted while waiting for it.")
                # The stream opens with the document as it stands (``document``), then its lifecycle events as they happen.
                if event in ("document", "DocumentUploaded") and isinstance(data.get("name"), str):
                    name = data["name"]
                if event == "document" and isinstance(data.get("status"), str):
                    status = data["status"]
                elif event == "progress":
                    status = "indexing" if data.get("stage") == "indexing" else "parsing"
                elif event in _STATUS_OF:
                    status = _STATUS_OF[event]
                else:
                    continue
                counts = {k: data[k] for k in _COUNTS if isinstance(data.get(k), int)}
                if on_progress is not None:
                    now_settled = settled + (1 if status in _SETTLED else 0)
                    on_progress(UploadProgress(document_id=doc_id, name=name, status=status, event=event, settled=now_settled, total=total, **counts))
                if status in _SETTLED:
                    break
                if time.monotonic() > deadline:
                    raise APITimeoutError(f"Document {doc_id} not settled in time.")
            # The read model follows the event it was built from; give it a moment if it lags.
            for _ in range(40):
                doc = self.get(kb_id, doc_id)
                if doc.status in _SETTLED:
                    return doc
                if status not in _SETTLED:
                    break
                time.sleep(0.05)
        raise KbqaError(f"Lost the event stream of document {doc_id} {_RECONNECTS} times.")

    def list(self, kb_id: str, *, limit: Optional[int] = None, after: Optional[str] = None, order: Optional[str] = None, status: Optional[str] = None) -> Page[Document]:
        body = self._t.json("GET", self._base(kb_id), query={"limit": limit, "after": after, "order": order, "status": status}).body
        return Page([Document.from_dict(d) for d in body["data"]], body["has_more"], body.get("first_id"), body.get("last_id"))

    def get(self, kb_id: str, doc_id: str) -> Document:
        return Document.from_dict(self._t.json("GET", self._one(kb_id, doc_id)).body)

    def chunks(self, kb_id: str, doc_id: str, *, limit: Optional[int] = None, after: Optional[int] = None) -> Page[Chunk]:
        """The document's chunks in order; continue with ``after=<last chunk's index>``."""
        body = self._t.json("GET", f"{self._one(kb_id, doc_id)}/chunks", query={"limit": limit, "after": after}).body
        return Page([Chunk.from_dict(c) for c in body["data"]], body["has_more"])

    def page_image(
        self,
        kb_id: str,
        doc_id: str,
        page: int,
        *,
        highlight: Optional[str] = None,
        char_start: Optional[int] = None,
        char_end: Optional[int] = None,
        width: Optional[int] = None,
    ) -> bytes:
        """Page ``page`` (1-based) of a PDF or scanned image as PNG bytes; ``highlight``: a chunk id on that page
        (a citation's ``chunk_id``) whose lines are drawn highlighted, only those of ``char_start``..``char_end`` when
        given (a citation's span). Other formats: 415 ``page_image_unavailable``."""
        query = {"highlight": highlight, "char_start": char_start, "char_end": char_end, "width": width}
        _status, _headers, raw = self._t.send("GET", f"{self._one(kb_id, doc_id)}/pages/{int(page)}/image", query=query)
        return raw

    def delete(self, kb_id: str, doc_id: str) -> Deleted:
        return Deleted.from_dict(self._t.json("DELETE", self._one(kb_id, doc_id)).body)

    def events(self, kb_id: str, doc_id: str) -> Iterator[ServerEvent]:
        """The document as it stands (``document``), then its lifecycle events live with ``progress``, ending when it is ready, failed or deleted."""
        for event, data in stream_events(self._t, "GET", f"{self._one(kb_id, doc_id)}/events"):
            yield ServerEvent(event, data)
