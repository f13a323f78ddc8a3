"""The real KBQA server as a child process, a fault-injecting proxy in front of it, and a PDF writer."""
from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[3]
ADMIN_KEY = "sdk-python-test-admin-key-0123456789"
NODE = shutil.which("node")


class Server:
    """``node bin/kbqa.js serve`` on a port of its choosing, over a fresh data dir, with ADMIN_KEY."""

    def __init__(self, env: Optional[Dict[str, str]] = None) -> None:
        self.data_dir = tempfile.mkdtemp(prefix="kbqa-sdk-py-")
        self.log = tempfile.TemporaryFile()
        settings = {
            "KBQA_DATA_DIR": self.data_dir,
            "PORT": "0",
            "HOST": "127.0.0.1",
            "KBQA_ADMIN_KEY": ADMIN_KEY,
            "KBQA_PARSER_WARMUP": "off",
            "KBQA_LOG_LEVEL": "warn",
        }
        settings.update(env or {})
        self.process = subprocess.Popen(
            [NODE or "node", "bin/kbqa.js", "serve"],
            cwd=REPO,
            env={**os.environ, **settings},
            stdout=subprocess.PIPE,
            stderr=self.log,
            start_new_session=True,
        )
        lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=lambda: [lines.put(raw.decode("utf-8", "replace")) for raw in self.process.stdout], daemon=True).start()
        deadline = time.monotonic() + 60
        while True:
            try:
                match = re.search(r"listening on http://[^/]+:(\d+)/v1", lines.get(timeout=max(0.1, deadline - time.monotonic())))
            except queue.Empty:
                match = None
            if match:
                self.url = f"http://127.0.0.1:{match.group(1)}"
                return
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server did not start: {self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def call(self, method: str, path: str, body: Optional[dict] = None) -> Tuple[int, Dict[str, str]]:
        """A raw request with the admin key (no SDK): its status and headers."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={"Authorization": f"Bearer {ADMIN_KEY}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, dict(error.headers)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


Fault = Optional[Tuple[int, bool]]
"""``(status, forward)``: refuse with ``status`` without forwarding, or forward and answer ``status``
instead of the server's response (the request ran, its answer was lost); None passes it through."""


class FaultyProxy:
    """A loopback proxy in front of the real server whose ``plan(method, path, n)`` injects faults
    (``n``: how many times this method and path were seen before); ``seen`` records every request."""

    def __init__(self, target: str, plan: Callable[[str, str, int], Fault]) -> None:
        self.seen: List[dict] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _handle(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                n = sum(1 for s in proxy.seen if s["method"] == self.command and s["path"] == self.path)
                fault = plan(self.command, self.path, n)
                record = {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "forwarded_body": None}
                proxy.seen.append(record)
                if fault is None or fault[1]:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "content-length")}
                    request = urllib.request.Request(target + self.path, data=body or None, method=self.command, headers=headers)
                    try:
                        with urllib.request.urlopen(request, timeout=30) as response:
                            status, answer, content_type = response.status, response.read(), response.headers.get("Content-Type", "")
                    except urllib.error.HTTPError as error:
                        with error:
                            status, answer, content_type = error.code, error.read(), error.headers.get("Content-Type", "")
                    record["forwarded_body"] = answer.decode("utf-8", "replace")
                if fault is not None:
                    error = {"message": "Injected by the test proxy.", "type": "server_error", "param": None, "code": "upstream_unavailable"}
                    status, answer, content_type = fault[0], json.dumps({"error": error}).encode(), "application/json"
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class RefusingProvider:
    """An OpenAI-compatible provider whose chat endpoint always answers 429 (for errors the server
    can only send after a stream started)."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = json.dumps({"error": {"message": "Slow down.", "type": "rate_limit_error", "param": None, "code": "rate_limit_exceeded"}}).encode()
                self.send_response(429)
                self.send_header("Content-Type", "application/json")
                self.send_header("Retry-After", "0")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.env = {
            "OPENAI_API_KEY": "sk-loopback",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{self._server.server_address[1]}/v1",
            "KBQA_OPENAI_CHAT_MODELS": "refusing-chat",
            "KBQA_OPENAI_MAX_RETRIES": "0",
        }
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def pdf(pages: List[List[str]]) -> bytes:
    """A PDF with a text layer: each page its lines, in Helvetica (enough for pdf.js to read)."""
    objects: List[bytes] = []
    page_ids = [4 + 2 * i for i in range(len(pages))]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    for i, lines in enumerate(pages):
        escaped = [line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for line in lines]
        text = "BT /F1 11 Tf 14 TL 50 740 Td " + " ".join(f"({line}) '" for line in escaped) + " ET"
        stream = text.encode("latin-1")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {page_ids[i] + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
