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
    """What one job may use. CPU seconds and address space are per process (rlimits), wall time is
    for the whole job, output is the most any file it writes may hold (stdout and stderr included),
    processes the most it may run at once (RLIMIT_NPROC, as the unprivileged user it runs as)."""

    cpu_s: float = 20.0
    wall_s: float = 40.0
    memory_mb: int = 1536
    output_mb: int = 16
    processes: int = 32

    def __post_init__(self) -> None:
        for name in ("cpu_s", "wall_s", "memory_mb", "output_mb", "processes"):
            if not getattr(self, name) > 0:
                raise ValueError(f"sandbox limit {name} must be positive, got {getattr(self, name)!r}")


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
    (empty unless ``ok``)."""

    status: str
    reason: str
    results: tuple[CallResult, ...]
    mechanism: str
    wall_s: float


class Mechanism(ABC):
    """An isolation mechanism: how the child's command line is wrapped."""

    name: ClassVar[str]
    isolates_files: ClassVar[bool]
    """True when the code sees only the interpreter, its libraries and the scratch folder."""
    description: ClassVar[str]

    @abstractmethod
    def found(self) -> bool:
        """The tool is installed (cheap; :func:`~.jobs.mechanisms` also proves it works here)."""

    @abstractmethod
    def wrap(self, python: list[str], scratch: Path, runner: Path, binds: list[Path], limits: Limits,
             as_root: bool) -> tuple[list[str], str, str]:
        """(command line, the runner's path as the child sees it, the scratch folder's path as the
        child sees it). ``binds``: folders the interpreter needs (read-only); ``as_root``: the host
        runs as root (the runner then drops to an unprivileged user itself)."""

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
