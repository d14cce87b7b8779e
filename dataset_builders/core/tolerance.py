"""How close a numeric answer must be: the tolerance a reader of *this* chart can achieve.

A numeric row records its tolerance in the ``tolerance`` column as text, and the ``number``
matcher uses it (``eval_tasks/scoring/matchers.py``); an empty cell means the answer type's default
(±5% relative for ``number``, exact for integers, counts and years). The rules, per template
(each dataset card lists them):

- ``axis`` / ``colorbar``: a value read off a scale is resolvable to half the step between
  the two labelled ticks around it (the renderer records every drawn tick value,
  ``Rendered.ticks``), so the tolerance is ``reads`` x half that step, absolute. A difference
  of two reads (``reads = 2``) may be off by a whole step. Outside the labelled range the
  nearest step counts (an unlabelled colour-bar end).
- ``printed``: the value is printed on the chart, so the answer is exact to its last digit
  (half a unit in the last place of the gold text: "45" -> ±0.5, "12.5" -> ±0.05; a difference
  of printed values is as exact as they are, so ``reads`` does not widen it).
- ``relative``: ±5% relative, where the paper defines it so (ChartProbe, after ChartQA) or
  where no scale exists to read (an unlabelled pie wedge).

Serialised as ``abs:<x>`` or ``rel:<r>``; ``abs:0`` is exact (up to float rounding).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["RELATIVE", "RULES", "Tolerance", "card_cell", "last_digit_tolerance", "rule_text",
           "scale_tolerance", "tolerance_for"]

_EPS = 1e-9

RULES: dict[str, str] = {
    "axis": "half the value-axis tick step around the value (absolute), times the number of reads",
    "colorbar": "half the colour-bar tick step around the value (absolute), times the number of reads",
    "printed": "exact: the value is printed on the chart (half a unit in the gold's last digit)",
    "relative": "±5% relative (the paper's rule, or no scale to read)",
}
"""Tolerance rule name -> the sentence a dataset card prints for it."""


@dataclass(frozen=True)
class Tolerance:
    """``kind`` ``abs`` (|p - g| <= value) or ``rel`` (|p - g| <= value * |g|)."""

    kind: str
    value: float

    def __post_init__(self) -> None:
        if self.kind not in ("abs", "rel") or not math.isfinite(self.value) or self.value < 0:
            raise ValueError(f"tolerance must be abs:<x> or rel:<r> with x, r >= 0, got {self.kind}:{self.value}")

    def accepts(self, pred: float, gold: float) -> bool:
        """Whether ``pred`` is within this tolerance of ``gold`` (float rounding forgiven)."""
        bound = self.value * abs(gold) if self.kind == "rel" else self.value
        return abs(pred - gold) <= bound + _EPS * max(1.0, abs(gold))

    def to_str(self) -> str:
        return f"{self.kind}:{self.value:.6g}"

    @classmethod
    def parse(cls, text: str | None) -> Tolerance | None:
        """``"abs:2.5"`` -> Tolerance; ``""``/None -> None (the answer type's default)."""
        if not text:
            return None
        kind, sep, value = str(text).partition(":")
        try:
            return cls(kind.strip(), float(value)) if sep else cls("bad", 0.0)
        except ValueError:
            raise ValueError(f"tolerance must be abs:<x> or rel:<r>, got {text!r}") from None


RELATIVE = Tolerance("rel", 0.05)


def scale_tolerance(ticks: Sequence[float], value: float, reads: int = 1) -> Tolerance | None:
    """``reads`` x half the step between the labelled ticks around ``value`` (None: < 2 ticks)."""
    ticks = sorted(ticks)
    if len(ticks) < 2:
        return None
    i = min(max(bisect.bisect_right(ticks, value), 1), len(ticks) - 1)
    return Tolerance("abs", round(reads * (ticks[i] - ticks[i - 1]) / 2, 12))


def last_digit_tolerance(answer: str) -> Tolerance:
    """Half a unit in the last place of the gold text ("45" -> 0.5, "12.5" -> 0.05): a printed
    value is exact, and only the gold text may round it (to 4 significant digits)."""
    digits = answer.strip().lstrip("-").split("e")[0]
    places = len(digits.split(".", 1)[1]) if "." in digits else 0
    return Tolerance("abs", round(0.5 * 10.0 ** -places, 12))


def tolerance_for(rule: str, answer: str, ticks: Mapping[str, Sequence[float]], value_axis: str = "y",
                  reads: int = 1) -> Tolerance:
    """The tolerance of one gold ``answer`` (its text) under ``rule`` (see the module doc).

    ``ticks`` is the render's ``Rendered.ticks``; ``value_axis`` names the axis carrying values
    (``x`` for horizontal bars). A scale rule without two labelled ticks falls back to ±5%.
    """
    if rule == "printed":
        return last_digit_tolerance(answer)
    if rule in ("axis", "colorbar"):
        guide = ticks.get("colorbar" if rule == "colorbar" else value_axis, ())
        return scale_tolerance(guide, float(answer), reads) or RELATIVE
    if rule == "relative":
        return RELATIVE
    raise ValueError(f"unknown tolerance rule {rule!r}; expected one of {sorted(RULES)}")


def rule_text(rule: str, reads: int = 1) -> str:
    """Card sentence of a template's rule (``reads`` > 1 says how many reads add up)."""
    text = RULES[rule]
    return text.replace("times the number of reads", f"x {reads} reads") if reads > 1 else \
        text.replace(", times the number of reads", "")


_EXACT_TYPES = {"integer": "exact integer", "count": "exact integer", "year": "exact year"}


def card_cell(answer_type: str, rule: str, reads: int = 1, vocabulary: str = "", printed_note: bool = False) -> str:
    """What a dataset card says a template's answer must match: the numeric tolerance, exact for
    integers, or the closed vocabulary with its synonyms."""
    if answer_type == "number":
        text = "tolerance: " + rule_text(rule, reads)
        return text + ("; exact to the last digit when values are printed" if printed_note and rule != "printed"
                       else "")
    if vocabulary:
        from .answer_vocab import vocabulary as table

        return "answers: " + "; ".join(f"{k} (~ {', '.join(v[:3])}…)" for k, v in table(vocabulary).items())
    return _EXACT_TYPES.get(answer_type, "")
