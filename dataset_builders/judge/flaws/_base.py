"""The flaw contract: one ChartJudgeBench criterion per file, several injection strategies each.

A :class:`Flaw` (registered with ``@flaw("<criterion>")``) holds the strategies of its
criterion, taken from the paper's flaw-injection prompts (Appendix B.2.1). A strategy
*prepares* the better chart when it needs something present (value labels for the lazy
annotation), *applies* the flaw as a pure spec transform, and *verifies* it from the two
renders. :meth:`Flaw.verify` adds what every pair must satisfy: same kind, same data (but
for the ``missing`` flag), only this criterion's fields changed (:data:`FIELD_CRITERION`),
and no other criterion's detector newly firing on the worse chart.
"""

from __future__ import annotations

import abc
import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...core.spec import ChartSpec
from . import _evidence as ev

__all__ = ["DIMENSIONS", "FIELD_CRITERION", "Flaw", "Injection", "Strategy", "changed_fields",
           "collateral", "criteria_of"]

DIMENSIONS = {"color_consistency": "visual_effects", "visual_style": "visual_effects",
              "aspect_ratio": "visual_effects", "component_positioning": "layout_structure",
              "text_occlusion": "layout_structure", "data_encoding": "data_fidelity",
              "axis_scaling": "data_fidelity"}
"""Criterion -> the paper's dimension (§3.1)."""

FIELD_CRITERION = {
    "encodings.color": "color_consistency", "encodings.colors": "color_consistency",
    "legend.colors": "color_consistency",
    "style.mark_scale": "visual_style", "style.alpha": "visual_style",
    "style.width": "aspect_ratio", "style.height": "aspect_ratio",
    "axes.y_limits": "axis_scaling", "axes.x_limits": "axis_scaling",
    "data.series.missing": "data_encoding",
    "legend.position": "component_positioning", "legend.opaque": "component_positioning",
    "style.title_y": "component_positioning",
    "axes.x_tick_rotation": "text_occlusion", "axes.label_pad": "text_occlusion",
    "style.value_label_anchor": "text_occlusion",
}
"""Which criterion a changed spec field belongs to; any other change disqualifies a pair."""


def changed_fields(a: Any, b: Any, path: str = "") -> set[str]:
    """Dotted paths (list indices dropped) of the leaf fields that differ between two specs."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        out: set[str] = set()
        for f in dataclasses.fields(a):
            out |= changed_fields(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}".lstrip("."))
        return out
    if (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
            and a and dataclasses.is_dataclass(a[0])):
        return set().union(*(changed_fields(x, y, path) for x, y in zip(a, b)))
    return set() if a == b else {path}


def criteria_of(fields: set[str]) -> set[str]:
    """Criteria touched by a set of changed fields (``"?"`` for a field no criterion owns)."""
    return {FIELD_CRITERION.get(f, "?") for f in fields}


def collateral(before: Any, after: Any) -> set[str]:
    """Criteria whose render detector fires on ``after`` but not on ``before``."""
    fired = set()
    if ev.text_collisions(after) - ev.text_collisions(before):
        fired.add("text_occlusion")
    if ev.clipped_marks(after) - ev.clipped_marks(before):
        fired.add("axis_scaling")
    if set(ev.mark_keys(before)) - set(ev.mark_keys(after)):
        fired.add("data_encoding")
    if ev.legend_overlaps(after) - ev.legend_overlaps(before):
        fired.add("component_positioning")
    return fired


@dataclass(frozen=True)
class Injection:
    """A prepared better chart, its flawed twin and the strategy that made it."""

    criterion: str
    strategy: str
    better: ChartSpec
    worse: ChartSpec


class Strategy(abc.ABC):
    """One way to inject a criterion's flaw (a bullet of the paper's prompt)."""

    name: ClassVar[str]
    description: ClassVar[str]
    """The paper's wording of the strategy (shown in the dataset card)."""
    kinds: ClassVar[tuple[str, ...] | None] = None
    """Chart kinds the strategy applies to (None = any)."""
    whole_picture: ClassVar[bool] = False
    """The flaw is an appearance of the whole picture (every mark too faint, too thin, too heavy or
    too light against the background): global ink and saturation measure it as a judge sees it, so
    the ``image_stats`` agent of ``chartprobe validate`` finding it there is the skill, not a tell."""

    def applies(self, spec: ChartSpec) -> bool:
        """Whether the strategy can act on ``spec`` (kind and spec preconditions)."""
        return self.kinds is None or spec.kind in self.kinds

    def prepare(self, spec: ChartSpec, rng: np.random.Generator) -> ChartSpec:
        """The better chart (default: ``spec`` itself)."""
        return spec

    @abc.abstractmethod
    def apply(self, spec: ChartSpec, rng: np.random.Generator) -> ChartSpec | None:
        """The flawed chart, or None when this spec cannot carry the flaw."""

    def pair(self, spec: ChartSpec, rng: np.random.Generator) -> tuple[ChartSpec, ChartSpec | None]:
        """(better, worse) made from ``spec``: the prepared chart and the flaw applied to it."""
        better = self.prepare(spec, rng).validate()
        return better, self.apply(better, rng)

    def injected_fields(self, better: ChartSpec, worse: ChartSpec) -> set[str]:
        """The spec fields the flaw changed between the two charts (default: every differing field)."""
        return changed_fields(better, worse)

    @abc.abstractmethod
    def verify(self, before: Any, after: Any, better: ChartSpec, worse: ChartSpec) -> dict | None:
        """Evidence (JSON-able) that ``after`` shows the flaw and ``before`` does not, else None."""


