"""Typed answer scoring: extract the final answer, normalize it by answer type, match against gold.

Pipeline (DESIGN.md "Scoring and metrics"):

1. :func:`extract_answer` pulls the final answer out of raw model output: reasoning blocks
   (``<think>``, ``<reasoning>``... and "Thought:" preambles) first go, then ``<answer>`` tags,
   ``\\boxed{}``, ``[Answer]:``, "Final Answer:", "Answer:" in that precedence, else the last line.
2. Abstention detection: a prediction in the "I don't know" family is ``abstained``; for every type
   except ``abstain`` it is simply wrong (not a parse failure) unless the gold itself is such a phrase.
3. The matcher registered for ``answer_type`` (see :mod:`chartprobe.eval_tasks.scoring.matchers`) normalizes and compares.

Rules per type (details in the matcher docstrings):

- number: the number the answer gives (the last one; a value before its working, "20 (67 - 47)",
  and before a year that dates it, "95 in 2018"); ``1,234``, ``12%``, ``27 percent``, ``$3.5``,
  ``-4.2``, ``1e6``, ``1.4 billion``/``million``/``thousand``/``k``/``M``/``bn``/``B``/``T``, number
  words ("twenty-one", "one hundred and five"). An answer hedging between candidates ("either 0 or
  41") is unparsable, so wrong.
  Correct within the row's ``tolerance`` (``abs:x`` / ``rel:r``, the tolerance a reader of that chart
  can achieve: half a tick step on a scale, exact for printed values), by default ±5% relative
  (|diff| <= 1e-9 when gold is 0). Both the scaled and the bare value of
  each side are tried, so "1.4 billion" matches gold "1.4" and "1400000000"; "12%" matches 12 and 0.12.
- integer / count: same parsing, exact equality of an integral value ("12.0" == "twelve" == "12").
- year: last year or period (:mod:`.periods`: a year, year range, quarter or month-year, written
  "FY2016", "'16", "2016-17", "Q3 2019", "Sept 2019"), exact: "2008" vs "2010" is wrong; "2018 or
  2019" is unparsable.
- label: casefold/space/punctuation-insensitive exact equality after removing "the answer is"-style
  lead-ins, a leading "the" and a trailing parenthetical; built-in aliases (usa/us/united states, uk/
  united kingdom, ..., month names and abbreviations) plus caller ``aliases`` {canonical: [variants]};
  the last word may differ by a simple inflection ("outlined" ~ "outline", "circles" ~ "circle"). No
  substring/suffix matching ("East Asia" is not "Asia").
- list: gold is a JSON array; prediction is JSON or free text split on , ; newlines and " and "/"&"
  (not splitting pieces that are gold items). Items compared as labels (numeric items as numbers).
  score = recall of gold items; correct = the prediction's item set equals the gold set.
- bool: yes/true/y vs no/false/n, negation-aware ("Not true" is no, "not false" yes); containing both
  verdicts ("yes or no") is a parse failure.
- bbox: last 4 numbers, [0,1] as is, else all in [0,1000] divided by 1000 (Qwen); score = IoU,
  correct iff IoU >= 0.5.
- choice: letters A-H ("(A)", "Option A", "A.") or accept/reject (any inflection, negation-aware:
  "I would not accept this" rejects); "A or B" is unparsable; exact.
- abstain: correct iff the prediction is in the abstention family.
- text (a sentence gold): precision first (:mod:`.sentences`): correct only when the content words,
  numbers, periods and negation agree; wrong on a known opposite ("North"/"South") or a different
  number; otherwise ``unsure`` (``Score.unsure``), which the LLM judge (``--judge``) resolves.

Never raises on prediction or gold content (only ``ValueError`` for an unknown ``answer_type``).
Huge outputs are handled in linear time: markers are searched in the last 64 KB of the output and the
extracted answer is capped to its last 4 KB.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from chartprobe.dataset_builders.core.answer_types import ANSWER_TYPES, SCORING_RULES
from chartprobe.dataset_builders.core.tolerance import Tolerance

from .matchers import ABSTAIN_NORMALIZED, MATCHERS, Outcome, is_abstention
from .parsing import last_match

__all__ = [
    "ABSTAIN_ANSWER", "ABSTAIN_NORMALIZED", "ANSWER_TYPES", "Score", "extract_answer", "is_abstention",
    "normalize", "score_answer", "score_doc", "scoring_rule",
]

ABSTAIN_ANSWER = "I don't know"
SEARCH_WINDOW = 65_536  # answer markers are searched in this many trailing characters
ANSWER_MAX_CHARS = 4_096  # the extracted answer keeps at most this many trailing characters


@dataclass(frozen=True)
class Score:
    """The verdict on one prediction.

    ``score`` is in [0, 1] (1/0 for exact types, recall for list, IoU for bbox, fuzzy ratio for text);
    ``correct`` is the binary verdict; ``parse_failed`` means nothing usable could be extracted for the
    answer type; ``normalized`` is the canonical prediction ("" when parsing failed, ``"i don't know"``
    when abstained) so equal ``normalized`` means the same answer.
    """

    score: float
    correct: bool
    parse_failed: bool
    extracted: str
    normalized: str
    abstained: bool
    unsure: bool = False
    """The scorer cannot tell (a sentence gold, issue 42): neither correct nor wrong; ``--judge``
    decides. Counted apart by every metric surface."""


_REASONING = r"(?:think|thinking|reasoning|thought|analysis)"
_REASONING_CLOSE = re.compile(rf"(?s:.*)</{_REASONING}\s*>", re.IGNORECASE)  # greedy: the last one, fast
_REASONING_OPEN = re.compile(rf"\A\s*<{_REASONING}\s*>", re.IGNORECASE)
_PREAMBLE = re.compile(r"\A\s*(?:thought|thinking|reasoning)\s*[:：]", re.IGNORECASE)  # "Thought: ..." first line
_ANSWER_TAG = re.compile(r"<answer\s*>(.*?)(?:</answer\s*>|\Z)", re.IGNORECASE | re.DOTALL)
_FIELD = re.compile(r"\[\s*answer\s*\]\s*(?:\*\*|__)?\s*[:：]", re.IGNORECASE)  # "[Answer]: ..."
_FINAL = re.compile(r"\bfinal\s+answer\s*(?:\*\*|__)?\s*[:：]", re.IGNORECASE)
_MARKER = re.compile(r"\banswer\s*(?:\*\*|__)?\s*[:：]", re.IGNORECASE)
_NEXT_FIELD = re.compile(r"\[\s*\w+\s*\]\s*[:：]|\n\s*(?:reason|rationale|explanation|justification)\b\s*[:：]"
                         r"|\n\s*\n", re.IGNORECASE)  # "[Reason]: ..." inline or below, or a blank line
_SPECIAL_TOKEN = re.compile(r"<\|[^|<>\n]{0,40}\|>")
_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_QUOTES = "\"'“”‘’«»`"
_BULLET = re.compile(r"^(?:[-*•]\s+|__)|__$")
_MARKUP = re.compile(r"[<:：\\]")
"""A character every marker, tag, box, reasoning block and special token needs: ``<`` (tags,
``</think>``, ``<|im_end|>``), a colon (``Answer:``, ``Thought:``), a backslash (``\\boxed``).
A text with none of them is *bare*: its answer is its last line (:func:`extract_answer`)."""


def _clean(answer: str) -> str:
    """Strip whitespace, markdown bold/backticks, surrounding quotes, a bullet and a trailing period."""
    answer = answer[-ANSWER_MAX_CHARS:].replace("**", "").replace("`", "").strip()
    boxed = last_match(_BOXED, answer)  # "<answer>\\boxed{5}</answer>", "Answer: $\\boxed{5}$"
    if boxed is not None:
        answer = boxed.group(1)
    for _ in range(3):
        answer = _BULLET.sub("", answer.strip()).strip()
        if len(answer) >= 2 and answer[0] in _QUOTES and answer[-1] in _QUOTES:
            answer = answer[1:-1].strip()
        answer = answer[:-1] if answer.endswith((".", "。")) else answer
    return answer.strip()


def _after(marker: re.Match[str], text: str) -> str:
    """The answer a marker introduces: up to the next field ("[Reason]:") or blank line."""
    rest = text[marker.end():].strip()
    cut = _NEXT_FIELD.search(rest)
    return rest[: cut.start()] if cut else rest


def extract_answer(text: str) -> str:
    """Return the final answer string from raw model output.

    Reasoning goes first: everything up to the last closing ``</think>`` (also ``</thinking>``,
    ``</reasoning>``, ``</thought>``, ``</analysis>``) is dropped, and output that opens a reasoning
    block it never closes yields an answer only through an explicit marker, and a "Thought:" preamble
    line is never the answer itself. Then, in this precedence, each taking its last occurrence: the
    ``<answer>...</answer>`` tag (closing tag optional), ``\\boxed{...}``, the ``[Answer]:`` field,
    "Final Answer:", "Answer:" (each up to the next field such as ``[Reason]:`` or a blank line); else
    the last non-empty line. The result is stripped of quotes, markdown bold/backticks and a
    trailing period.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) <= ANSWER_MAX_CHARS and _MARKUP.search(text) is None:
        # A bare answer ("12", "Yes", "(B)", "Looking at the chart, the answer is 12.", reasoning
        # lines without a marker): no marker, tag or reasoning block can match it, so the search
        # below would end on its last line too, as here, at 2-3x the cost.
        last = next((line for line in reversed(text.splitlines()) if line.strip()), "")
        return _clean(last)
    return _extract_marked(text)


