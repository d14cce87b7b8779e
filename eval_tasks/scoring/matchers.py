"""Per-answer-type normalizers and matchers behind :func:`chartprobe.eval_tasks.scoring.typed.score_answer`.

Each answer type is one :class:`Matcher` subclass registered with ``@matcher("type", ...)`` into
:data:`MATCHERS`; there is no if/elif chain over types. A matcher sees the *extracted* answer
(see ``scoring.extract_answer``) and the gold string, and returns an :class:`Outcome`. All parsing
here is linear-time (no nested quantifiers) and works on strings already capped at a few KB.
"""

from __future__ import annotations

import abc
import json
import re
from dataclasses import dataclass

from chartprobe.dataset_builders.core.tolerance import RELATIVE, Tolerance

from .parsing import (
    ABSTAIN_NORMALIZED,
    LEAD_IN,
    Aliases,
    fmt_number,
    iou,
    is_abstention,
    label_key,
    list_items,
    norm_text,
    parse_bbox,
    parse_number,
)
from .periods import parse_period
from .sentences import judge_sentence
from .words import decision, is_hedge, same_inflected

__all__ = ["ABSTAIN_NORMALIZED", "MATCHERS", "Matcher", "Outcome", "is_abstention", "matcher"]
BBOX_IOU_THRESHOLD = 0.5


@dataclass(frozen=True)
class Outcome:
    """What a matcher decides: ``normalized`` is None when the prediction could not be parsed;
    ``unsure`` means the matcher cannot tell (a sentence gold it cannot decide: the judge does)."""

    score: float
    correct: bool
    normalized: str | None
    unsure: bool = False


MATCHERS: dict[str, Matcher] = {}


def matcher(*answer_types: str):
    """Class decorator: instantiate the matcher and register it under each answer type."""

    def register(cls: type[Matcher]) -> type[Matcher]:
        for answer_type in answer_types:
            MATCHERS[answer_type] = cls()
        return cls

    return register


class Matcher(abc.ABC):
    """Default behaviour: normalize prediction and gold, then exact equality (score 1/0).

    ``handles_abstention``: when False, an abstaining prediction is scored wrong before ``match`` runs.
    """

    handles_abstention = False

    @abc.abstractmethod
    def normalize(self, text: str, aliases: Aliases = None) -> str | None:
        """Canonical form of an extracted answer, or None when it cannot be parsed."""

    def match(self, pred: str, gold: str, aliases: Aliases = None, tolerance: Tolerance | None = None) -> Outcome:
        """Compare an extracted answer with the gold; ``tolerance`` is read by numeric types only."""
        p, g = self.normalize(pred, aliases), self.normalize(gold, aliases)
        ok = p is not None and p == g
        return Outcome(float(ok), ok, p)


@matcher("number")
class NumberMatcher(Matcher):
    """Within the row's tolerance (half a tick step, exact when printed), default ±5% relative; scaled or bare values may match.

    The tolerance is the row's ``tolerance`` column; without one, ±5% relative (|p-g| <= 1e-9 when
    gold is 0).
    """

    def normalize(self, text, aliases=None):
        parsed = parse_number(text)
        return None if parsed is None else fmt_number(parsed[0])

    def match(self, pred, gold, aliases=None, tolerance=None):
        p, g = parse_number(pred), parse_number(gold)
        if p is None or g is None:
            return Outcome(0.0, False, None if p is None else fmt_number(p[0]))
        tol = tolerance or RELATIVE
        ok = any(tol.accepts(pv, gv) for pv in set(p) for gv in set(g))
        return Outcome(float(ok), ok, fmt_number(p[0]))


@matcher("integer", "count")
class IntegerMatcher(NumberMatcher):
    """Exact integer equality ("12" == "12.0" == "twelve", "977,633" == "977633")."""

    def match(self, pred, gold, aliases=None, tolerance=None):
        p, g = parse_number(pred), parse_number(gold)
        if p is None or g is None:
            return Outcome(0.0, False, None if p is None else fmt_number(p[0]))
        ok = any(pv == gv and float(pv).is_integer() for pv in set(p) for gv in set(g))
        return Outcome(float(ok), ok, fmt_number(p[0]))



@matcher("year")
class YearMatcher(Matcher):
    """Last year or period (year, year range, quarter, month-year; "FY2016", "'16", "2016-17", "Q3 2019", "Sept 2019"); exact, never tolerant.

    Both sides are read by :func:`.periods.parse_period` into one canonical form ("2016",
    "2016-2017", "2019-Q3", "2019-09"), so 2012 vs 2016 is wrong and "FY2016" vs "2016" right.
    """

    def normalize(self, text, aliases=None):
        return parse_period(text)


_PARENTHETICAL = re.compile(r"\s*\([^()]*\)\s*$")  # a trailing "(thousand units)" is no part of a label


@matcher("label")
class LabelMatcher(Matcher):
    """Exact equality of :func:`label_key` (case/space/punctuation-insensitive, aliases, inflections)."""

    def normalize(self, text, aliases=None):
        key = label_key(_PARENTHETICAL.sub("", text), aliases)
        return key or None

    def match(self, pred, gold, aliases=None, tolerance=None):
        p, g = self.normalize(pred, aliases), self.normalize(gold, aliases)
        ok = p is not None and g is not None and (p == g or same_inflected(p, g))
        return Outcome(float(ok), ok, p)


