"""A loopback OpenAI-compatible chat-completions stand-in that records what it is sent.

``recording_server(reply)`` starts it on 127.0.0.1 at a free port; every POST body is kept in
``server.requests`` (parsed JSON) and answered with ``reply(body)`` as the assistant message.
Tests assert on the recorded requests: the message layout and decoding arguments a client
really sends, which a real model server would not show.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, reply: Callable[[dict[str, Any]], str]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.reply = reply
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:
        """Print nothing per request: pytest would show one line per lm-eval call otherwise."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        with self.server.lock:
            self.server.requests.append(body)
        text = self.server.reply(body)
        data = json.dumps({"id": "standin", "object": "chat.completion", "model": body.get("model", ""),
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": text}}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def recording_server(reply: Callable[[dict[str, Any]], str]) -> Iterator[_Server]:
    """A running stand-in; always shut down on exit."""
    server = _Server(reply)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
