"""What every sandboxed child needs from the host: its environment, the interpreter folders to bind,
a prebuilt matplotlib font cache, and the unprivileged user it runs as."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

__all__ = [
    "EXIT_CPU",
    "EXIT_FILES",
    "EXIT_MEMORY",
    "EXIT_OUTPUT",
    "JOB_UIDS",
    "MAX_FILES",
    "child_env",
    "font_cache",
    "interpreter_binds",
    "job_uid",
    "own_tasks",
]

EXIT_MEMORY = 86
"""The runner's exit status when the code ran out of address space (kept equal to runner.py's)."""
EXIT_OUTPUT = 87
"""The runner's exit status when a write passed the output limit (EFBIG)."""
EXIT_CPU = 88
"""The runner's exit status at the CPU soft limit (its SIGXCPU handler)."""
EXIT_FILES = 89
"""The runner's exit status when the scratch folder holds more than its file-count cap."""
MAX_FILES = 2000
"""That cap (kept equal to runner.py's)."""
JOB_UIDS = range(2_000_000_000, 2_000_000_000 + 2**22)
"""The uids/gids a job runs as when the host runs as root: one per job, so that RLIMIT_NPROC counts
that job's tasks alone. Jobs running at once as one shared uid (65534) counted each other's tasks,
and a job could not fork when other workers' jobs were in flight. No account uses this range; it
has room for every thread id the kernel can hand out (``pid_max`` is at most 2**22)."""

_LIBRARIES = ("numpy", "pandas", "matplotlib", "PIL", "dateutil", "pyparsing", "kiwisolver", "cycler",
              "fontTools", "contourpy", "packaging", "pytz", "tzdata", "six")
"""What the contract's imports load; their folders are bound read-only (usually inside sys.prefix)."""


def child_env(scratch: str, *, private_tmp: bool) -> dict[str, str]:
    """The child's whole environment: nothing of the host's (no keys, no proxies, no PYTHONPATH)."""
    return {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": "/tmp" if private_tmp else scratch,
            "LANG": "C.UTF-8", "MPLBACKEND": "Agg", "MPLCONFIGDIR": f"{scratch}/.mpl",
            "PYTHONHASHSEED": "0", "SOURCE_DATE_EPOCH": "0", "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@functools.cache
def interpreter_binds() -> list[Path]:
    """Folders the interpreter and the contract's libraries live in (outermost only)."""
    paths = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    paths.add(Path(sys.executable).resolve().parent.parent)
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            paths.add(Path(spec.origin).resolve().parent.parent)
    outer = sorted(paths, key=lambda p: len(p.parts))
    kept: list[Path] = []
    for p in outer:
        if p.is_dir() and not any(p == k or k in p.parents for k in kept):
            kept.append(p)
    return kept


@functools.cache
def font_cache() -> Path:
    """A matplotlib config folder holding a font list built once per machine and matplotlib version,
    copied into each job (building it in every job would cost seconds per chart)."""
    import matplotlib

    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chartprobe"
    target = root / f"sandbox-mpl-{matplotlib.__version__}"
    if any(target.glob("fontlist-*.json")):
        return target
    root.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix="sandbox-mpl-", dir=root))
    # matplotlib's own font scan, with an empty HOME so the list holds only system and bundled fonts
    env = {"PATH": "/usr/bin:/bin", "HOME": str(build), "MPLCONFIGDIR": str(build), "MPLBACKEND": "Agg"}
    subprocess.run([sys.executable, "-s", "-c", "import matplotlib.font_manager"], env=env, check=True,
                   timeout=300, capture_output=True)
    try:
        build.rename(target)
    except OSError:  # another process built it first: keep theirs, drop ours
        if any(target.glob("fontlist-*.json")):
            shutil.rmtree(build, ignore_errors=True)
            return target
        return build
    return target


def job_uid() -> int:
    """The uid a job started from this thread runs as (host as root): the thread's id is unique on
    the host while the thread lives, and a thread waits for its job, so no two jobs share a uid."""
    return JOB_UIDS[threading.get_native_id() % len(JOB_UIDS)]


def own_tasks() -> int:
    """How many tasks (threads included) this user runs now: RLIMIT_NPROC counts every thread of
    the user's, and counting processes only left a job no fork when the host's threads filled it."""
    uid = str(os.getuid())
    n = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(ln.split(":", 1) for ln in status.read_text().splitlines() if ":" in ln)
        except OSError:
            continue
        if fields.get("Uid", "").split()[:1] == [uid]:
            n += int(fields.get("Threads", "1").strip() or 1)
    return n