@matcher("list")
class ListMatcher(Matcher):
    """Score = recall of gold items (order-free); correct = prediction set equals gold set."""

    @staticmethod
    def _canonical(items: list[str], text: str) -> str | None:
        explicit_empty = text.strip() == "[]" or norm_text(text) in ("none", "nothing")
        return json.dumps(sorted(set(items))) if items or explicit_empty else None

    def normalize(self, text, aliases=None):
        return self._canonical(list_items(text, aliases), text)

    def match(self, pred, gold, aliases=None, tolerance=None):
        g = set(list_items(gold, aliases))
        items = list_items(pred, aliases, keep=frozenset(g))
        p, normalized = set(items), self._canonical(items, pred)
        recall = len(p & g) / len(g) if g else float(not p and normalized is not None)
        return Outcome(recall, p == g and normalized is not None, normalized)


_YES = frozenset({"yes", "true", "correct", "yeah", "yep"})
_NO = frozenset({"no", "false", "incorrect", "nope"})
_BOOL_PHRASES = {"i dont think so": "neg", "i do not think so": "neg", "i think so": "pos"}


@matcher("bool")
class BoolMatcher(Matcher):
    """yes/true/y vs no/false/n as whole words, negation-aware ("not true" is no); both is unparsable."""

    def normalize(self, text, aliases=None):
        words = LEAD_IN.sub("", norm_text(text), count=1).split()
        if words in (["y"], ["n"]):
            return "yes" if words == ["y"] else "no"
        verdict = decision(words, _YES, _NO, _BOOL_PHRASES)
        return None if verdict is None else ("yes" if verdict == "pos" else "no")


@matcher("bbox")
class BBoxMatcher(Matcher):
    """Score = IoU (continuous); correct iff IoU >= 0.5."""

    def normalize(self, text, aliases=None):
        box = parse_bbox(text)
        return None if box is None else json.dumps([round(x, 4) for x in box])

    def match(self, pred, gold, aliases=None, tolerance=None):
        p, g = parse_bbox(pred), parse_bbox(gold)
        score = iou(p, g) if p and g else 0.0
        return Outcome(score, score >= BBOX_IOU_THRESHOLD, self.normalize(pred))


_ACCEPT = frozenset({"accept", "accepts", "accepted", "accepting", "acceptance", "acceptable"})
_REJECT = frozenset({"reject", "rejects", "rejected", "rejecting", "rejection", "unacceptable"})
_LETTER = re.compile(
    r"^\(?([a-h])\)?(?:[.:)]|\s*$)"  # "A", "(a)", "B.", "C) 42%"
    r"|\b(?:option|choice|answer|letter)\s*(?:is\s*)?\(?([a-h])\)?(?![\w'])"  # "Option A", "answer is (c)"
    r"|\(([a-h])\)",  # "(B)" anywhere
    re.IGNORECASE,
)


@matcher("choice")
class ChoiceMatcher(Matcher):
    """Letters A-H ("(A)", "Option A", "A.") -> "A"; accept/reject words -> "accept"/"reject"."""

    def normalize(self, text, aliases=None):
        return self._verdict(text) or self._letter(text)

    @staticmethod
    def _verdict(text: str) -> str | None:
        """accept/reject, negation-aware ("I would not accept this" rejects)."""
        verdict = decision(norm_text(text).split(), _ACCEPT, _REJECT)
        return None if verdict is None else ("accept" if verdict == "pos" else "reject")

    @staticmethod
    def _letter(text: str) -> str | None:
        """The chosen letter; None when the answer hedges between letters ("A or B")."""
        found = [next(x for x in m.groups() if x).upper() for m in _LETTER.finditer(text.strip())]
        return None if not found or is_hedge(text, found) else found[0]

    def match(self, pred, gold, aliases=None, tolerance=None):
        g = self._verdict(gold) or self._letter(gold)
        p = self._verdict(pred) if g in ("accept", "reject") else self._letter(pred)
        ok = p is not None and p == g
        return Outcome(float(ok), ok, p)


@matcher("abstain")
class AbstainMatcher(Matcher):
    """Correct iff the prediction is in the abstention family (the gold is "I don't know")."""

    handles_abstention = True

    def normalize(self, text, aliases=None):
        return ABSTAIN_NORMALIZED if is_abstention(text) else (norm_text(text) or None)

    def match(self, pred, gold, aliases=None, tolerance=None):
        ok = is_abstention(pred)
        return Outcome(float(ok), ok, self.normalize(pred))


@matcher("text")
class TextMatcher(Matcher):
    """Strict sentence rule: correct iff same content words, numbers, periods and negation; a known opposite or different number is wrong; else unsure.

    See :mod:`.sentences`; an unsure row is neither correct nor wrong and goes to the LLM judge
    (``--judge``). The fuzzy ratio it replaced let opposites pass ("South America" for "North America").
    """

    def normalize(self, text, aliases=None):
        return norm_text(text) or None

    def match(self, pred, gold, aliases=None, tolerance=None):
        p = self.normalize(pred)
        verdict = judge_sentence(pred, gold).verdict
        return Outcome(float(verdict == "correct"), verdict == "correct", p, unsure=verdict == "unsure")
