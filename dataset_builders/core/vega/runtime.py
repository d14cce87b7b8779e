"""vl-convert's runtime, started once per process and never carried across a fork.

vl-convert runs Vega in an embedded JavaScript runtime on worker threads that the first call
starts. ``fork`` copies a process without its threads, so a child forked after that first call
waits for an answer that never comes: a build's worker pool hung until CI's 90-minute limit.
:func:`vlc` records which process started the runtime; in any other process that inherited the
record (a fork) it raises at once instead of hanging, and :func:`started` (or :func:`start_method`) lets
a pool choose a fork server when forking would carry a live runtime (the build's
:func:`chartprobe.dataset_builders.release.pool.item_pool`, the report's per-model workers).
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

from .text import FONT_DIR

__all__ = ["ForkedRuntime", "start_method", "started", "vlc"]

_STARTED_IN: int | None = None
"""PID of the process that started the runtime (copied into forked children: how they know)."""


class ForkedRuntime(RuntimeError):
    """Vega was asked to draw in a process forked after its parent started vl-convert's runtime."""


def started() -> bool:
    """Whether this process has started vl-convert's runtime (so forking it would hang the child)."""
    return _STARTED_IN == os.getpid()


def start_method() -> str:
    """The multiprocessing start method for this process's workers: ``fork`` (they start warm, sharing
    what is loaded) unless this platform lacks it or this process has started the runtime; then
    ``forkserver`` (a clean process, started once, forks the workers), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and not started():
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def vlc() -> Any:
    """The ``vl_convert`` module with our fonts registered, its runtime started in this process."""
    global _STARTED_IN
    import vl_convert

    pid = os.getpid()
    if _STARTED_IN == pid:
        return vl_convert
    if _STARTED_IN is not None:
        raise ForkedRuntime(
            f"vl-convert's runtime was started in process {_STARTED_IN} before process {pid} was forked from "
            "it; its threads do not survive a fork, so Vega would hang here. Start worker processes with "
            "'spawn' or 'forkserver', or fork before the first Vega call")
    vl_convert.register_font_directory(FONT_DIR)
    _STARTED_IN = pid
    return vl_convert
