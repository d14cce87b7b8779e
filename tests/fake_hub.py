"""A loopback stand-in for the few Hub HTTP endpoints `chartprobe push` calls.

This is a *contract* test helper: it records the requests huggingface_hub makes for
create_repo / upload_folder / create_tag and answers like the Hub does, so a test can
check our calls. It proves nothing about what the real Hub accepts.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT_OID = "c0ffee" + "0" * 34


class _Handler(BaseHTTPRequestHandler):
    def _reply(self, code: int, obj: dict) -> None:
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.calls.append({"path": self.path, "auth": self.headers.get("authorization"),
                                  "body": data})
        base = f"http://127.0.0.1:{self.server.server_port}"
        if self.path == "/api/repos/create":
            req = json.loads(data)
            return self._reply(200, {"url": f"{base}/datasets/{req['organization']}/{req['name']}"})
        if self.path == "/api/validate-yaml":
            return self._reply(200, {"errors": [], "warnings": []})
        if "/preupload/" in self.path:
            files = json.loads(data)["files"]
            return self._reply(200, {"files": [{"path": f["path"], "uploadMode": "regular",
                                                "shouldIgnore": False} for f in files]})
        if "/commit/" in self.path:
            repo = self.path.split("/api/datasets/")[1].split("/commit/")[0]
            return self._reply(200, {"commitUrl": f"{base}/datasets/{repo}/commit/{COMMIT_OID}",
                                     "commitOid": COMMIT_OID})
        if "/tag/" in self.path:
            return self._reply(200, {})
        return self._reply(404, {"error": f"unexpected call {self.path}"})

    def do_GET(self) -> None:
        self.server.calls.append({"path": self.path, "auth": self.headers.get("authorization"), "body": b""})
        self._reply(404, {"error": f"unexpected call {self.path}"})

    def log_message(self, *args) -> None:
        pass


@contextmanager
def fake_hub():
    """Yield ``(endpoint_url, calls)``; the server stops when the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.calls = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", server.calls
    finally:
        server.shutdown()
        server.server_close()
