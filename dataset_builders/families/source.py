"""Chartographer's counterfactual chart-question families: the source-template contract.

A *source template* (``sources/<name>.py``, registered with ``@family_source``)
stands for one accepted chart-question pair of the paper's testbed together with its
executable QA logic (Chartographer §3.2-3.3, A.4-A.5):

- ``source_data(rng)`` -> (data template, question params): the reconstructed chart data
  (a :class:`ChartSpec`, whose ``DataTable`` is the paper's semantic data object) and the
  question's fixed arguments (which series, which threshold...).
- ``generate_data(template, params, seed, rng)`` -> (spec, regime): seed-controlled
  *regimes* (``regime_<name>`` methods; seed ``j`` uses ``regimes[j % len(regimes)]``) that
  reorder ranks, move peaks, flip trends, recompose shares or change the extreme entity
  while keeping the schema (kind, series names, category set) and the domain constraints.
- ``adapt_question(spec, params)``: the family's question, a function of the params only:
  every member of a family is asked the same text (wording that depends on the new data,
  "increase" vs "decrease", would give the answer away).
- ``generate_answer(spec, params)``: the gold value from the data (None = no unique answer,
  e.g. a near tie that cannot be read off the chart; such data is redrawn).

Regimes are seed-controlled and never conditioned on the answer (Chartographer A.4: "The
generator does not assign fixed perturbation labels"): a draw is redrawn only when it is
invalid (schema, domain constraints, no unique answer), never because it kept or changed
the original's answer. Whether a variant's answer changed is an outcome of the data, so
neither "repeat the original" nor "answer the opposite" is a shortcut; each template tunes
its regimes so that both stay well below perfect (``tests/test_families_regimes.py``).
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..core.programs import format_answer
from ..core.registry import Registry
from ..core.spec import (
    AxesSpec,
    ChartSpec,
    DataTable,
    Encoding,
    LegendSpec,
    Series,
    SpecError,
    StyleSpec,
)
from ..core.vocab import pick_palette

__all__ = [
    "FAMILY_SOURCES", "GROUPS", "N_VARIANTS", "REASONING_TYPES", "FamilySource", "Member",
    "argmax_unique", "build_members", "canonical_style", "family_source", "make_spec",
    "scraped_style", "with_values",
]

FAMILY_SOURCES = Registry("family source", "chartprobe.dataset_builders.families.sources")
family_source = FAMILY_SOURCES.register

REASONING_TYPES = ("visual", "text", "visual_text", "synthesis")
"""ChartMuseum's reasoning types: answer from marks, from printed text, from either, or both."""
GROUPS = ("bars", "lines", "shares", "distributions", "timelines")
N_VARIANTS = 10
"""Variant seeds 0..9 per family, as in the paper (V_i = {0, ..., 9})."""
MAX_TRIES = 60


@dataclass(frozen=True)
class Member:
    """One chart of a family: its role, spec, question and gold answer."""

    role: str
    """original | reconstruction | variant"""
    variant_seed: int
    """0..9 for variants, -1 for the original and the reconstruction."""
    regime: str
    spec: ChartSpec
    question: str
    answer: str


