"""The Space's disk: one work folder, uploads deleted once parsed, quotas, cleanup on exit.

Everything the Space writes lives under one work folder (``chartspace-*`` in the system
temp folder, or in ``GRADIO_TEMP_DIR`` when the operator set one); gradio's own upload and
cache folder is pointed inside it (``<work>/gradio``), so stopping the Space removes all of
it, on a normal exit (``atexit``) and on SIGTERM/SIGHUP (a handler that cleans up, then
chains whatever handler was installed before it).

Uploads are the only thing a visitor can make the Space store, so they are bounded three
ways: an upload request is counted in the bytes actually received, never in what its
headers announce (:class:`UploadGuard`, ASGI middleware): ``Transfer-Encoding`` is refused,
a declared ``Content-Length`` past the room left is refused before the body is read, and a
body that outgrows its declared length or the room left is cut off at that byte with a
413; the files a session holds in its upload box count against a per-session quota; and
every load deletes the files it was given, accepted or rejected, in a ``finally``. Files
nobody holds (a tab closed mid-upload, a direct POST that never reached a box) are swept
after :data:`ORPHAN_SECONDS`, by a sweep every :data:`SWEEP_SECONDS`.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["ORPHAN_SECONDS", "SWEEP_SECONDS", "QuotaError", "UploadGuard", "Workspace", "quota_from_env"]

ORPHAN_SECONDS = 45
"""An upload held by no session is deleted once it is this old (seconds): long enough for the
page to hand a finished upload to its load handler, short enough that one visitor's abandoned
uploads do not fill the quota for everybody."""
SWEEP_SECONDS = 10.0
"""How often the sweeper looks: an unheld upload is gone within ORPHAN_SECONDS + this (< 1 min)."""


def quota_from_env(name: str, default_mb: int) -> int:
    """A quota in bytes from the environment variable ``name`` (megabytes), else the default."""
    try:
        return int(float(os.environ.get(name, default_mb)) * 2**20)
    except ValueError:
        return default_mb * 2**20


class QuotaError(ValueError):
    """An upload that would take the Space past a disk quota; the message is shown in the page."""


def tree_bytes(root: Path) -> int:
    """Bytes of the regular files under ``root`` (symlinks neither counted nor followed)."""
    total = 0
    for top, _dirs, files in os.walk(root, followlinks=False):
        for name in files:
            with contextlib.suppress(OSError):  # a file deleted meanwhile
                st = os.lstat(os.path.join(top, name))
                total += st.st_size if stat.S_ISREG(st.st_mode) else 0
    return total


class Workspace:
    """The work folder, the uploads each session holds, and the quotas on them."""

    def __init__(self, root: Path, *, session_quota: int, total_quota: int) -> None:
        self.root = Path(root)
        self.uploads = self.root / "gradio"
        self.session_quota = session_quota
        self.total_quota = total_quota
        self._held: dict[str, dict[str, int]] = {}  # session -> upload path -> bytes
        self._reserved = 0  # bytes of upload requests still streaming in
        self._lock = threading.Lock()
        self._closed = False
        self.uploads.mkdir(parents=True, exist_ok=True)

    @classmethod
    def create(cls, *, session_quota: int, total_quota: int) -> Workspace:
        """A fresh work folder; gradio is told (``GRADIO_TEMP_DIR``) to keep its files inside it.
        Call before gradio builds any component: each reads the folder when it is created."""
        parent = os.environ.get("GRADIO_TEMP_DIR") or None
        if parent:
            Path(parent).mkdir(parents=True, exist_ok=True)
        ws = cls(Path(tempfile.mkdtemp(prefix="chartspace-", dir=parent)),
                 session_quota=session_quota, total_quota=total_quota)
        atexit.register(ws.close)  # at once: a launch that fails must not leave the folder behind
        os.environ["GRADIO_TEMP_DIR"] = str(ws.uploads)
        return ws

    # -- what a session holds -------------------------------------------------------------
    def _own(self, path: str | Path) -> str | None:
        """``path`` as a string if it is a file in the upload folder (anything else is never
        deleted, whatever a request names), else None."""
        p = Path(path)
        try:
            inside = p.resolve(strict=False).is_relative_to(self.uploads.resolve())
        except (OSError, ValueError):
            return None
        return str(p) if inside and not p.is_symlink() else None

    def hold(self, session: str, paths: Iterable[str | Path]) -> None:
        """Make ``paths`` what ``session``'s upload box holds now; files it held before and no
        longer does are deleted. Raises :class:`QuotaError` when the session or the whole
        Space would go past its quota; then every file of the box is deleted (the page
        empties the box)."""
        want = {p: _size(p) for p in filter(None, map(self._own, paths))}
        with self._lock:
            before = self._held.get(session, {})
            new = {p: n for p, n in want.items() if p not in before}
            held = sum(want.values())
            message = None
            if held > self.session_quota:
                message = (f"these uploads take {held / 2**20:.0f} MB; a session may hold "
                           f"{self.session_quota // 2**20} MB at once")
            elif new and tree_bytes(self.root) > self.total_quota:
                message = "the Space's upload space is full right now; try again in a few minutes"
            if message:  # the box is emptied: nothing in it is kept
                self._held.pop(session, None)
                dropped = list({**before, **want})
            else:
                self._held[session] = want
                dropped = [p for p in before if p not in want]
        self._delete(dropped)
        if message:
            raise QuotaError(message)

    def release(self, session: str, paths: Iterable[str | Path] | None = None) -> None:
        """Delete ``paths`` (all ``session`` holds when None) and forget them."""
        with self._lock:
            held = self._held.get(session, {})
            gone = list(held) if paths is None else list(filter(None, map(self._own, paths)))
            for p in gone:
                held.pop(p, None)
            if not held:
                self._held.pop(session, None)
        self._delete(gone)

    def _delete(self, paths: Iterable[str]) -> None:
        """Remove upload files no session still holds, and their now empty hash folders (gradio
        stores an upload as ``<uploads>/<sha256>/<name>``; identical uploads share one file)."""
        with self._lock:
            still = {p for held in self._held.values() for p in held}
        for p in paths:
            if p in still:
                continue
            with contextlib.suppress(OSError):
                os.remove(p)
            with contextlib.suppress(OSError):
                parent = Path(p).parent
                if parent != self.uploads:
                    parent.rmdir()  # only when empty

    def sweep(self, uploaded: Iterable[str]) -> None:
        """Delete uploads (gradio's ``upload_file_set``) that no session holds and that are
        older than :data:`ORPHAN_SECONDS`."""
        with self._lock:
            held = {p for h in self._held.values() for p in h}
        cutoff = time.time() - ORPHAN_SECONDS
        old = [p for p in filter(None, map(self._own, list(uploaded)))
               if p not in held and _ctime(p) < cutoff]
        self._delete(old)

    def start_sweeper(self, uploaded_set, every: float = SWEEP_SECONDS) -> None:
        """Run :meth:`sweep` over ``uploaded_set`` every ``every`` seconds in a daemon thread."""
        def loop() -> None:
            while not self._closed:
                time.sleep(every)
                with contextlib.suppress(Exception):  # a sweep must never take the Space down
                    self.sweep(uploaded_set)

        threading.Thread(target=loop, name="chartspace-sweeper", daemon=True).start()

    # -- upload requests ------------------------------------------------------------------
    @contextlib.contextmanager
    def reserve(self, nbytes: int) -> Iterator[None]:
        """Room for an upload request of ``nbytes``; raises QuotaError when there is none."""
        with self._lock:
            if tree_bytes(self.root) + self._reserved + nbytes > self.total_quota:
                raise QuotaError("the Space's upload space is full right now; try again in a few minutes")
            self._reserved += nbytes
        try:
            yield
        finally:
            with self._lock:
                self._reserved -= nbytes

    # -- scratch and shutdown -------------------------------------------------------------
    @contextlib.contextmanager
    def scratch(self) -> Iterator[Path]:
        """A temporary folder inside the work folder, deleted when the block ends."""
        path = Path(tempfile.mkdtemp(prefix="scratch-", dir=self.root))
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)

    def close(self) -> None:
        """Delete the whole work folder (idempotent)."""
        self._closed = True
        shutil.rmtree(self.root, ignore_errors=True)

    def install_signal_handlers(self, signals: tuple[int, ...] | None = None) -> None:
        """Clean up on ``signals`` (call after the server started: gradio's SSR mode installs
        its own). Each handler chains the one it replaces: a Python handler is called next;
        the default action is re-raised (the process still dies of the signal, as its
        supervisor expects); an ignored signal stays ignored (and cleans nothing). Default: SIGTERM and SIGHUP."""
        if signals is None:
            signals = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
        for signum in signals:
            previous = signal.getsignal(signum)
            if previous == signal.SIG_IGN:  # the process outlives this signal: keep its folder
                continue

            def handler(num, frame, previous=previous):
                self.close()
                if callable(previous):
                    previous(num, frame)
                elif previous == signal.SIG_DFL:
                    signal.signal(num, signal.SIG_DFL)
                    os.kill(os.getpid(), num)

            signal.signal(signum, handler)


class UploadGuard:
    """ASGI middleware for POSTs to gradio's ``/upload``: counts the body as it arrives.

    ``Transfer-Encoding`` is refused (411: an upload must say its length, and a chunked body
    beside a ``Content-Length`` is the classic way to make a server trust the wrong one);
    room for the declared length is reserved before the body is read (413 when there is
    none); the body is then passed on chunk by chunk, and the first chunk that would take it
    past its declared length (which is also the room reserved) ends the request with a 413
    before gradio writes it. So the work folder never grows past the total quota, whatever
    the headers say."""

    def __init__(self, app, workspace: Workspace) -> None:
        self.app = app
        self.workspace = workspace

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].endswith("/upload"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if b"transfer-encoding" in headers:
            await _plain(send, 411, "an upload must not carry Transfer-Encoding; send it with a Content-Length")
            return
        try:
            length = int(headers.get(b"content-length", b""))
            if length < 0:
                raise ValueError(length)
        except ValueError:
            await _plain(send, 411, "an upload must carry a Content-Length header")
            return
        try:
            with self.workspace.reserve(length):
                await self._counted(scope, receive, send, length)
        except QuotaError as exc:
            await _plain(send, 413, str(exc))

    async def _counted(self, scope, receive, send, limit: int) -> None:
        """Run the app with a ``receive`` that counts body bytes and stops at ``limit``."""
        received = 0
        over = False
        started = False

        async def counted_receive():
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:  # the body outgrew what it declared: never hand it on
                    over = True
                    raise _TooLarge
            return message

        async def tracked_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except _TooLarge:
            pass
        except Exception:
            if not over:
                raise
        if over and not started:
            await _plain(send, 413, f"the upload sent more than the {limit} bytes its Content-Length declared")


class _TooLarge(Exception):
    """Raised inside the app's ``receive`` when a body outgrows its declared length."""


async def _plain(send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _size(path: str) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def _ctime(path: str) -> float:
    """When the file was stored (ctime, as gradio's own cache expiry ages files)."""
    try:
        return os.lstat(path).st_ctime
    except OSError:
        return 0.0
