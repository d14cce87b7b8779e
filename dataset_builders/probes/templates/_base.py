"""The probe-template contract (ChartProbe's template bank and its CLEVR-like twin).

A template is registered with ``@template("<ID>")`` on a subclass of :class:`Template`.
It declares its skill, answer type, domain, the chart kinds it applies to and its
phrasings, binds arguments for one instance (``bind``), and names the program op that
computes the answer. ``instantiate`` records the :class:`~chartprobe.dataset_builders.core.programs.Program`,
runs it on the view, and returns a :class:`Question` — or ``None`` when the instance is
degenerate (a tie, a trend on two bars...), so every emitted answer is unique and exact.

Perception templates prepend the view's instruction to ignore axis text, and never name a
category or need a value read off an axis.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...core.programs import Program, answer_of, run

__all__ = ["DOMAINS", "SKILLS", "SKILL_CODES", "Question", "Template"]

SKILLS = ("perception", "grounding", "reasoning", "complex")
SKILL_CODES = {"perception": "P", "grounding": "G", "reasoning": "SR", "complex": "CR"}
DOMAINS = ("chart", "shapes")


@dataclass(frozen=True)
class Question:
    """One instantiated probe."""

    template_id: str
    skill: str
    question: str
    answer: str
    answer_type: str
    program: Program
    target_bbox: tuple[float, float, float, float] | None = None


class Template(abc.ABC):
    """Base class of every probe template; subclasses set the class attributes below."""

    name: ClassVar[str]
    """Template id (``P-COUNT-ABOVE-AVG``), set by ``@template``."""
    skill: ClassVar[str]
    answer_type: ClassVar[str]
    op: ClassVar[str]
    """Name of the registered program op that computes the answer."""
    reads: ClassVar[tuple[str, ...]] = ("data.categories", "data.series[0].values")
    """Spec fields the program reads (recorded with it)."""
    phrasings: ClassVar[tuple[str, ...]]
    """``str.format`` patterns; slots come from the view's words and the bound arguments."""
    description: ClassVar[str] = ""
    domain: ClassVar[str] = "chart"
    kinds: ClassVar[tuple[str, ...]] = ("bar", "hbar", "pie")
    held_out: ClassVar[bool] = False
    """Complex-reasoning templates: evaluation only, never in any training split."""
    out_of_template: ClassVar[bool] = False
    """Held-out templates of the out-of-template CR sets (``cr_ood_*``): phrased from
    ``probes/phrase_bank_ood.py``, and the build refuses one whose steps compose trained
    templates or whose phrasing shares a 4-gram with theirs (``probes/out_of_template.py``)."""
    needs_values: ClassVar[bool] = False
    """The answer needs absolute values read off the image (not just relative sizes), so it is
    only asked where the view says they are readable (a pie needs value labels)."""
    value_free: ClassVar[bool] = False
    """Perception templates whose answer is no function of the values a chart prints (colour, how many
    marks): also asked where value labels are drawn, since reading the labels does not give it away."""
    whole_picture: ClassVar[bool] = False
    """Perception templates whose answer is a property of the whole picture (how many marks or colours,
    the biggest mark against the smallest, the trend of the marks): cheap statistics of the image
    (ink, edges, even its byte size) that find it are measuring what the probe asks a model to
    perceive, so the ``image_stats`` and ``metadata`` validity agents do not judge them. Questions
    about particular marks (is the 3rd taller than the 5th? where is the tallest?) stay judged."""
    needs_trend: ClassVar[bool] = False
    """Asked only on trend charts (see ``probes/orders.py``), where sorted orders are allowed."""
    hint: ClassVar[str] = "axis_hint"
    tolerance_rule: ClassVar[str] = "relative"
    """Number answers: ChartProbe scores values within ±5% relative (paper §"Atomic skill
    evaluation", after ChartQA), so every number row records ``rel:0.05``."""
    answer_vocabulary: ClassVar[str] = ""
    """Label answers from a closed set: the synonym table's name (``core/answer_vocab.py``)."""
    """Key of the view word prepended to perception questions (colour questions say colours)."""

    def applies_to(self, view: Any) -> bool:
        """Whether this template can be asked about ``view`` at all."""
        if self.needs_values and not getattr(view, "values_readable", True):
            return False
        # "Judge only the bar heights" on a chart that prints every value is a reading question:
        # where value labels are drawn, perception asks only what the printed values cannot decide.
        if (self.skill == "perception" and not self.value_free
                and getattr(getattr(view.spec, "style", None), "value_labels", False)):
            return False
        return view.spec.kind in self.kinds

    def bind(self, view: Any, rng: np.random.Generator) -> dict[str, Any] | None:
        """Choose the program arguments for one instance (default: none); None if impossible."""
        return {}

    def slots(self, view: Any, args: dict[str, Any]) -> dict[str, Any]:
        """Words available to the phrasing: the view's geometry words plus the arguments."""
        return {**view.words, **args}

    def instantiate(self, view: Any, rng: np.random.Generator) -> Question | None:
        """One probe on ``view`` or None when degenerate; all randomness comes from ``rng``."""
        if not self.applies_to(view):
            return None
        args = self.bind(view, rng)
        if args is None:
            return None
        program = Program(op=self.op, args=args, reads=self.reads)
        answer = answer_of(program, view, self.answer_type)
        if answer is None:
            return None
        text = self.phrasings[int(rng.integers(len(self.phrasings)))].format(**self.slots(view, args))
        if self.skill == "perception" and self.hint in view.words:
            text = f"{view.words[self.hint]} {text}"
        bbox = run(program, view) if self.answer_type == "bbox" else None
        return Question(self.name, self.skill, text, answer, self.answer_type, program,
                        tuple(bbox) if bbox is not None else None)


def pick_labels(view: Any, rng: np.random.Generator, k: int) -> list[str] | None:
    """``k`` distinct labels of the view drawn by ``rng`` (None if it has fewer)."""
    if view.n < k:
        return None
    idx = rng.choice(view.n, size=k, replace=False)
    return [view.labels[int(i)] for i in idx]