class FamilySource(abc.ABC):
    """One source chart-question pair and its executable QA logic (module docstring)."""

    name: ClassVar[str]
    group: ClassVar[str]
    kind: ClassVar[str]
    reasoning_type: ClassVar[str]
    answer_type: ClassVar[str]
    question_template: ClassVar[str]
    """The source question, ``str.format``-ed with the params."""
    regimes: ClassVar[tuple[str, ...]]
    tolerance_rule: ClassVar[str] = "axis"
    """Numeric sources: where the answer's values are read (``core/tolerance.py``): ``printed``
    when the chart prints them, ``axis`` off the value axis (half a tick step per read)."""
    reads: ClassVar[int] = 1
    answer_vocabulary: ClassVar[str] = ""
    """Label sources with a closed answer set: the name of its synonym table (``core/answer_vocab.py``)."""

    @abc.abstractmethod
    def source_data(self, rng: np.random.Generator) -> tuple[ChartSpec, dict[str, Any]]:
        """The reconstructed chart (canonical style) and the question params."""

    @abc.abstractmethod
    def generate_answer(self, spec: ChartSpec, params: dict[str, Any]) -> Any:
        """Gold value computed from ``spec.data``; None when no unique readable answer exists."""

    def adapt_question(self, spec: ChartSpec, params: dict[str, Any]) -> str:
        """The source question for ``params``; never a function of ``spec`` (see module docstring)."""
        return self.question_template.format(**params)

    def check(self, spec: ChartSpec, params: dict[str, Any]) -> bool:
        """Domain constraints beyond the spec's own validation (shares sum to 100...)."""
        return True

    def answer(self, spec: ChartSpec, params: dict[str, Any]) -> str | None:
        """``generate_answer`` in the canonical string form of ``answer_type``."""
        value = self.generate_answer(spec, params)
        return None if value is None else format_answer(value, self.answer_type)

    def regime_fn(self, regime: str) -> Callable[..., ChartSpec]:
        """The ``regime_<name>`` method: (template, params, rng) -> new spec."""
        return getattr(self, f"regime_{regime}")

    def generate_data(self, template: ChartSpec, params: dict[str, Any], seed: int,
                      rng: np.random.Generator) -> tuple[ChartSpec, str]:
        """A same-schema counterfactual of ``template`` under the regime of ``seed``.

        Returns (spec, regime actually used): if the seed's regime cannot produce valid data
        for this template (e.g. nothing left to reorder), the next regime in the cycle is used.
        """
        start = seed % len(self.regimes)
        for regime in self.regimes[start:] + self.regimes[:start]:
            spec = self._draw_regime(regime, template, params, rng)
            if spec is not None:
                return spec, regime
        raise RuntimeError(f"{self.name}: no regime produced valid data in {MAX_TRIES} tries each")

    def _draw_regime(self, regime: str, template: ChartSpec, params: dict[str, Any],
                     rng: np.random.Generator) -> ChartSpec | None:
        """First valid draw of ``regime`` (valid spec, same schema, ``check``, new data, an
        answer), else None.

        The original's answer is deliberately not consulted: redrawing until it changes would
        make "answer the opposite of the original" a winning strategy on binary questions. The
        data itself must change (a permutation may draw the identity): a copy of the
        reconstruction is no counterfactual.
        """
        for _ in range(MAX_TRIES):
            spec = self.regime_fn(regime)(template, params, rng)
            if (is_valid(spec) and same_schema(template, spec) and spec.data != template.data
                    and self.check(spec, params) and self.answer(spec, params) is not None):
                return spec
        return None

    def draw_source(self, rng: np.random.Generator) -> tuple[ChartSpec, dict[str, Any]]:
        """``source_data`` redrawn until it passes validation, constraints and has an answer."""
        for _ in range(MAX_TRIES):
            spec, params = self.source_data(rng)
            spec.validate()
            if self.check(spec, params) and self.answer(spec, params) is not None:
                return spec, params
        raise RuntimeError(f"{self.name}: no answerable source chart in {MAX_TRIES} tries")


def is_valid(spec: ChartSpec) -> bool:
    """A regime may overshoot a kind's constraint (a zero wedge): that draw is redrawn."""
    try:
        spec.validate()
    except SpecError:
        return False
    return True


def same_schema(a: ChartSpec, b: ChartSpec) -> bool:
    """Counterfactuals keep the kind, the series names and the set of categories."""
    return (a.kind == b.kind and a.series_names == b.series_names
            and sorted(a.data.categories) == sorted(b.data.categories))


