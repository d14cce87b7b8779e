"""Debian's bubblewrap: new user, PID, network, IPC and UTS namespaces; the file system is an empty
tmpfs with the interpreter and its libraries bound read-only and one scratch folder bound
read-write. No ``/etc``, no home folder, no project checkout; ``/tmp`` is a small private tmpfs."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

from .base import Limits, Mechanism, mechanism

__all__ = ["Bubblewrap", "scratch_bytes", "version"]

_SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
"""Read-only system folders (on merged-/usr systems the top-level ones are symlinks, kept as such)."""


def _parents(path: Path, made: set[Path]) -> list[str]:
    """Create ``path``'s ancestors world-searchable: bwrap would make them 0700 (root's), which the
    unprivileged user the code runs as could not cross to reach the interpreter."""
    out: list[str] = []
    for parent in reversed(path.parents[:-1]):  # outermost first, without "/"
        if parent not in made and not any(str(parent) == s for s in _SYSTEM):
            made.add(parent)
            out += ["--perms", "0755", "--dir", str(parent)]
    return out


@mechanism
class Bubblewrap(Mechanism):
    """``bwrap`` (https://github.com/containers/bubblewrap)."""

    name = "bwrap"
    isolates_files = True
    description = ("bubblewrap: no network, own PID/IPC/UTS namespaces, only the interpreter, its "
                   "libraries (read-only) and one scratch folder visible")

    uses_seccomp = True

    def found(self) -> bool:
        return shutil.which("bwrap") is not None

    def wrap(self, python: list[str], scratch: Path, runner: Path, binds: list[Path], limits: Limits,
             as_root: bool, seccomp_fd: int | None = None) -> tuple[list[str], str, str]:
        cmd = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--new-session",
               "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
        if as_root:
            # Run privileged (no user namespace) so the runner can switch to the job's uid itself: a
            # user namespace would map the sandbox to uid 0 outside, which RLIMIT_NPROC exempts.
            # Only the two capabilities that switch are kept; setuid() then clears them.
            cmd += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        else:
            cmd += ["--unshare-user"]
            if version() >= (0, 8):
                cmd.append("--disable-userns")  # no nested user namespace (the seccomp filter also refuses it)
        if seccomp_fd is not None:
            cmd += ["--seccomp", str(seccomp_fd)]
        for path in _SYSTEM:
            p = Path(path)
            if p.is_symlink():
                cmd += ["--symlink", str(p.readlink()), path]
            elif p.is_dir():
                cmd += ["--ro-bind", path, path]
        # /tmp, /proc and /dev first: a later mount over /tmp would hide an interpreter installed
        # under it (a CI clone's .venv in a mktemp folder); binds made after it land on top of it
        cmd += ["--perms", "1777", "--size", str(limits.output_mb * 4 * 2**20), "--tmpfs", "/tmp",
                "--proc", "/proc", "--dev", "/dev"]
        made: set[Path] = {Path("/tmp"), Path("/proc"), Path("/dev")}
        for path in binds:
            if not any(str(path).startswith(s + "/") or str(path) == s for s in _SYSTEM):
                cmd += _parents(path, made) + ["--ro-bind", str(path), str(path)]
        # the scratch folder is a tmpfs of its own, capped in size, gone with the job: nothing the code
        # writes reaches the host's disk; the job file and font list come in read-only under /job
        cmd += [*_parents(Path("/sandbox/runner.py"), made), "--ro-bind", str(runner), "/sandbox/runner.py",
                "--ro-bind", str(scratch), "/job",
                "--perms", "1777", "--size", str(scratch_bytes(limits)), "--tmpfs", "/scratch",
                "--chdir", "/scratch", "--"]
        return cmd + python + ["/sandbox/runner.py", "/scratch", "/job"], "/sandbox/runner.py", "/scratch"


def scratch_bytes(limits: Limits) -> int:
    """The scratch tmpfs's size: room for a few pictures and the font list, far below memory."""
    return limits.output_mb * 4 * 2**20


@functools.cache
def version() -> tuple[int, ...]:
    """bubblewrap's version (``bwrap --version``: "bubblewrap 0.8.0"); (0,) when it does not say."""
    try:
        out = subprocess.run([shutil.which("bwrap") or "bwrap", "--version"], capture_output=True, text=True,
                             timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return (0,)
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(g) for g in found.groups() if g is not None) if found else (0,)
