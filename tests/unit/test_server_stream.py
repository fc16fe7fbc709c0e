"""LlamaServerModel's stream against a loopback HTTP server that breaks off mid-reply (no model needed)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from workbench.llm.base import Message, ModelError
from workbench.llm.llamacpp import LlamaServerModel

PIECES = ["Caloric ", "restriction "]


class CutOffServer(BaseHTTPRequestHandler):
    """Tokenizes by words and answers chats; a streamed chat sends two pieces, then the connection closes."""

    protocol_version = "HTTP/1.0"
    chunked = False  # True: a chunked reply whose last chunk never comes

    def log_message(self, *args: object) -> None:
        pass

    def _json(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._json(404, {"error": "no such endpoint"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/tokenize":
            self._json(200, {"tokens": [1] * len(body["content"].split())})
            return
        if not body.get("stream"):
            words = sum(len(m["content"].split()) for m in body["messages"])
            self._json(200, {"choices": [{"message": {"content": "x"}, "finish_reason": "length"}],
                             "usage": {"prompt_tokens": words + 3, "completion_tokens": 1}})  # fmt: skip
            return
        if self.chunked:
            self.protocol_version = "HTTP/1.1"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        if self.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in PIECES:
            event = f"data: {json.dumps({'choices': [{'delta': {'content': piece}}]})}\n\n".encode()
            if self.chunked:
                event = f"{len(event):x}\r\n".encode() + event + b"\r\n"
            self.wfile.write(event)
            self.wfile.flush()
        if self.chunked:
            self.wfile.write(b"40\r\ndata: {")  # a chunk announced, cut short
        self.close_connection = True


@pytest.fixture(params=[False, True], ids=["closed", "chunk-cut-short"])
def server_url(request: pytest.FixtureRequest) -> Iterator[str]:
    handler = type("Handler", (CutOffServer,), {"chunked": request.param})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_stream_cut_off_is_a_model_error_not_a_short_reply(server_url: str) -> None:
    model = LlamaServerModel(server_url, timeout_s=10, n_ctx=512)
    received: list[str] = []
    with pytest.raises(ModelError, match=rf"llama.cpp server at {server_url} stopped streaming") as caught:
        for chunk in model.stream([Message("user", "does caloric restriction extend lifespan?")], max_tokens=16):
            received.append(chunk.text)
    assert received == PIECES  # what came is shown; the reply is never passed off as complete
    assert "\n" not in str(caught.value)
