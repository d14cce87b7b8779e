"""One writer per release: the advisory lock a build or merge holds on its release name in ``--out``.

Two builds into one ``--out`` once both checked that ``chartprobe-<name>`` did not exist, both
built, and the later swap silently replaced the earlier release, each reporting success. So
:func:`release_lock` takes ``fcntl.flock`` on ``<out>/.chartprobe-<name>.lock`` before the
existence check and holds it through the swap; a second build or merge of the same name, with
or without ``--overwrite``, is refused at once with :class:`ReleaseBusy`, naming the holder
(its pid, host and command line, written into the lock file).

The kernel drops a flock when its holder dies, so a killed build never leaves a stale lock. The
holder unlinks the file before it unlocks; a process that opened the old file meanwhile sees,
once it holds the lock, that the name now means another file, and starts over.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from ..core.targets import refuse_foreign

__all__ = ["ReleaseBusy", "lock_path", "release_lock"]


class ReleaseBusy(RuntimeError):
    """Another process is writing the same release into the same folder."""


def lock_path(out_root: Path, repo_name: str) -> Path:
    """The lock file of release ``repo_name`` in ``out_root`` (hidden; never taken for a leftover)."""
    return out_root / f".{repo_name}.lock"


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it ("" when it has not yet written it)."""
    try:
        data = os.pread(fd, 4096, 0)
        who = json.loads(data.decode("utf-8"))
        where = "this machine" if who.get("host") == socket.gethostname() else f"host {who.get('host')}"
        return f"pid {who.get('pid')} on {where}: {who.get('command')}"
    except (OSError, ValueError, AttributeError):
        return ""


def _open(path: Path) -> int:
    refuse_foreign(path)  # a device or FIFO at the lock's name is never opened
    # O_NOFOLLOW: a link planted at the lock's name must not make us create or truncate its target.
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ReleaseBusy(f"{path}: exists and is not a lock file (remove it if no build is running)")
    return fd


def _acquire(path: Path, release: Path) -> int:
    """The open, locked lock file of ``release``, or :class:`ReleaseBusy`."""
    import fcntl

    while True:
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = _holder(fd)
            os.close(fd)
            raise ReleaseBusy(f"{release} is being written by another chartprobe process"
                              f"{f' ({who})' if who else ''}; wait for it to finish or stop it") from None
        try:
            same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the previous holder unlinked it between our open and our lock: start over


@contextlib.contextmanager
def release_lock(out_root: str | os.PathLike, repo_name: str) -> Iterator[Path]:
    """Hold the lock of ``out_root/repo_name`` for the block (``out_root`` is created); yield the lock file."""
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    path = lock_path(out_root, repo_name)
    fd = _acquire(path, out_root / repo_name)
    try:
        command = " ".join([Path(sys.argv[0]).name or "python", *sys.argv[1:]]) if sys.argv else "python"
        me = {"pid": os.getpid(), "host": socket.gethostname(), "command": command}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode("utf-8"), 0)
        yield path
    finally:
        with contextlib.suppress(OSError):  # unlink first: see the module docstring
            os.unlink(path)
        os.close(fd)  # closing the only descriptor releases the flock