def _extract_marked(text: str) -> str:
    """:func:`extract_answer` of any text: reasoning dropped, then the markers in precedence."""
    closed = _REASONING_CLOSE.match(text)
    needs_marker = closed is None and _REASONING_OPEN.match(text[:256]) is not None
    preamble = _PREAMBLE.match(text[:256]) is not None
    text = _SPECIAL_TOKEN.sub("", (text[closed.end():] if closed else text)[-SEARCH_WINDOW:])
    tag = last_match(_ANSWER_TAG, text)
    if tag is not None:
        return _clean(tag.group(1))
    boxed = last_match(_BOXED, text)
    if boxed is not None:
        return _clean(boxed.group(1))
    for pattern in (_FIELD, _FINAL, _MARKER):
        marker = last_match(pattern, text)
        if marker is not None:
            return _clean(_after(marker, text))
    if needs_marker:
        return ""
    lines = [line for line in text[-ANSWER_MAX_CHARS:].splitlines() if line.strip()]
    if preamble and _PREAMBLE.match(lines[-1] if lines else ""):
        return ""
    return _clean(lines[-1]) if lines else ""


def _matcher(answer_type: str):
    try:
        return MATCHERS[answer_type]
    except (KeyError, TypeError):
        raise ValueError(f"unknown answer_type {answer_type!r}; expected one of {ANSWER_TYPES}") from None


