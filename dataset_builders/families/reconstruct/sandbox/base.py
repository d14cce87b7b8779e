"""The sandbox's vocabulary: limits, calls, results, and the registry of isolation mechanisms.

A *job* is a list of :class:`Call` (model-written code, the one function to call, JSON arguments)
run together in one child process, each in a fresh namespace. A *mechanism* wraps that child's
command line in the isolation it provides (``bwrap``: bubblewrap; ``unshare``: a network namespace
only). Every mechanism also gets the same rlimits, wall-clock kill and minimal environment, which
:mod:`.jobs` applies; the mechanism decides what of the file system the code can see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

__all__ = [
    "MECHANISMS",
    "STATUSES",
    "Call",
    "CallResult",
    "JobResult",
    "Limits",
    "Mechanism",
    "mechanism",
]


@dataclass(frozen=True)
class Limits:
    """What one job may use. CPU seconds are per process, wall time is for the whole job, output is
    the most any file it writes may hold (stdout, stderr and the results included).

    ``memory_mb`` and ``processes`` hold for the whole job: it may run at most ``processes`` tasks
    at once (threads included; RLIMIT_NPROC, as the unprivileged user it runs as), each with an
    address space of ``memory_mb / processes`` (RLIMIT_AS), so all of them together stay under
    ``memory_mb``. (A cgroup v2 leaf would cap the sum directly; the hosts we run on do not delegate
    one, so the rlimit split is what runs, and :attr:`JobResult.guards` says so.) The interpreter
    with numpy, pandas and matplotlib loaded needs about 400 MB of address space, with the paper
    protocol's libraries too (scipy, scikit-learn, statsmodels, seaborn, cartopy) about 600 MB, and
    OpenBLAS then still needs room for its buffers: hence the defaults, three tasks of 1,365 MB."""

    cpu_s: float = 20.0
    wall_s: float = 40.0
    memory_mb: int = 4096
    output_mb: int = 16
    processes: int = 3

    @property
    def per_process_mb(self) -> int:
        """Each task's address space: the job's memory split over its tasks."""
        return max(1, self.memory_mb // self.processes)

    def __post_init__(self) -> None:
        for name in ("cpu_s", "wall_s", "memory_mb", "output_mb", "processes"):
            value = getattr(self, name)
            # `not x > 0` also refuses NaN; inf is no limit at all
            if not value > 0 or value == float("inf"):
                raise ValueError(f"sandbox limit {name} must be a positive finite number, got {value!r}")


@dataclass(frozen=True)
class Call:
    """Call ``function`` defined by ``code`` on JSON ``args``; ``savepath``: also pass a PNG path
    (keyword ``savepath``) in the scratch folder and return what was written there."""

    code: str
    function: str
    args: tuple = ()
    savepath: bool = False


@dataclass(frozen=True)
class CallResult:
    """One call's outcome: its JSON-able return value, or the exception it raised; ``png``: the
    file it saved (``savepath`` calls)."""

    ok: bool
    value: Any = None
    error: str = ""
    png: bytes | None = None


STATUSES = ("ok", "timeout", "cpu", "memory", "output", "killed", "crashed")
"""How a job ends: ``ok`` (every call ran; each may still have raised), or the limit or failure that
stopped it."""


@dataclass(frozen=True)
class JobResult:
    """A job's end: ``status`` (one of :data:`STATUSES`), a sentence saying why, and per-call results
    (empty unless ``ok``); ``guards``: which job-wide guards ran (memory by cgroup or per-process
    rlimit, the seccomp filter, the scratch tmpfs), so a record says what contained the code."""

    status: str
    reason: str
    results: tuple[CallResult, ...]
    mechanism: str
    wall_s: float
    guards: tuple[str, ...] = ()


class Mechanism(ABC):
    """An isolation mechanism: how the child's command line is wrapped."""

    name: ClassVar[str]
    isolates_files: ClassVar[bool]
    """True when the code sees only the interpreter, its libraries and the scratch folder."""
    uses_seccomp: ClassVar[bool] = False
    """True when :meth:`wrap` loads the seccomp filter it is given."""
    description: ClassVar[str]

    @abstractmethod
    def found(self) -> bool:
        """The tool is installed (cheap; :func:`~.jobs.mechanisms` also proves it works here)."""

    @abstractmethod
    def wrap(self, python: list[str], scratch: Path, runner: Path, binds: list[Path], limits: Limits,
             as_root: bool, seccomp_fd: int | None = None) -> tuple[list[str], str, str]:
        """(command line, the runner's path as the child sees it, the scratch folder's path as the
        child sees it). ``scratch``: the host folder holding the job file and font list;
        ``binds``: folders the interpreter needs (read-only); ``as_root``: the host runs as root (the
        runner then drops to an unprivileged user itself); ``seccomp_fd``: a filter program to load
        (:mod:`.seccomp`), for mechanisms that can."""

    def signal_of(self, rc: int, stderr: str) -> int:
        """The signal that ended the child (0: none), from the wrapper's exit status: a negative
        status is the wrapper's own death, and bwrap reports a child's as 128 + the signal."""
        return -rc if rc < 0 else rc - 128 if rc > 128 else 0


MECHANISMS: dict[str, Mechanism] = {}
"""Registered mechanisms by name, strongest first (registration order)."""


def mechanism(cls: type[Mechanism]) -> type[Mechanism]:
    """Register a mechanism class (one instance) under its ``name``."""
    MECHANISMS[cls.name] = cls()
    return cls
