"""What an output path may already be: a regular file (or folder) chartprobe may replace, or nothing.

Every writer renames a finished temp file over its target, and a rename replaces whatever node
has the name: run as root with ``--out /dev/full`` it once replaced the machine's ``/dev/full``
with a JSON file. So before staging, and again just before the rename, every writer asks
:func:`refuse_foreign`: an existing target that is a character or block device, a FIFO, a
socket or a symbolic link (or, for a file output, a folder) is refused with
:class:`ForeignTarget`, and the node is never touched.

The target is looked at with ``lstat``: the final name itself, never what it points to, is
what a rename would replace. Folders above it may be links (``hub -> /mnt/big/hub``); the
name we write may not. :class:`ForeignTarget` is an ``OSError`` with the path as its
``filename``, so every command reports it as one ``chartprobe: error: <path>: ...`` line.
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["ForeignTarget", "node_kind", "refuse_foreign"]

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a regular file"))


class ForeignTarget(OSError):
    """An output path exists and is not something chartprobe may replace (the node stays as it is)."""

    def __init__(self, path: str | os.PathLike, why: str) -> None:
        # EEXIST: the name is taken; strerror + filename read "<path>: <why>" in the CLI's one line.
        super().__init__(errno.EEXIST, why, os.fspath(path))


def node_kind(mode: int) -> str:
    """``st_mode`` in words: "a character device", "a FIFO (named pipe)", "a folder" ..."""
    return next((what for test, what in _KINDS if test(mode)), "a special file")


def refuse_foreign(path: str | os.PathLike, *, folder: bool = False) -> None:
    """Raise :class:`ForeignTarget` unless ``path`` is missing or is a regular file (``folder``: a real folder).

    Never follows a link and never opens the node, so a device, a FIFO or a socket is left
    exactly as it was (opening a FIFO would block; opening a device can have effects).
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except NotADirectoryError:  # a file stands where a folder above it should be: the write reports that
        return
    if (stat.S_ISDIR if folder else stat.S_ISREG)(mode):
        return
    wanted = "a folder" if folder else "a regular file"
    raise ForeignTarget(path, f"is {node_kind(mode)}, not {wanted} (refusing to replace it; give another path)")
