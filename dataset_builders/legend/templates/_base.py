"""The LegendBench question-template contract and the legend state templates read.

A template is registered with ``@legend_template("<name>")`` on a subclass of
:class:`LegendTemplate`. It proposes parameter sets for a chart (``candidates``), phrases a
question (``text``) and computes its answer (``answer``) from a :class:`State` — the fixed
chart side ``s`` plus one legend side ``l``. Parameters name *semantic* targets (labels)
or, for questions anchored on a visual cue, a legend item; so re-running ``answer`` and
``text`` on an intervened legend re-instantiates the question with its intent kept
(paper §4.3). ``gold`` adds the answerability rule: when a legend entry the question needs
(``evidence``) is not displayed, the gold answer is "I don't know".
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...core.spec import ChartSpec, Encoding
from ..unit import LegendSide, compose, item_labels, legend_names_field
from ..vocab import cue_phrase, vocabulary_hint

__all__ = ["ABSTAIN", "LegendTemplate", "State", "fmt"]

ABSTAIN = "I don't know"
"""The gold answer of an unanswerable question (scored with the ``abstain`` answer type)."""


def fmt(value: float) -> str:
    """Answer text of a number: integers without a decimal point, else up to 4 significant digits."""
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:.4g}"


@dataclass(frozen=True)
class State:
    """One legend state over a fixed chart: what a template reads."""

    chart: ChartSpec
    legend: LegendSide
    channels: tuple[str, ...]
    add_labels: bool

    @property
    def kind(self) -> str:
        return self.chart.kind

    @property
    def wedges(self) -> bool:
        """True when the legend names the categories (a pie's wedges), not series."""
        return legend_names_field(self.kind) == "categories"

    @property
    def spec(self) -> ChartSpec:
        """The renderable spec of this state (what the image is drawn from)."""
        return compose(self.chart, self.legend)

    @property
    def labels(self) -> tuple[str, ...]:
        """Label of every legend item under the current mapping."""
        return item_labels(self.legend)

    def item_of(self, label: str) -> int:
        """The legend item (series/wedge index) the legend currently binds ``label`` to."""
        return self.labels.index(label)

    def encoding(self, item: int) -> Encoding:
        return self.chart.encodings[item]

    def cue(self, item: int) -> str:
        """Visual cue naming the marks of ``item`` ("the red dashed line")."""
        return cue_phrase(self.encoding(item), self.channels, self.kind)

    def series_values(self, item: int) -> tuple[float, ...]:
        """Values of series ``item`` as the legend declares them (through a colour-bar scale)."""
        a, b = self.legend.scale
        return tuple(a * v + b for v in self.chart.data.series[item].values)

    def wedge_values(self) -> tuple[float, ...]:
        return self.chart.data.series[0].values

    @property
    def categories(self) -> tuple[str, ...]:
        return self.chart.data.categories

    def all_values(self) -> np.ndarray:
        return np.asarray([self.series_values(i) for i in range(len(self.chart.data.series))], dtype=float)

    def margin(self, share: float = 0.05) -> float:
        """A gap of ``share`` of the chart's largest value: what two values must differ by to be
        told apart by eye."""
        return share * float(np.abs(self.all_values()).max())

    # -- evidence ------------------------------------------------------------------------
    def evidence_of_item(self, item: int) -> tuple[str, ...]:
        """Legend box ids that declare ``item``'s identity."""
        form = self.legend.form
        if form == "colorbar":
            return ("legend/colorbar",)
        if form == "direct":
            return (f"legend/direct/{item}",)
        if not self.legend.factors:
            return (f"legend/entry/{item}",)
        ids, offset = [], 0
        for f in self.legend.factors:
            ids.append(f"legend/entry/{offset + f.item_levels[item]}")
            offset += len(f.levels)
        return tuple(ids)

    def visible_evidence(self) -> set[str]:
        """Evidence ids the rendered legend displays."""
        lg = self.legend
        if lg.form == "none":
            return set()
        if lg.form == "colorbar":
            return {"legend/colorbar"}
        prefix = "legend/direct" if lg.form == "direct" else "legend/entry"
        shown = lg.visible if lg.visible is not None else (True,) * lg.n_entries
        return {f"{prefix}/{k}" for k, on in enumerate(shown) if on}


class LegendTemplate(abc.ABC):
    """Base class of every LegendBench question template."""

    name: ClassVar[str]
    task_family: ClassVar[str]
    """T1 parsing, T2 grounding, T3 reasoning."""
    capability: ClassVar[str]
    """guide_read | bind | value_extraction | reason."""
    answer_type: ClassVar[str]
    forms: ClassVar[tuple[str, ...]] = ("box", "direct")
    kinds: ClassVar[tuple[str, ...] | None] = None
    """Chart kinds it applies to (None = every kind with that legend form)."""
    modes: ClassVar[tuple[str, ...]] = ("single", "double", "compositional")
    anchor: ClassVar[str] = "label"
    """label: parameters name labels (the intent follows the label); item: a visual cue."""
    description: ClassVar[str] = ""
    tolerance_rule: ClassVar[str] = "axis"
    """Numeric templates: where the value is read (``axis`` | ``colorbar``), which sets the
    row's ``tolerance`` (``legend/tolerances.py``); printed values make it exact."""
    reads: ClassVar[int] = 1
    """How many reads the numeric answer adds up (a difference: 2, each off by half a step)."""

    def misreadings(self, st: State, params: dict[str, Any]) -> tuple[float, ...]:
        """A derived numeric answer recomputed with one mark misread by one category (its
        neighbouring category or series): what the row's tolerance must not accept."""
        return ()
    answer_set: ClassVar[tuple[str, ...] | None] = None
    """The closed set a count template's answers come from (validity: majority share vs uniform)."""

    def applies(self, st: State, mode: str) -> bool:
        """Whether the template can ask about this chart at all."""
        return st.legend.form in self.forms and mode in self.modes and (self.kinds is None or st.kind in self.kinds)

    @abc.abstractmethod
    def candidates(self, st: State, rng: np.random.Generator) -> list[dict[str, Any]]:
        """Parameter sets with a well-posed answer on ``st`` (may be empty)."""

    def candidates_for(self, st: State, rng: np.random.Generator, want: str | None) -> list[dict[str, Any]]:
        """Candidates whose answer is ``want`` where the chart has some, else :meth:`candidates`.

        A snapshot stratifies a closed answer set over its charts (``want`` cycles through
        ``answer_set`` with the item index), so even a small release asks every answer its charts
        allow instead of the one a chart happens to favour.
        """
        cands = self.candidates(st, rng)
        if want is None:
            return cands
        return [c for c in cands if self.answer(st, c) == want] or cands

    def offers(self, st: State, want: str) -> bool:
        """Whether ``st`` has a well-posed question of this template answering ``want``."""
        return any(self.answer(st, c) == want for c in self.candidates_for(st, np.random.default_rng(0), want))

    @abc.abstractmethod
    def answer(self, st: State, params: dict[str, Any]) -> str | None:
        """The answer on ``st`` assuming the evidence is visible; None when ill-posed."""

    @abc.abstractmethod
    def text(self, st: State, params: dict[str, Any]) -> str:
        """The question, without the vocabulary hint."""

    def targets(self, st: State, params: dict[str, Any]) -> tuple[str, ...]:
        """Labels the question is about (what answerability interventions keep or hide)."""
        if "item" in params:
            return (st.labels[params["item"]],)
        return tuple(params.get("labels", ()))

    def evidence(self, st: State, params: dict[str, Any]) -> tuple[str, ...]:
        """Legend box ids the question needs (a hidden one makes it unanswerable)."""
        out: list[str] = []
        for label in self.targets(st, params):
            out += [e for e in st.evidence_of_item(st.item_of(label)) if e not in out]
        return tuple(out)

    def question(self, st: State, params: dict[str, Any]) -> str:
        """Question text with the visual-vocabulary hint (channels, never the mapping)."""
        # A colour-bar chart's only channel is the continuous scale, whatever legend is shown now.
        hint = vocabulary_hint(("colour scale",) if legend_names_field(st.kind) is None else st.channels)
        return f"{self.text(st, params)} {hint}"

    def gold(self, st: State, params: dict[str, Any]) -> tuple[str, str] | None:
        """(answer, answer_type) on ``st``: "I don't know" when needed evidence is hidden."""
        if not set(self.evidence(st, params)) <= st.visible_evidence():
            return ABSTAIN, "abstain"
        ans = self.answer(st, params)
        return None if ans is None else (ans, self.answer_type)
