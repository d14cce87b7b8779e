"""Values of LegendBench's synthetic series: trajectory templates and chart-specific draws.

Line and area marks follow a trajectory template (paper §4.1) so questions have known
structure: ``linear``, ``exponential``, ``s_curve`` or ``event`` (a trend with one jump).
Other kinds draw values that suit their grammar (wedge sizes, a heatmap field). Values are
integers in [5, 99] and distinct within a series, so peaks and ranks are well defined;
templates check the margins they need themselves.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["TRAJECTORIES", "sample_values"]

LOW, HIGH = 5.0, 99.0
WEDGE_KINDS = frozenset({"pie"})
"""Kinds drawing one series of wedge sizes."""
TRAJECTORY_KINDS = frozenset({"line", "area", "grouped_bar"})
"""Kinds over a time axis, whose series follow a trajectory template (paper §4.1)."""
STACK_SCALE = {"area": 1 / 3}
"""Stacked bands must fit under the axis together."""


def _linear(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    a, b = rng.uniform(15, 90, size=2)
    return a + (b - a) * t


def _exponential(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    a, b = sorted(rng.uniform(10, 95, size=2))
    grow = a * (b / a) ** t
    return grow if rng.random() < 0.5 else grow[::-1]


def _s_curve(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    a, b = rng.uniform(10, 95, size=2)
    mid = rng.uniform(0.3, 0.7)
    return a + (b - a) / (1.0 + np.exp(-12.0 * (t - mid)))


def _event(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    base, slope = rng.uniform(25, 70), rng.uniform(-15, 15)
    at = rng.uniform(0.3, 0.8)
    jump = rng.choice([-1.0, 1.0]) * rng.uniform(15, 30)
    return base + slope * t + jump * (t >= at)


def _cyclic(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    """A seasonal swing: about one cycle over the axis, its phase drawn per series.

    Monotone templates rarely cross one another twice (~5% of line charts had such a pair), so
    the crossing-count question could hardly ever answer 2; two swings out of phase usually do.
    """
    base, amp = rng.uniform(35, 65), rng.uniform(12, 28)
    cycles, phase = rng.uniform(0.8, 1.4), rng.uniform(0, 2 * np.pi)
    return base + amp * np.sin(2 * np.pi * cycles * t + phase)


TRAJECTORIES: dict[str, Callable[[np.random.Generator, np.ndarray], np.ndarray]] = {
    "linear": _linear, "exponential": _exponential, "s_curve": _s_curve, "event": _event, "cyclic": _cyclic}
"""Trajectory templates for line and area marks, by name."""


def _distinct(raw: np.ndarray, rng: np.random.Generator) -> tuple[float, ...]:
    """Round to integers in [LOW, HIGH] and nudge repeats apart (keeps the shape)."""
    vals = [round(min(HIGH, max(LOW, v))) for v in raw]
    seen: set[int] = set()
    for i, v in enumerate(vals):
        step = 1 if rng.random() < 0.5 else -1
        while v in seen or not LOW <= v <= HIGH:
            v += step
            if v > HIGH or v < LOW:
                step, v = -step, vals[i]
        seen.add(v)
        vals[i] = v
    return tuple(float(v) for v in vals)


def sample_values(kind: str, rng: np.random.Generator, n: int, n_points: int,
                  trajectory: str) -> list[tuple[float, ...]]:
    """``n`` series of ``n_points`` values (a pie: one series of ``n`` wedge sizes)."""
    if kind in WEDGE_KINDS:
        return [_distinct(rng.uniform(6, 40, size=n), rng)]
    t = np.linspace(0.0, 1.0, n_points)
    scale = STACK_SCALE.get(kind, 1.0)
    out = []
    for _ in range(n):
        if kind in TRAJECTORY_KINDS:
            raw = TRAJECTORIES[trajectory](rng, t) + rng.normal(0.0, 1.5, size=n_points)
        else:  # scatter clouds, radar profiles, heatmap fields: no temporal structure
            raw = rng.uniform(12, 95, size=n_points)
        out.append(_distinct(raw * scale, rng))
    return out
