"""Chart Perception Alignment pairs: a clean chart and the same chart with one verified flaw.

An item draws a (strategy, kind) cell from a per-criterion permutation, samples a chart of
that kind, cleans it (a legend lying on the data moves outside), injects the flaw, renders
both and keeps the pair only if the flaw's ``verify`` returns evidence and the better chart
is itself clean. A failed attempt moves on deterministically (next cell, next seed); an item
whose attempts all fail is dropped, never emitted.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..core.charts import CHARTS
from ..core.charts._base import SampleConfig
from ..core.rng import rng_for
from ..core.spec import ChartSpec, SpecError
from .flaws import FLAWS

__all__ = ["MAX_ATTEMPTS", "CpaPair", "build_pair", "cells", "cleaned", "is_clean"]

MAX_ATTEMPTS = 12
_SAMPLING = {  # what a strategy needs from the sampled chart
    "phantom_series": SampleConfig(n_series=(2, 4), legend_form="box"),
    "legend_mismatch": SampleConfig(n_series=(2, 4), legend_form="box"),
    "legend_over_data": SampleConfig(n_series=(1, 3), legend_form="box"),
    "indistinguishable_categories": SampleConfig(n_series=(2, 4)),
}


@dataclass(frozen=True)
class CpaPair:
    """A verified pair with its renders and evidence."""

    criterion: str
    strategy: str
    better: ChartSpec
    worse: ChartSpec
    rendered_better: Any
    rendered_worse: Any
    evidence: dict
    attempts: int


def cells(criterion: str) -> list[tuple[str, str]]:
    """Every (strategy, kind) combination a criterion can produce, in a stable order."""
    flaw = FLAWS.get(criterion)()
    return [(s.name, k) for s in flaw.strategies for k in (s.kinds or CHARTS.names()) if k in CHARTS]


def is_clean(r: Any) -> bool:
    """A better chart must not show a layout flaw itself: no colliding text, no legend on data or
    on axis text (``core.readability``: a tick label under the legend box cannot be read)."""
    from ..core.readability import legend_over_text
    from .flaws import _evidence as ev

    return not ev.text_collisions(r) and not ev.legend_overlaps(r) and not legend_over_text(r.boxes)


def _sample(kind: str, strategy: str, rng) -> ChartSpec:
    from ..core.render import sample_spec

    return sample_spec(kind, rng, _SAMPLING.get(strategy, SampleConfig()))


def cleaned(spec: ChartSpec) -> tuple[ChartSpec, Any]:
    """``spec`` and its render, with a legend that lies on the data moved outside the axes."""
    from ..core.render import render
    from .flaws import _evidence as ev

    rendered = render(spec)
    if ev.legend_overlaps(rendered):  # keep the better chart free of positioning flaws
        spec = spec.replace(legend=dataclasses.replace(spec.legend, position="outside right"))
        rendered = render(spec)
    return spec, rendered


def build_pair(seed: int, key: str, criterion: str, index: int) -> CpaPair | None:
    """The ``index``-th pair of ``criterion`` (None when every attempt failed verification)."""
    from ..core.render import render

    flaw = FLAWS.get(criterion)()
    grid = cells(criterion)
    order = rng_for(seed, "cpa-cells", criterion).permutation(len(grid))
    for attempt in range(MAX_ATTEMPTS):
        strategy, kind = grid[int(order[(index + attempt * 5) % len(grid)])]
        rng = rng_for(seed, key, "attempt", attempt)
        spec, rendered = cleaned(_sample(kind, strategy, rng))
        try:
            inj = flaw.apply(spec, rng, strategy)
        except SpecError:  # a kind may refuse the flawed spec: next attempt
            continue
        if inj is None:
            continue
        before = rendered if inj.better == spec else render(inj.better)
        if not is_clean(before):
            continue
        after = render(inj.worse)
        evidence = flaw.verify(before, after, inj)
        if evidence is not None:
            return CpaPair(criterion, inj.strategy, inj.better, inj.worse, before, after,
                           {**evidence, "attempt": attempt}, attempt + 1)
    return None
