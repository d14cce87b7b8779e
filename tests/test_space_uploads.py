"""The Space counts upload bytes, not headers (issue #46, acceptance 3).

Over loopback against the running Space (total quota 20 MB): the chunked-upload bypass
(``Content-Length: 100`` beside ``Transfer-Encoding: chunked`` and a 60 MB chunked body) is
refused, and so are honest uploads once the quota is used; a thread watching the work folder
every few milliseconds never sees it past the quota. A unit test drives :class:`UploadGuard`
with a body that outgrows its declared length (a server that hands more than it declared):
cut off with a 413 before the app has more bytes than the length. ~40 s.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from space_server import running_space

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))
MB = 2**20
QUOTA_MB = 20


@pytest.fixture(scope="module")
def smoke_only(tmp_path_factory) -> Path:
    """A folder holding only chartprobe-smoke (small preset, ~10 s)."""
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("space_uploads_data")
    build_release("smoke", root, "small")
    return root


def _tree_bytes(root: Path) -> int:
    total = 0
    for p in root.rglob("*"):
        try:
            if p.is_file() and not p.is_symlink():
                total += p.lstat().st_size
        except OSError:
            pass
    return total


def _post(url: str, headers: dict[str, str], body_chunks, chunked: bool) -> int:
    """A raw POST to the upload route; returns the status (0 when the server closed first)."""
    host = urlparse(url)
    with socket.create_connection((host.hostname, host.port), timeout=30) as s:
        head = "POST /gradio_api/upload HTTP/1.1\r\nHost: x\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        s.sendall((head + "\r\n").encode())
        try:
            for chunk in body_chunks:
                s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" if chunked else chunk)
            if chunked:
                s.sendall(b"0\r\n\r\n")
        except OSError:  # the server answered and closed mid-body: what a refusal looks like
            pass
        try:
            reply = s.recv(200)
        except OSError:
            return 0
    return int(reply.split()[1]) if reply.startswith(b"HTTP/") else 0


def _multipart(size: int, name: str):
    """A multipart body of one ``size``-byte file, in 1 MB pieces."""
    yield (f"--x\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{name}\"\r\n"
           "Content-Type: application/octet-stream\r\n\r\n").encode()
    for _ in range(size // MB):
        yield b"a" * MB
    yield b"\r\n--x--\r\n"


def test_chunked_bypass_refused_and_disk_never_past_the_quota(smoke_only, tmp_path):
    parent = tmp_path / "gradio_tmp"
    env = {"GRADIO_TEMP_DIR": str(parent), "CHARTSPACE_TOTAL_QUOTA_MB": str(QUOTA_MB),
           "HF_DATASETS_CACHE": str(tmp_path / "hf_cache")}
    with running_space(smoke_only, tmp_path / "server.log", env=env) as (url, _):
        (work,) = parent.glob("chartspace-*")
        peak, done = [0], threading.Event()

        def watch() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _tree_bytes(work))
                time.sleep(0.005)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        ctype = "multipart/form-data; boundary=x"
        bypass = _post(url, {"Content-Type": ctype, "Content-Length": "100", "Transfer-Encoding": "chunked"},
                       _multipart(60 * MB, "big.jsonl"), chunked=True)
        assert bypass in (0, 411), bypass  # refused (0: the server closed the socket on the refusal)
        chunked_only = _post(url, {"Content-Type": ctype, "Transfer-Encoding": "chunked"},
                             _multipart(30 * MB, "big2.jsonl"), chunked=True)
        assert chunked_only in (0, 411), chunked_only
        # Honest uploads of 8 MB, six at once: those past the room left are refused.
        statuses: list[int] = []

        def honest(i: int) -> None:
            body = b"".join(_multipart(8 * MB, f"f{i}.jsonl"))
            statuses.append(_post(url, {"Content-Type": ctype, "Content-Length": str(len(body))}, [body], False))

        threads = [threading.Thread(target=honest, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done.set()
        watcher.join()
        assert 200 in statuses and (413 in statuses or 0 in statuses), statuses  # some stored, some refused
        assert peak[0] <= QUOTA_MB * MB, f"the work folder reached {peak[0] / MB:.1f} MB (quota {QUOTA_MB} MB)"
        print(f"statuses {sorted(statuses)}; peak {peak[0] / MB:.1f} MB of {QUOTA_MB} MB")


def test_a_body_past_its_declared_length_is_cut_off(tmp_path):
    from chartspace.workspace import UploadGuard, Workspace

    seen, sent = [], []

    async def app(scope, receive, send):  # reads the whole body, as gradio's upload route does
        while True:
            message = await receive()
            seen.append(len(message.get("body", b"")))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    chunks = [{"type": "http.request", "body": b"x" * 1000, "more_body": True} for _ in range(10)]

    async def receive():
        return chunks.pop(0)

    async def send(message):
        sent.append(message)

    guard = UploadGuard(app, Workspace(tmp_path / "work", session_quota=MB, total_quota=MB))
    scope = {"type": "http", "method": "POST", "path": "/gradio_api/upload",
             "headers": [(b"content-length", b"2500")]}
    asyncio.run(guard(scope, receive, send))
    assert sum(seen) <= 2500 and sent[0]["status"] == 413, (seen, sent[:1])
