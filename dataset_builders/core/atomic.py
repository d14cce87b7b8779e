"""Atomic file writes: every file chartprobe's commands write goes through here.

A file is written to a hidden temp file in the same folder (so the final rename never
crosses a filesystem), flushed and fsynced, then renamed over the target with
``os.replace``. A reader, a full disk or an interrupt therefore sees either the old file or
the new one, never a half file; on any failure (``KeyboardInterrupt`` included) the temp
file is removed and the old file is untouched.

A rename replaces whatever node has the target's name, so an existing target must be a regular
file (:func:`~.targets.refuse_foreign`, asked before staging and again just before the rename):
a device, FIFO, socket, symbolic link or folder is refused and left as it is.

:func:`atomic_write_files` stages several files first and renames them only once all of
them are on disk, so outputs that belong together (``report.json`` + ``report.md``,
``validity.json`` + ``validity.md``) are not left half old, half new by a full disk.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from .targets import refuse_foreign

__all__ = ["atomic_open", "atomic_write", "atomic_write_files", "atomic_write_text"]


def _write_all(fh, data: bytes) -> None:
    """The one place file contents reach the disk (tests patch it to simulate a full disk)."""
    fh.write(data)


@contextmanager
def _staged(path: Path) -> Iterator[tuple[Path, IO[bytes]]]:
    """A new temp file beside ``path``, open for writing; flushed and fsynced on exit, removed on failure."""
    refuse_foreign(path)  # before any work: a device or FIFO named as the output is never ours
    _remove_orphans(path)
    # The pid in the name tells whose file it is; O_EXCL never reuses someone else's, and
    # mode 0o666 lets the umask decide the permissions exactly as a plain open() would.
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            if path.exists():  # replacing a file keeps its permissions, as rewriting it would
                os.chmod(fh.fileno(), stat.S_IMODE(path.stat().st_mode))
            yield tmp, fh
            fh.flush()
            # Delayed allocation can report a full disk only here; renaming before it
            # would put an empty or cut-off file in place of a good one.
            os.fsync(fh.fileno())
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.filename is None:  # a full disk said "[Errno 28] No space left on device" with no path
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


_ORPHAN = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[0-9a-f]{8}\.tmp$")


def _remove_orphans(path: Path) -> None:
    """Remove temp files of ``path`` that a killed writer (SIGKILL: no cleanup ran) left beside
    it, as a build removes its killed builds' folders; a live writer's temp file is left alone."""
    try:
        names = os.listdir(path.parent)
    except OSError:
        return  # a folder we cannot list: the write itself will say why
    for name in names:
        m = _ORPHAN.match(name)
        if m is None or m["name"] != path.name or _alive(int(m["pid"])):
            continue
        with contextlib.suppress(OSError):
            orphan = path.parent / name
            if stat.S_ISREG(orphan.lstat().st_mode):  # only a plain file we could have written
                orphan.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another thread of ours may be writing it
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


def _replace(tmp: Path, path: Path) -> None:
    """Rename the staged ``tmp`` over ``path``, unless ``path`` became something not ours meanwhile."""
    # Staging a large output takes time; a FIFO or link planted at the target during it is
    # refused here too (a rename cannot itself refuse a node kind, so a window remains).
    refuse_foreign(path)
    os.replace(tmp, path)


def _stage(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new temp file beside ``path`` and return the temp file's path."""
    with _staged(path) as (tmp, fh):
        _write_all(fh, data)
    return tmp


class _TextSink:
    """What :func:`atomic_open` hands out: ``write(str)`` encoded through :func:`_write_all`."""

    def __init__(self, fh: IO[bytes], encoding: str) -> None:
        self._fh, self._encoding = fh, encoding

    def write(self, text: str) -> int:
        _write_all(self._fh, text.encode(self._encoding))
        return len(text)


@contextmanager
def atomic_open(path: str | Path, *, encoding: str = "utf-8") -> Iterator[_TextSink]:
    """Write a text file piece by piece, atomically: the target appears whole on a clean exit only.

    For outputs too large to build in memory first (``chartprobe score`` over millions of
    records). An exception inside the block, a full disk included, removes the temp file
    and leaves any old target untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _staged(path) as (tmp, fh):
        yield _TextSink(fh, encoding)
    try:
        _replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_files(files: Mapping[str | Path, bytes | str], *, encoding: str = "utf-8") -> list[Path]:
    """Write every ``{path: data}`` atomically; nothing is replaced until all are written.

    ``str`` values are encoded with ``encoding``. Parent folders are created. Returns the
    paths in order. If writing any of them fails, no target changes and no temp file stays.
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for target, data in files.items():
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = data.encode(encoding) if isinstance(data, str) else bytes(data)
            staged.append((_stage(path, payload), path))
        # Renames need no new space, so once everything is staged they do not fail on a
        # full disk; a failure here (permissions) can leave earlier targets already new.
        for _, path in staged:  # all checked before the first rename: never half replaced by a refusal
            refuse_foreign(path)
        for tmp, path in staged:
            _replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    return [path for _, path in staged]


def atomic_write(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temp file + rename (never a half file)."""
    return atomic_write_files({path: data})[0]


def atomic_write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> Path:
    """:func:`atomic_write` for text (encoded with ``encoding``, newlines kept as given)."""
    return atomic_write_files({path: text}, encoding=encoding)[0]
