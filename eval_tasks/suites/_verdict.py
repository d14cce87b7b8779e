"""A validity line whose status is computed from its own numbers, so the table cannot contradict itself.

Every check used to pass its status in beside a free-text threshold, and the table then showed
the point estimate (``0.593``) next to a threshold applied to a different number (its Wilson
lower bound) as ``0.593 | <= 0.50 | pass``. Here a check names the statistic it tests, the
comparison and the limit; :func:`verdict` derives the status and the threshold text from them,
and the table shows the tested number beside the value.
"""

from __future__ import annotations

from chartprobe.dataset_builders.core.registry import Registry

from ._runs import Check

__all__ = ["EPS", "OPS", "decide", "info", "verdict"]

EPS = 1e-9
"""Floating-point slack: a rate of 1 - 1e-12 meets ``= 1``."""

OPS = Registry("validity comparison", None)
"""op -> ``(tested, limit) -> bool``."""


@OPS.register("<=")
def _at_most(x: float, limit: tuple[float, ...]) -> bool:
    return x <= limit[0] + EPS


@OPS.register(">=")
def _at_least(x: float, limit: tuple[float, ...]) -> bool:
    return x >= limit[0] - EPS


@OPS.register("=")
def _equal(x: float, limit: tuple[float, ...]) -> bool:
    return abs(x - limit[0]) <= EPS


@OPS.register("in")
def _within(x: float, limit: tuple[float, ...]) -> bool:
    return limit[0] - EPS <= x <= limit[1] + EPS


def decide(tested: float | None, op: str, limit: tuple[float, ...]) -> str:
    """pass / fail from the comparison; n/a when there is nothing to test; info without a comparison."""
    if not op:
        return "info"
    if tested is None:
        return "n/a"
    return "pass" if OPS.get(op)(tested, tuple(limit)) else "fail"


def _limit_text(op: str, limit: tuple[float, ...], signed: bool, percent: bool) -> str:
    def num(x: float) -> str:
        if percent:
            return f"{x:.0%}"
        if signed:
            return f"{x:+.2f}"
        return f"{x:g}" if float(x).is_integer() else f"{x:.2f}"

    return f"{num(limit[0])}-{num(limit[1])}" if op == "in" else f"{op} {num(limit[0])}"


def verdict(check: str, scope: str, agent: str, value: float | None, n: int, *, op: str,
            limit: float | tuple[float, ...], tested: float | None = None, statistic: str = "value",
            note: str = "", signed: bool = False, percent: bool = False) -> Check:
    """One validity line: ``tested`` (default ``value``) compared with ``limit`` by ``op``.

    ``statistic`` names what ``tested`` is when it is not the value (``"95% lower bound"``); the
    threshold text reads ``<statistic> <op> <limit> (<note>)``.
    """
    bounds = tuple(limit) if isinstance(limit, tuple) else (float(limit),)
    if statistic == "value":
        tested = value
    text = _limit_text(op, bounds, signed, percent)
    if statistic != "value":
        text = f"{statistic} {text}"
    if note:
        text = f"{text} ({note})"
    return Check(check, scope, agent, value, text, n, decide(tested, op, bounds),
                 tested, statistic, op, bounds)


def info(check: str, scope: str, agent: str, value: float | None, n: int) -> Check:
    """A line reported without a threshold (e.g. the random guesser's accuracy)."""
    return Check(check, scope, agent, value, "-", n, "info")
