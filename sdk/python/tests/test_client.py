"""The Python SDK against the real server (``node bin/kbqa.js serve`` as a child process)."""
from __future__ import annotations

import ast
import io
import os
import re
import tempfile
import time
import unittest
from pathlib import Path
from typing import List

from kbqa import (
    AuthenticationError,
    BadRequestError,
    ChatChunk,
    ConflictError,
    ContextPassage,
    DocumentFailedError,
    InternalServerError,
    Kbqa,
    NotFoundError,
    RateLimitError,
    RetryInfo,
    RetryPolicy,
    ServerEvent,
    UploadProgress,
)

from ._server import ADMIN_KEY, NODE, FaultyProxy, RefusingProvider, Server, pdf

VOLCANO = "Mount Erebus is the southernmost active volcano on Earth, located on Ross Island in Antarctica."
LAKE = "The lava lake of Mount Erebus has been continuously active since at least 1972."
BREAD = "Sourdough bread rises because wild yeast and lactobacilli ferment the flour and release carbon dioxide."
ZEPHYR_PAGES = [
    ["Zephyr-9 product sheet.", "This page introduces the company and its history of building machines."],
    ["The Zephyr-9 wind turbine produces 4.2 megawatts at a rated wind speed of 12 metres per second.", "Each Zephyr-9 blade is 78 metres long and made of glass fibre reinforced epoxy."],
]
BLADE = "How long is a Zephyr-9 blade?"