def normalize(answer: str, answer_type: str) -> str | None:
    """Canonical form of an (already extracted) answer for ``answer_type``, or None if unparsable.

    Abstentions normalize to ``"i don't know"`` for every type, matching :attr:`Score.normalized`.
    Raises ``ValueError`` only for an unknown ``answer_type``.
    """
    type_matcher = _matcher(answer_type)
    answer = answer if isinstance(answer, str) else ("" if answer is None else str(answer))
    if is_abstention(answer):
        return ABSTAIN_NORMALIZED
    return type_matcher.normalize(answer[-ANSWER_MAX_CHARS:])


def score_answer(
    prediction: str,
    gold: str,
    answer_type: str,
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
    tolerance: str | Tolerance | None = None,
) -> Score:
    """Score a raw model ``prediction`` against ``gold`` for ``answer_type`` (one of ANSWER_TYPES).

    ``aliases`` maps a canonical label to alternative spellings (label and list types);
    ``tolerance`` (``"abs:2.5"``, ``"rel:0.05"`` or a :class:`Tolerance`) replaces the ±5% default of
    ``number``. Never raises on any prediction or gold content; raises ``ValueError`` only for an
    unknown ``answer_type`` or a malformed ``tolerance``.
    """
    type_matcher = _matcher(answer_type)
    tol = tolerance if isinstance(tolerance, Tolerance) or tolerance is None else Tolerance.parse(tolerance)
    gold = gold if isinstance(gold, str) else ("" if gold is None else str(gold))
    extracted = extract_answer(prediction)
    abstained = is_abstention(extracted)
    if abstained and not type_matcher.handles_abstention and not is_abstention(gold):
        outcome = Outcome(0.0, False, ABSTAIN_NORMALIZED)
    else:
        outcome = type_matcher.match(extracted, gold[-ANSWER_MAX_CHARS:], aliases, tol)
    normalized = ABSTAIN_NORMALIZED if abstained else outcome.normalized
    return Score(
        score=min(max(float(outcome.score), 0.0), 1.0),
        correct=bool(outcome.correct),
        parse_failed=normalized is None,
        extracted=extracted,
        normalized=normalized or "",
        abstained=abstained,
        unsure=bool(outcome.unsure) and not abstained,
    )


def score_doc(doc: Mapping[str, object], prediction: str, answer_type: str | None = None) -> Score:
    """Score ``prediction`` on a dataset row: its ``answer``, ``answer_type``, ``tolerance`` and
    ``answer_aliases`` (JSON {canonical: [synonyms]}, the template's answer vocabulary) columns.

    Rows of releases built before those columns existed score with the type defaults.
    """
    raw = doc.get("answer_aliases") or None
    aliases = _aliases(raw) if isinstance(raw, str) else raw
    return score_answer(prediction, str(doc.get("answer", "")), answer_type or str(doc.get("answer_type") or "label"),
                        aliases=aliases if isinstance(aliases, Mapping) else None,
                        tolerance=str(doc.get("tolerance") or "") or None)


@lru_cache(maxsize=1024)
def _aliases(raw: str) -> object:
    """A row's ``answer_aliases`` JSON parsed (None if it is not JSON), once per distinct text: a
    template's vocabulary repeats on every row and every model's answer to it. Shared: read only."""
    try:
        return json.loads(raw)
    except ValueError:
        return None


def scoring_rule(answer_type: str) -> str:
    """One-line description of how ``answer_type`` is matched (for dataset cards and reports)."""
    if answer_type not in MATCHERS:
        raise ValueError(f"unknown answer_type {answer_type!r}; expected one of {ANSWER_TYPES}")
    return SCORING_RULES[answer_type]
