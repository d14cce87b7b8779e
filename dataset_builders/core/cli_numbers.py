"""Numeric command-line values checked once, the same way for every command.

argparse's ``type=float`` accepts ``nan`` and ``inf`` and ``type=int`` accepts any size: a
``--wall-seconds nan`` sandbox limit, a ``--learning-rate nan`` that passes a ``<= 0`` check
(every comparison with NaN is false) or ``--num-proc 100000`` worker processes would each fail
far from the flag. These checks refuse them with the flag and value named (``UsageError``:
one ``chartprobe: error:`` line, exit 2).
"""

from __future__ import annotations

import math
import os

__all__ = ["MAX_NUM_PROC", "check_num_proc", "check_positive_finite"]

MAX_NUM_PROC = max(64, 4 * (os.cpu_count() or 1))
"""More worker processes than this only add start-up cost and memory (each imports the generators)."""


def check_positive_finite(value: float | None, flag: str) -> None:
    """``value`` (when set) is a finite number > 0; ``nan``, ``inf``, 0 and negatives are refused."""
    from chartprobe.errors import UsageError

    if value is not None and not (math.isfinite(value) and value > 0):
        raise UsageError(f"{flag} must be a finite number > 0, got {value!r}")


def check_num_proc(value: int, flag: str = "--num-proc") -> None:
    """1 <= ``value`` <= :data:`MAX_NUM_PROC` (4 x this machine's CPUs, at least 64)."""
    from chartprobe.errors import UsageError

    if value < 1:
        raise UsageError(f"{flag} must be >= 1, got {value}")
    if value > MAX_NUM_PROC:
        raise UsageError(f"{flag} {value} is more worker processes than is useful here "
                         f"(at most {MAX_NUM_PROC}: 4 x {os.cpu_count() or 1} CPUs, at least 64)")