class Flaw:
    """A criterion: its strategies plus the checks every pair of it must pass."""

    name: ClassVar[str]
    strategies: ClassVar[tuple[Strategy, ...]]

    @property
    def dimension(self) -> str:
        return DIMENSIONS[self.name]

    def strategy(self, name: str) -> Strategy:
        """The strategy called ``name``."""
        return next(s for s in self.strategies if s.name == name)

    def applicable(self, spec: ChartSpec) -> list[Strategy]:
        """Strategies that can act on ``spec``."""
        return [s for s in self.strategies if s.applies(spec)]

    def apply(self, spec: ChartSpec, rng: np.random.Generator, strategy: str | None = None,
              prepared: bool = True) -> Injection | None:
        """Inject one flaw into ``spec`` (a named strategy, or one drawn from ``rng``); without
        ``prepared``, onto ``spec`` as it is (no ``Strategy.pair``: a CRJ reference stays as given)."""
        pool = [self.strategy(strategy)] if strategy else self.applicable(spec)
        if not pool or not pool[0].applies(spec):
            return None
        chosen = pool[int(rng.integers(len(pool)))]
        better, worse = chosen.pair(spec, rng) if prepared else (spec, chosen.apply(spec, rng))
        if worse is None:
            return None
        return Injection(self.name, chosen.name, better, worse.validate())

    def verify(self, before: Any, after: Any, inj: Injection, shown: Injection | None = None) -> dict | None:
        """Evidence for a pair, or None when it is not a clean single-criterion flaw.

        ``inj`` is the flaw as injected: its two specs must differ in this criterion's fields only.
        ``before`` and ``after`` render ``shown`` when given: the same two charts, each re-rendered
        with benign differences of its own (``cpa.py``); the flaw is read from those renders."""
        if inj.better.kind != inj.worse.kind:
            return None
        changed = self.strategy(inj.strategy).injected_fields(inj.better, inj.worse)
        if not changed or criteria_of(changed) != {self.name}:
            return None
        if collateral(before, after) - {self.name}:
            return None
        shown = shown or inj
        found = self.strategy(inj.strategy).verify(before, after, shown.better, shown.worse)
        if found is None:
            return None
        return {"criterion": self.name, "strategy": inj.strategy, "changed_fields": sorted(changed), **found}
