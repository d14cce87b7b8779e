"""The fallback: util-linux ``unshare`` for private network, IPC, UTS and PID namespaces, plus the same rlimits, wall
kill, minimal environment and unprivileged user as every job. The file system is NOT hidden: the
code can read what the unprivileged user can read on the host (``chartprobe reconstruct`` refuses
this mechanism unless told ``--allow-weak-sandbox``)."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

from .base import Limits, Mechanism, mechanism

__all__ = ["Unshare"]


@mechanism
class Unshare(Mechanism):
    """``unshare --net --pid ...`` (root), with ``--map-root-user`` for any other user."""

    name = "unshare"
    isolates_files = False
    description = "unshare: no network and rlimits, but the host file system stays readable"

    def found(self) -> bool:
        return shutil.which("unshare") is not None

    def wrap(self, python: list[str], scratch: Path, runner: Path, binds: list[Path], limits: Limits,
             as_root: bool, seccomp_fd: int | None = None) -> tuple[list[str], str, str]:
        # its own PID namespace too, so whatever the code forks dies with the job and is reaped there
        cmd = [shutil.which("unshare") or "unshare", "--net", "--ipc", "--uts", "--pid", "--fork", "--kill-child"]
        if not as_root:
            cmd.append("--map-root-user")  # an unprivileged user needs a user namespace for the rest
        return cmd + ["--"] + python + [str(runner), str(scratch)], str(runner), str(scratch)

    def signal_of(self, rc: int, stderr: str) -> int:
        # util-linux 2.38 fails to re-raise its child's death signal and exits 1 saying so; the
        # runner reports the CPU limit itself, so what is left is a SIGKILL (CPU hard limit or OOM)
        if rc == 1 and "sigprocmask unblock failed" in stderr:
            return signal.SIGKILL
        return super().signal_of(rc, stderr)
