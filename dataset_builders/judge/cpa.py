"""Chart Perception Alignment pairs: a clean chart and the same chart with one verified flaw.

An item draws a (strategy, kind) cell from a per-criterion permutation, samples a chart of
that kind, cleans it (a legend lying on the data moves outside), injects the flaw, renders
both and keeps the pair only if the flaw's ``verify`` returns evidence and the better chart
is itself clean. A failed attempt moves on deterministically (next cell, next seed); an item
whose attempts all fail is dropped, never emitted.

Each chart of the pair is drawn with benign differences of its own (``benign.CPA``: font size,
line weight, shade), as two scripts written apart would be, on a figure scale and resolution
drawn once per pair (so the files' sizes say nothing), and the flaw is verified on those
renders. Before, the two charts were one render apart in the criterion's fields only, so every
flaw moved ink share, margins or colour counts one fixed way: the ``image_stats`` agent picked
the better chart in 91.6% of a 137-pair build (AUC .965; six criteria, whole-picture flaws
aside). With the draws, a matched phantom series (``flaws/data_encoding.py``), a tight axis
beside a clipped one (``flaws/axis_scaling.py``) and no blank band over a sunken title
(``core/layout.py``): 57.3% (AUC .653) on that build, and on the full preset's 675 pairs (where
the learner has more to learn from) see docs/validity.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.charts import CHARTS
from ..core.charts._base import SampleConfig
from ..core.rng import rng_for
from ..core.spec import ChartSpec, SpecError
from .benign import CPA, benign
from .flaws import FLAWS
from .flaws._base import Injection

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
    """A verified pair with its renders and evidence (``better``/``worse``: the charts as drawn)."""

    criterion: str
    strategy: str
    better: ChartSpec
    worse: ChartSpec
    rendered_better: Any
    rendered_worse: Any
    evidence: dict
    attempts: int
    injected: Injection
    """The flaw as injected, before each chart's benign draw: its specs differ in the criterion only."""


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


def cleaned(spec: ChartSpec, shown: Callable[[ChartSpec], ChartSpec] | None = None) -> tuple[ChartSpec, Any]:
    """``spec`` and its render, with a legend that lies on the data moved outside the axes
    (``shown``: what is rendered and checked is ``shown(spec)``, the chart as it will be drawn)."""
    from ..core.render import render
    from .flaws import _evidence as ev

    shown = shown or (lambda s: s)
    rendered = render(shown(spec))
    if ev.legend_overlaps(rendered):  # keep the better chart free of positioning flaws
        spec = spec.replace(legend=dataclasses.replace(spec.legend, position="outside right"))
        rendered = render(shown(spec))
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
        draw = _Draws(seed, key, attempt)
        spec, rendered = cleaned(_sample(kind, strategy, rng), draw.better)
        try:
            inj = flaw.apply(spec, rng, strategy)
            shown = Injection(inj.criterion, inj.strategy, draw.better(inj.better).validate(),
                              draw.worse(inj.worse).validate()) if inj else None
        except SpecError:  # a kind may refuse the flawed spec, or a drawn size: next attempt
            continue
        if shown is None:
            continue
        before = rendered if inj.better == spec else render(shown.better)  # a draw is a function of its spec
        if not is_clean(before):
            continue
        after = render(shown.worse)
        evidence = flaw.verify(before, after, inj, shown)
        if evidence is not None:
            return CpaPair(criterion, inj.strategy, shown.better, shown.worse, before, after,
                           {**evidence, "benign": draw.detail, "attempt": attempt}, attempt + 1, inj)
    return None


class _Draws:
    """The benign draws of one attempt: a figure scale and resolution for the pair, and each chart's
    own font size, line weight and shade, from a stream per chart (the better chart's draw is the
    same whether applied to the sampled chart or to the one a strategy prepared)."""

    _KEEP = ("font_delta", "mark_scale", "alpha")

    def __init__(self, seed: int, key: str, attempt: int) -> None:
        self._rng = {side: (seed, key, "benign", attempt, side) for side in ("better", "worse")}
        size = rng_for(seed, key, "benign", attempt, "size")
        self.size = (round(float(size.choice(CPA.scale)), 2), int(size.choice(CPA.dpi)))
        self.detail: dict[str, Any] = {"figure_scale": self.size[0], "dpi": self.size[1]}

    def _apply(self, side: str, spec: ChartSpec) -> ChartSpec:
        drawn, detail = benign(spec, rng_for(*self._rng[side]), resize=True, profile=CPA, size=self.size)
        self.detail[side] = {k: detail[k] for k in self._KEEP}
        return drawn

    def better(self, spec: ChartSpec) -> ChartSpec:
        return self._apply("better", spec)

    def worse(self, spec: ChartSpec) -> ChartSpec:
        return self._apply("worse", spec)