def build_members(source: FamilySource, rng_of: Callable[..., np.random.Generator]) -> tuple[list[Member], dict]:
    """All 12 members of one family; ``rng_of(*keys)`` gives the family's local generators.

    Every member is asked the family's one question (the original's): a variant's wording never
    follows its data, so the question cannot hint at the new answer.
    """
    template, params = source.draw_source(rng_of("source"))
    question = source.adapt_question(template, params)
    answer = source.answer(template, params)
    members = [Member("original", -1, "original", scraped_style(template, rng_of("scraped")), question, answer),
               Member("reconstruction", -1, "reconstruction", template, question, answer)]
    for seed in range(N_VARIANTS):
        spec, regime = source.generate_data(template, params, seed, rng_of("variant", seed))
        members.append(Member("variant", seed, regime, spec, question, source.answer(spec, params)))
    return members, params


# -- spec helpers shared by the source templates -----------------------------------------

def canonical_style(title: str, value_labels: bool = False) -> StyleSpec:
    """The reconstruction/variant style: default theme, 640x480 at 100 DPI."""
    return StyleSpec(theme="default", width=6.4, height=4.8, dpi=100, value_labels=value_labels,
                     title=title, font_size=10.0)


def scraped_style(spec: ChartSpec, rng: np.random.Generator) -> ChartSpec:
    """The original's look: another theme, smaller figure, lower DPI (JPEG comes at encoding)."""
    st = spec.style
    style = dataclasses.replace(st, theme="scraped", dpi=int(rng.integers(55, 72)),
                                width=round(float(rng.uniform(5.4, 6.6)), 2),
                                height=round(float(rng.uniform(4.0, 4.8)), 2),
                                font_size=float(rng.choice([8.0, 9.0])))
    colors = pick_palette(rng, len(spec.encodings))
    encodings = tuple(dataclasses.replace(e, color=c) for e, c in zip(spec.encodings, colors))
    return spec.replace(style=style, encodings=encodings)


def make_spec(kind: str, categories, series: dict[str, Any], *, title: str, rng: np.random.Generator,
              unit: str = "", x_label: str = "", y_label: str = "", tick_format: str = "{x:g}",
              value_labels: bool = False, legend: str = "box", x_values=None,
              per_category_items: bool = False, grid: bool = True) -> ChartSpec:
    """A canonical-style spec from plain data (one encoding per legend item)."""
    table = DataTable(tuple(categories), tuple(Series(n, tuple(float(v) for v in vals), unit)
                                               for n, vals in series.items()),
                      None if x_values is None else tuple(float(x) for x in x_values))
    n_items = len(categories) if per_category_items else len(series)
    return ChartSpec(kind=kind, data=table, encodings=tuple(Encoding(c) for c in pick_palette(rng, n_items)),
                     legend=LegendSpec(form=legend, position="upper left"),
                     axes=AxesSpec(x_label=x_label, y_label=y_label, tick_format=tick_format, grid=grid),
                     style=canonical_style(title, value_labels))


def with_values(spec: ChartSpec, values: dict[str, Any], categories=None, x_values=None) -> ChartSpec:
    """``spec`` with new values for the named series (and optionally new category order / x)."""
    series = tuple(Series(s.name, tuple(float(v) for v in values.get(s.name, s.values)), s.unit)
                   for s in spec.data.series)
    data = DataTable(tuple(categories) if categories is not None else spec.data.categories, series,
                     tuple(float(x) for x in x_values) if x_values is not None else spec.data.x_values)
    return spec.replace(data=data)


def argmax_unique(values, margin: float) -> int | None:
    """Index of the largest value if it beats the runner-up by ``margin``, else None."""
    vals = np.asarray(values, dtype=float)
    order = np.argsort(vals)[::-1]
    if len(vals) > 1 and vals[order[0]] - vals[order[1]] < margin:
        return None
    return int(order[0])


def ints_summing_to(rng: np.random.Generator, n: int, total: int, concentration, minimum: int = 1) -> list[int]:
    """``n`` positive integers summing exactly to ``total`` (largest-remainder rounding)."""
    shares = rng.dirichlet(np.broadcast_to(np.asarray(concentration, dtype=float), (n,)))
    raw = minimum + shares * (total - n * minimum)
    out = np.floor(raw).astype(int)
    for i in np.argsort(raw - out)[::-1][: total - int(out.sum())]:
        out[i] += 1
    return [int(v) for v in out]