@unittest.skipIf(NODE is None, "node is not on PATH: the SDK tests need the real server")
class ClientTest(unittest.TestCase):
    """One server and one knowledge base, built through the SDK in setUpClass (its uploads are checked
    below). The server also knows a provider model, ``refusing-chat``, whose provider always answers 429."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.provider = RefusingProvider()
        try:
            cls.server = Server(cls.provider.env)
        except BaseException:
            cls.provider.close()
            raise
        cls.tmp = tempfile.TemporaryDirectory()
        try:
            cls.client = Kbqa(cls.server.url, ADMIN_KEY)
            cls.kb = cls.client.knowledge_bases.create("Handbook")
            cls.text_progress: List[UploadProgress] = []
            cls.erebus = cls.client.documents.upload_text(
                cls.kb.id, "erebus.md", f"# Mount Erebus\n\n{VOLCANO}\n\n## Lava lake\n\n{LAKE}",
                metadata={"topic": "geology"}, wait=True, on_progress=cls.text_progress.append,
            )
            bread = Path(cls.tmp.name) / "sourdough (crème).txt"
            bread.write_text(BREAD, encoding="utf-8")
            cls.file_progress: List[UploadProgress] = []
            cls.files = cls.client.documents.upload(
                cls.kb.id,
                [("zephyr-9.pdf", pdf(ZEPHYR_PAGES), "application/pdf"), str(bread), io.BytesIO(b"Plain notes about nothing in particular.")],
                metadata={"lang": "en"}, chunking={"max_tokens": 256}, wait=True, on_progress=cls.file_progress.append,
            )
            cls.zephyr = cls.files[0]
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()
        cls.provider.close()
        cls.tmp.cleanup()

    def test_models_list_and_get(self) -> None:
        self.assertEqual(self.client.base_url, f"{self.server.url}/v1")
        self.assertIn("kbqa-extractive", [m.id for m in self.client.models.list().data])
        self.assertEqual(self.client.models.get("kbqa-hash-embed-512").owned_by, "kbqa")

    def test_models_carry_type_and_owner(self) -> None:
        by_id = {m.id: m for m in self.client.models.list().data}
        self.assertEqual((by_id["kbqa-extractive"].type, by_id["kbqa-extractive"].owned_by), ("chat", "kbqa"))
        self.assertEqual(by_id["kbqa-hash-embed-512"].type, "embedding")
        self.assertIn("rerank", {m.type for m in by_id.values()})
        # The environment's provider model is the deployment's; a workspace provider's is its provider's.
        self.assertEqual(by_id["refusing-chat"].owned_by, "deployment")
        status, _ = self.server.call("POST", "/v1/model-providers", {
            "name": "pyloop", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-python-sdk",
            "models": [{"id": "emb", "type": "embedding", "dimensions": 4}],
        })
        self.assertEqual(status, 201)
        model = self.client.models.get("pyloop/emb")
        self.assertEqual((model.id, model.type, model.owned_by), ("pyloop/emb", "embedding", "pyloop"))

    def test_knowledge_base_create_list_get_update_delete(self) -> None:
        kbs = self.client.knowledge_bases
        kb = kbs.create("Scratch", settings={"top_k": 8})
        self.assertEqual((kb.name, kb.settings["top_k"], kb.etag), ("Scratch", 8, '"0"'))
        self.assertIn(kb.id, [k.id for k in kbs.list(limit=100).data])
        self.assertEqual(kbs.get(kb.id).etag, kb.etag)
        updated = kbs.update(kb.id, description="for the SDK test", settings={"rerank": {"enabled": False}}, if_match=kb.etag)
        self.assertEqual((updated.settings["top_k"], updated.settings["rerank"]["enabled"]), (8, False))
        with self.assertRaises(ConflictError) as stale:
            kbs.update(kb.id, name="lost", if_match=kb.etag)
        self.assertEqual(stale.exception.code, "concurrent_modification")
        reindex = kbs.reindex(kb.id)
        self.assertEqual((reindex["object"], reindex["knowledge_base_id"]), ("knowledge_base.reindex", kb.id))
        deadline = time.monotonic() + 30
        while kbs.get(kb.id).raw["reindex"]["status"] != "succeeded" and time.monotonic() < deadline:
            time.sleep(0.02)
        current = kbs.get(kb.id)
        self.assertEqual(current.raw["reindex"]["status"], "succeeded")
        self.assertTrue(kbs.delete(kb.id, if_match=current.etag).deleted)
        with self.assertRaises(NotFoundError):
            kbs.get(kb.id)

    def test_upload_text_waits_for_ready_reporting_progress(self) -> None:
        self.assertEqual((self.erebus.name, self.erebus.status, self.erebus.page_count), ("erebus.md", "ready", 1))
        self.assertEqual(self.erebus.metadata, {"topic": "geology"})
        # The stream opens with the document as it stands, then follows it: the statuses from there on, in order.
        statuses = list(dict.fromkeys(p.status for p in self.text_progress))
        self.assertEqual(statuses, ["queued", "parsing", "indexing", "ready"][-len(statuses):])
        self.assertEqual(self.text_progress[0].event, "document")
        last = self.text_progress[-1]
        self.assertEqual((last.status, last.settled, last.total), ("ready", 1, 1))

    def test_upload_files_waits_for_ready_reporting_progress(self) -> None:
        self.assertEqual([(d.name, d.status) for d in self.files], [("zephyr-9.pdf", "ready"), ("sourdough (crème).txt", "ready"), ("upload", "ready")])
        self.assertEqual(self.zephyr.page_count, 2)
        self.assertTrue(any(p.page_count == 2 for p in self.file_progress))
        self.assertTrue(any(p.event == "progress" and p.chunks_indexed is not None for p in self.file_progress))
        self.assertEqual(self.file_progress[-1].settled, 3)

    def test_upload_without_waiting_then_documents_operations(self) -> None:
        docs = self.client.documents
        queued = docs.upload_text(self.kb.id, "notes.txt", "Scratch notes that will be deleted.")
        # The upload answers at once; a note this small may already be parsed by then (small files
        # have their own parse lane), so any status on the way to ready is what it was.
        self.assertIn(queued.status, ("queued", "parsing", "indexing", "ready"))
        self.assertEqual(docs.wait_until_ready(self.kb.id, queued.id)[0].status, "ready")
        self.assertIn(queued.id, [d.id for d in docs.list(self.kb.id, status="ready", limit=100).data])
        self.assertEqual(docs.get(self.kb.id, self.erebus.id).chunk_count, self.erebus.chunk_count)
        chunks = docs.chunks(self.kb.id, self.zephyr.id).data
        self.assertTrue(any(c.page == 2 and "78 metres" in c.paragraph for c in chunks))
        events = [e.event for e in docs.events(self.kb.id, self.erebus.id)]
        self.assertEqual(events, ["document"])
        self.assertTrue(docs.delete(self.kb.id, queued.id).deleted)

    def test_a_failed_document_raises_document_failed_error(self) -> None:
        with self.assertRaises(DocumentFailedError) as failed:
            # Blank, not empty: an empty file is refused at upload (400), a blank one fails as a document.
            self.client.documents.upload(self.kb.id, ("blank.txt", b" \n"), wait=True)
        document = failed.exception.failed[0]
        self.assertEqual((document.name, document.status, document.error["code"]), ("blank.txt", "failed", "empty"))

    def test_search(self) -> None:
        result = self.client.search(self.kb.id, BLADE, top_k=3, explain=True, filter={"metadata": {"lang": "en"}})
        self.assertEqual(result.knowledge_base_id, self.kb.id)
        top = result.data[0]
        self.assertEqual((top.source, top.page, top.document_id), ("zephyr-9.pdf", 2, self.zephyr.id))
        self.assertNotIn(self.erebus.id, [r.document_id for r in result.data])
        self.assertIsInstance(top.scores["keyword"], float)
        bare = self.client.search(self.kb.id, BLADE, top_k=3, include=[], filter={"metadata": {"lang": "en"}})
        self.assertEqual([r.chunk_id for r in bare.data], [r.chunk_id for r in result.data])
        self.assertEqual((bare.data[0].paragraph, bare.data[0].boxes, bare.data[0].scores), (None, None, None))

    def test_several_knowledge_bases_with_a_filter_in_the_grammar(self) -> None:
        polar = self.client.knowledge_bases.create("Polar")
        shelf = self.client.documents.upload_text(
            polar.id, "shelf.md", "# Ross Ice Shelf\n\nThe Ross Ice Shelf in Antarctica is several hundred metres thick and floats on the Ross Sea.",
            metadata={"topic": "geology", "year": 2021}, wait=True,
        )
        both = self.client.search([self.kb.id, polar.id], "Antarctica Ross Island Ross Ice Shelf", top_k=10)
        self.assertEqual(both.knowledge_base_ids, [self.kb.id, polar.id])
        kb_of = {r.document_id: r.knowledge_base_id for r in both.data}
        self.assertEqual((kb_of.get(shelf.id), kb_of.get(self.erebus.id)), (polar.id, self.kb.id))
        recent = {"type": "and", "filters": [{"type": "eq", "key": "topic", "value": "geology"}, {"type": "gt", "key": "year", "value": 2020}]}
        filtered = self.client.search([self.kb.id, polar.id], "Antarctica Ross Island Ross Ice Shelf", top_k=10, filter=recent)
        self.assertEqual({r.document_id for r in filtered.data}, {shelf.id})
        answer = self.client.query([self.kb.id, polar.id], "What is in Antarctica near Ross Island?")
        self.assertEqual({c.knowledge_base_id for c in answer.citations if c.quote}, {self.kb.id, polar.id})
        narrowed = self.client.chat.create([{"role": "user", "content": "How thick is the Ross Ice Shelf?"}], knowledge_base_id=[self.kb.id, polar.id], filter={"type": "in", "key": "year", "value": [2021]})
        self.assertEqual(narrowed.knowledge_base_ids, [self.kb.id, polar.id])
        self.assertTrue(narrowed.citations and all(c.document_id == shelf.id for c in narrowed.citations), narrowed.content)
        self.client.knowledge_bases.delete(polar.id)

    def test_query_answers_with_citations_source_page_text(self) -> None:
        result = self.client.query(self.kb.id, BLADE)
        self.assertIn("78 metres long", result.answer)
        self.assertIn("[1]", result.answer)
        first = result.citations[0]
        self.assertEqual((first.index, first.source, first.page), (1, "zephyr-9.pdf", 2))
        self.assertIn("78 metres long", first.text)
        self.assertTrue(result.answerable)
        self.assertEqual(first.text[first.quote["start"] : first.quote["end"]], first.quote["text"])
        self.assertEqual(first.char_end - first.char_start, first.quote["end"] - first.quote["start"])
        self.assertTrue(first.boxes and all(b["x0"] < b["x1"] and b["y0"] < b["y1"] for b in first.boxes))
        png = self.client.documents.page_image(self.kb.id, first.document_id, 2, highlight=first.chunk_id, char_start=first.char_start, char_end=first.char_end, width=300)
        self.assertEqual(png[1:4], b"PNG")
        self.assertEqual(int.from_bytes(png[16:20], "big"), 300)
        # The citations are what the answer's markers name; every passage the model was given is the context.
        markers = sorted({int(n) for n in re.findall(r"\[(\d+)\]", result.answer)})
        self.assertEqual(sorted(c.index for c in result.citations), markers)
        self.assertGreater(len(result.context), len(result.citations))
        given = next(p for p in result.context if p.index == first.index)
        self.assertEqual((given.chunk_id, given.quote, given.char_end - given.char_start), (first.chunk_id, None, len(given.text)))
        self.assertIsInstance(given, ContextPassage)
        off_topic = self.client.query(self.kb.id, "Who won the 1998 FIFA World Cup final?")
        self.assertEqual((off_topic.answerable, off_topic.citations, off_topic.context), (False, [], []))
        follow_up = self.client.query(self.kb.id, "What is it made of?", history=[{"role": "user", "content": BLADE}, {"role": "assistant", "content": result.answer}])
        self.assertIn("glass", follow_up.answer)

    def test_chat_once_and_streamed_through_a_generator(self) -> None:
        messages = [{"role": "user", "content": "When has the lava lake of Mount Erebus been active since?"}]
        whole = self.client.chat.create(messages, knowledge_base_id=self.kb.id)
        self.assertIn("1972", whole.content)
        self.assertEqual((whole.finish_reason, whole.citations[0].source), ("stop", "erebus.md"))
        chunks: List[ChatChunk] = list(self.client.chat.stream(messages, knowledge_base_id=self.kb.id, include_usage=True))
        # The first chunk carries the context as retrieved; the one with the finish reason, the citations with their quotes.
        self.assertTrue(whole.citations and len(whole.context) >= len(whole.citations))
        self.assertEqual(chunks[0].context, whole.context)
        self.assertIsNone(chunks[0].citations)
        self.assertTrue(all(c.context is None for c in chunks[1:]))
        self.assertEqual(next(c.citations for c in chunks if c.finish_reason), whole.citations)
        self.assertGreater(sum(1 for c in chunks if c.content), 1)
        self.assertEqual("".join(c.content for c in chunks), whole.content)
        self.assertIn("stop", [c.finish_reason for c in chunks])
        self.assertGreater(chunks[-1].usage.total_tokens, 0)
        for chunk in self.client.chat.stream(messages, knowledge_base_id=self.kb.id):
            if chunk.content:
                break  # leaving early closes the stream; the client keeps working
        self.assertTrue(self.client.models.list().data)

    def test_conversations_chat_continues_one_and_answers_get_feedback(self) -> None:
        conv = self.client.conversations.create(metadata={"user": "ada"})
        self.assertEqual(self.client.conversations.get(conv["id"]), conv)
        self.assertEqual(self.client.conversations.update(conv["id"], {"user": "grace"})["metadata"], {"user": "grace"})
        self.client.chat.create([{"role": "user", "content": "Tell me about the Zephyr-9 wind turbine."}], knowledge_base_id=self.kb.id, conversation=conv["id"])
        answer = self.client.query(self.kb.id, "How long are its blades?", conversation=conv["id"])
        self.assertIn("78 metres", answer.answer)
        items = self.client.conversations.items.list(conv["id"], order="asc").data
        self.assertEqual([i["role"] for i in items], ["user", "assistant", "user", "assistant"])
        self.assertEqual(items[3]["content"][0]["text"], answer.answer)
        rated = self.client.chat.feedback(answer.id, "down", comment="Too terse.")
        self.assertEqual((rated["chat_completion_id"], rated["rating"], rated["comment"]), (answer.id, "down", "Too terse."))
        self.assertEqual(self.client.conversations.items.feedback(conv["id"], items[3]["id"], "up")["item_id"], items[3]["id"])
        note = self.client.conversations.items.create(conv["id"], [{"role": "user", "content": "A note."}]).data[0]
        self.assertEqual(self.client.conversations.items.get(conv["id"], note["id"])["content"][0]["text"], "A note.")
        self.assertEqual(self.client.conversations.items.delete(conv["id"], note["id"])["id"], conv["id"])
        self.assertTrue(self.client.conversations.delete(conv["id"]).deleted)
        with self.assertRaises(NotFoundError):
            self.client.conversations.get(conv["id"])
        with self.assertRaises(NotFoundError):
            self.client.chat.feedback("chatcmpl-missing", "up")

    def test_workflow_debugger(self) -> None:
        wf = self.client.workflows.create("QA", template="knowledge-qa", knowledge_base_id=self.kb.id)
        self.assertEqual(self.client.workflows.publish(wf.id).published_version, 1)
        self.client.workflows.update(wf.id, name="QA 2", graph=wf.graph, if_match=1)
        with self.assertRaises(ConflictError):
            self.client.workflows.update(wf.id, name="stale", graph=wf.graph, if_match=1)
        self.assertEqual([v["version"] for v in self.client.workflows.versions(wf.id)], [2, 1])
        self.assertTrue(self.client.workflows.validate(wf.graph)["valid"])
        run = self.client.run_workflow(wf.id, {"question": BLADE}, version="draft")
        self.assertEqual(run.workflow_version, 2)
        self.assertEqual([a["node_id"] for a in self.client.workflows.trace(run.id)], ["start", "retrieve", "llm", "answer"])
        self.assertEqual(self.client.workflows.list_runs(wf.id).data[0].id, run.id)
        self.assertEqual(self.client.workflows.run_node(wf.id, "retrieve", {"start": {"question": BLADE}})["status"], "succeeded")
        again = self.client.run_workflow(wf.id, version="draft", from_node={"run_id": run.id, "node_id": "llm"})
        self.assertEqual(again.outputs, run.outputs)

    def test_run_workflow_blocking_async_and_streaming(self) -> None:
        wf = self.client.workflows.create("QA", template="knowledge-qa", knowledge_base_id=self.kb.id)
        self.assertIn(wf.id, [w.id for w in self.client.workflows.list().data])
        self.assertEqual(self.client.workflows.get(wf.id).version, 1)
        blocking = self.client.run_workflow(wf.id, {"question": BLADE}, mode="blocking")
        self.assertEqual((blocking.status, blocking.workflow_id, blocking.inputs), ("succeeded", wf.id, {"question": BLADE}))
        self.assertIn("78 metres", blocking.answer)
        self.assertEqual(blocking.citations[0].source, "zephyr-9.pdf")
        queued = self.client.run_workflow(wf.id, {"question": BLADE}, mode="async")
        fetched = self.client.workflows.wait_for_run(queued.id)
        self.assertEqual((fetched.status, fetched.outputs), ("succeeded", blocking.outputs))
        self.assertEqual(self.client.workflows.get_run(queued.id).id, queued.id)
        events: List[ServerEvent] = []
        streamed = self.client.run_workflow(wf.id, {"question": BLADE}, mode="streaming", on_event=events.append)
        self.assertEqual((streamed.status, streamed.outputs), ("succeeded", blocking.outputs))
        self.assertTrue(any(e.event == "NodeRunSucceeded" and e.data["node_id"] == "llm" for e in events))
        with self.assertRaises(BadRequestError) as bad:
            self.client.run_workflow(wf.id, {})
        self.assertEqual(bad.exception.param, "inputs.question")
        self.assertEqual(self.client.workflows.update(wf.id, name="QA 2", graph=wf.graph).version, 2)
        self.assertTrue(self.client.workflows.delete(wf.id).deleted)

    def test_agents_created_changed_published_versioned_unpublished_and_deleted(self) -> None:
        agent = self.client.agents.create(
            "Turbine helper", model="kbqa-extractive", knowledge_base_ids=[self.kb.id],
            instructions="Be brief.", suggested_questions=["How long is a blade?"], public={"access_code": "open-sesame"},
        )
        self.assertTrue(agent.id.startswith("agt_"))
        self.assertEqual((agent.status, agent.published_version, agent.public_url), ("draft", None, None))
        self.assertTrue(agent.public["access_code_set"])
        self.assertNotIn("open-sesame", str(agent.raw))
        self.assertIn(agent.id, [a.id for a in self.client.agents.list(limit=100).data])
        self.assertEqual(self.client.agents.get(agent.id).name, "Turbine helper")
        first = self.client.agents.publish(agent.id)
        self.assertEqual(first.version, 1)
        self.assertTrue(first.public_url.startswith("/a/"))
        self.assertIn("data-kbqa-agent", first.embed["script"])
        answer = self.client.chat.create([{"role": "user", "content": BLADE}], model=agent.id)
        self.assertIn("78 metres", answer.content)
        self.assertEqual(answer.model, agent.id)
        changed = self.client.agents.update(agent.id, name="Turbine helper 2", instructions=None)
        self.assertEqual((changed.name, changed.instructions, changed.published_version), ("Turbine helper 2", None, 1))
        self.assertEqual(self.client.agents.publish(agent.id).version, 2)
        versions = self.client.agents.versions(agent.id, order="asc").data
        self.assertEqual([(v.version, v.name) for v in versions], [(1, "Turbine helper"), (2, "Turbine helper 2")])
        self.assertEqual(self.client.agents.unpublish(agent.id).status, "draft")
        with self.assertRaises(BadRequestError):
            self.client.agents.create("Bad", model="no-such-model")
        self.assertTrue(self.client.agents.delete(agent.id).deleted)
        with self.assertRaises(NotFoundError):
            self.client.agents.get(agent.id)

    def test_errors_are_typed_and_carry_the_api_error_body(self) -> None:
        stranger = Kbqa(f"{self.server.url}/v1/", "kbqa-not-a-real-key", max_retries=0)
        with self.assertRaises(AuthenticationError) as denied:
            stranger.query(self.kb.id, "Anything?")
        self.assertEqual(denied.exception.status, 401)
        self.assertEqual(denied.exception.error, {"message": "Incorrect API key provided.", "type": "authentication_error", "param": None, "code": "invalid_api_key"})
        self.assertTrue(denied.exception.request_id)
        with self.assertRaises(NotFoundError) as missing:
            self.client.query("kb_does_not_exist", "Anything?")
        self.assertEqual((missing.exception.status, missing.exception.code, missing.exception.type), (404, "knowledge_base_not_found", "not_found_error"))
        with self.assertRaises(NotFoundError):
            self.client.search("kb_does_not_exist", "x")
        with self.assertRaises(NotFoundError):
            next(self.client.chat.stream([{"role": "user", "content": "x"}], knowledge_base_id="kb_does_not_exist"))
        with self.assertRaises(BadRequestError) as invalid:
            self.client.chat.create([{"role": "user", "content": "x"}], temperature=3)
        self.assertEqual(invalid.exception.param, "temperature")

    def test_an_error_sent_after_a_stream_started_is_raised_as_its_typed_error(self) -> None:
        chunks: List[ChatChunk] = []
        with self.assertRaises(RateLimitError) as refused:
            for chunk in Kbqa(self.server.url, ADMIN_KEY, max_retries=0).chat.stream([{"role": "user", "content": "hi"}], model="refusing-chat"):
                chunks.append(chunk)
        self.assertEqual((refused.exception.status, refused.exception.code), (429, "provider_rate_limited"))
        self.assertEqual(len(chunks), 1, "the first chunk (role, citations) came before the error")

    def test_base_url_and_key_from_the_environment(self) -> None:
        saved = {k: os.environ.get(k) for k in ("KBQA_BASE_URL", "KBQA_API_KEY")}
        os.environ.update(KBQA_BASE_URL=f"{self.server.url}/v1", KBQA_API_KEY=ADMIN_KEY)
        try:
            client = Kbqa()
            self.assertEqual(client.base_url, f"{self.server.url}/v1")
            self.assertTrue(client.models.list().data)
            del os.environ["KBQA_API_KEY"]
            with self.assertRaisesRegex(Exception, "KBQA_API_KEY"):
                Kbqa()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def test_a_5xx_is_retried_for_idempotent_calls_only(self) -> None:
        wf = self.client.workflows.create("QA", template="knowledge-qa", knowledge_base_id=self.kb.id)
        faults = {
            ("GET", "/v1/models"): (503, False),
            ("POST", "/v1/chat"): (503, False),
            ("POST", f"/v1/knowledge-bases/{self.kb.id}/documents"): (502, True),
            ("POST", f"/v1/workflows/{wf.id}/run"): (502, True),
        }
        # Each listed request fails the first time it is seen.
        proxy = FaultyProxy(self.server.url, lambda method, path, n: faults.get((method, path)) if n == 0 else None)
        try:
            retries: List[RetryInfo] = []
            client = Kbqa(proxy.url, ADMIN_KEY, retry=RetryPolicy(initial_delay=0.01), on_retry=retries.append)
            self.assertTrue(client.models.list().data)
            self.assertEqual([(r.status, r.method, r.path) for r in retries], [(503, "GET", "/models")])
            with self.assertRaises(InternalServerError):
                client.query(self.kb.id, BLADE)
            self.assertEqual(sum(1 for s in proxy.seen if s["path"] == "/v1/chat"), 1, "a chat is not repeated after a 5xx")
            # The first upload and run reached the server and their answers were lost: the retries get the same resources back.
            doc = client.documents.upload_text(self.kb.id, "retry.md", "# Retry\n\nUploaded through a flaky gateway.")
            uploads = [s for s in proxy.seen if s["method"] == "POST" and s["path"].endswith("/documents")]
            self.assertEqual(len(uploads), 2)
            self.assertEqual(uploads[0]["headers"]["idempotency-key"], uploads[1]["headers"]["idempotency-key"])
            self.assertIn(doc.id, uploads[0]["forwarded_body"])
            run = client.run_workflow(wf.id, {"question": BLADE})
            runs = [s for s in proxy.seen if s["path"].endswith("/run")]
            self.assertEqual(len(runs), 2)
            self.assertIn(run.id, runs[0]["forwarded_body"])
            self.assertEqual((run.status, len(retries)), ("succeeded", 3))
        finally:
            proxy.close()


@unittest.skipIf(NODE is None, "node is not on PATH: the SDK tests need the real server")
class RateLimitTest(unittest.TestCase):
    """A second server whose rate limiter allows 60 requests a minute per key (a token a second)."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = Server({"KBQA_RATE_LIMIT_PER_MINUTE": "60"})

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def exhaust(self) -> None:
        for _ in range(200):
            if self.server.call("GET", "/v1/models")[0] == 429:
                return
        self.fail("the rate limit never answered 429")

    def test_a_429_is_retried_after_its_retry_after_for_a_get_and_a_post(self) -> None:
        self.exhaust()
        with self.assertRaises(RateLimitError) as refused:
            Kbqa(self.server.url, ADMIN_KEY, max_retries=0).models.list()
        self.assertEqual((refused.exception.status, refused.exception.retry_after, refused.exception.code), (429, 1.0, "rate_limit_exceeded"))
        retries: List[RetryInfo] = []
        patient = Kbqa(self.server.url, ADMIN_KEY, on_retry=retries.append)
        started = time.monotonic()
        self.assertTrue(patient.models.list().data)
        self.assertEqual((retries[0].status, retries[0].delay, retries[0].method), (429, 1.0, "GET"))
        self.assertGreaterEqual(time.monotonic() - started, 0.95)

        self.exhaust()
        retries.clear()
        started = time.monotonic()
        self.assertTrue(patient.chat.create([{"role": "user", "content": "Hello?"}]).content)
        self.assertEqual((retries[0].status, retries[0].delay, retries[0].method), (429, 1.0, "POST"))
        self.assertGreaterEqual(time.monotonic() - started, 0.95)


class Python39Test(unittest.TestCase):
    def test_the_package_parses_as_python_3_9(self) -> None:
        package = Path(__file__).resolve().parents[1] / "kbqa"
        for path in sorted(package.glob("*.py")):
            with self.subTest(path.name):
                ast.parse(path.read_text(encoding="utf-8"), filename=str(path), feature_version=(3, 9))


if __name__ == "__main__":
    unittest.main()
