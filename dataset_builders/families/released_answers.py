"""Released Chartographer answers -> our typed ``answer_type`` (one type per family) and canonical gold.

The released data has no answer-type field. Every released answer is a string: the source
benchmark's label (``str(row[answer_col])`` in ``export_chart_question_families.py``
``family_member_row``) for the original, ``str(generate_answer(data)).strip()``
(``run_qa_modules.py`` ``_run_one``) for the reconstruction and the variants (github
compling-wat/Chartographer at commit 1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083). The paper scores
every member with an LLM equivalence judge (A.7); our typed scorer needs a type, so the type is
inferred from the answers themselves (never from pixels), once per family, from every member's
answer and the original question:

1. each answer is stripped; a list literal with one item (``"['14']"``: ChartQA's ``label`` is a
   list, so its originals print as one) is unwrapped to that item;
2. the first rule of :data:`ANSWER_RULES` (in order) that accepts *every* member's answer types the
   family, and each answer takes that rule's canonical form.

| order | type | accepts (every member) | canonical gold |
|---|---|---|---|
| 1 | `bool` | yes / no / true / false, any case | `yes` / `no` |
| 2 | `year` | a year or period (`is_period_gold`): "FY2016", "'16", "2016-17", "Q3 2019", "Sept 2019", a 4-digit year 1900-2099, or 1000-2999 when the question says "year" or "when" | as released |
| 3 | `number` | a number, optionally with `,` thousands, `%`, a currency sign, a scale word | as released |
| 4 | `list` | list literals (JSON or Python), at least one with two or more items; other answers are lists too, split at `;` and `, ` (ChartMuseum writes `Bears, Lions`) | JSON array of strings |
| 5 | `label` | a short phrase: one line, at most 8 words and 80 characters | as released |
| 6 | `text` | anything (fallback: free-form; score with the LLM judge) | as released |

``number`` is matched within ±5% (our default, ChartQA's relaxed accuracy), so integer answers
below 20 must still match exactly; counts need no type of their own. A family typed ``text`` is
scored by the strict sentence rule (correct, wrong, or ``unsure``, counted apart) unless
``CHARTPROBE_JUDGE_*`` or ``score --judge`` points it at an LLM judge, which the card then
recommends (the paper judges every answer that way).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chartprobe.dataset_builders.core.answer_types import is_period_gold

__all__ = ["ANSWER_RULES", "AnswerRule", "FamilyAnswers", "answer_rule", "type_family", "unwrap"]

MAX_LABEL_WORDS = 8
MAX_LABEL_CHARS = 80
_BOOL = {"yes": "yes", "true": "yes", "no": "no", "false": "no"}
_NUMBER = re.compile(
    r"[-+−]?[$€£¥]?\s*(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?\s*"
    r"(?:%|percent|thousand|million|billion|trillion|bn|[kKmMbBT])?")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class AnswerRule:
    """One way to read a family's answers: our type, when it applies and the gold it writes."""

    answer_type: str
    order: int
    accepts: Callable[[str, str], bool]
    """(answer, original question) -> whether this rule reads the answer."""
    canonical: Callable[[str], str]
    description: str


ANSWER_RULES: list[AnswerRule] = []
"""The rules in the order they are tried (``@answer_rule`` keeps the list sorted by ``order``)."""


def answer_rule(answer_type: str, order: int, description: str, canonical: Callable[[str], str] = str.strip):
    """Register the decorated ``accepts(answer, question)`` as the rule for ``answer_type``."""

    def decorator(accepts: Callable[[str, str], bool]) -> Callable[[str, str], bool]:
        if any(r.answer_type == answer_type or r.order == order for r in ANSWER_RULES):
            raise ValueError(f"answer rule {answer_type!r} (order {order}) registered twice")
        ANSWER_RULES.append(AnswerRule(answer_type, order, accepts, canonical, description))
        ANSWER_RULES.sort(key=lambda r: r.order)
        return accepts

    return decorator


def _literal_list(text: str) -> list | None:
    """The items of a JSON or Python list literal of scalars (None: not one)."""
    if not (text.startswith("[") and text.endswith("]")):
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float, bool)) for v in value):
            return list(value)
    return None


def unwrap(answer: str) -> str:
    """The stripped answer, a one-item list literal replaced by its item (``"['14']"`` -> ``"14"``)."""
    text = answer.strip()
    items = _literal_list(text)
    return str(items[0]).strip() if items is not None and len(items) == 1 else text


@answer_rule("bool", 1, "yes / no / true / false, any case", lambda a: _BOOL[a.strip().rstrip(".").casefold()])
def _is_bool(answer: str, question: str) -> bool:
    return answer.strip().rstrip(".").casefold() in _BOOL


@answer_rule("year", 2, "a year or period (FY2016, '16, 2016-17, Q3 2019, Sept 2019; 1000-2999 when asked for a year)")
def _is_year(answer: str, question: str) -> bool:
    return is_period_gold(answer, question)


@answer_rule("number", 3, "a number (thousands commas, %, currency sign, scale word allowed)")
def _is_number(answer: str, question: str) -> bool:
    text = answer.strip()
    return _DIGIT.search(text) is not None and _NUMBER.fullmatch(text) is not None


_LIST_SEPARATOR = re.compile(r";|,\s+")
"""Between the items of a list answer written as text (``1,200`` is one number, ``A, B`` two items)."""


def _as_json_list(answer: str) -> str:
    items = _literal_list(answer.strip())
    if items is None:
        items = [s for s in _LIST_SEPARATOR.split(answer.strip()) if s.strip()] or [answer]
    return json.dumps([str(v).strip() for v in items], ensure_ascii=False)


@answer_rule("list", 4, "list literals (one with 2+ items); other answers split at `;` and `, `", _as_json_list)
def _is_list_member(answer: str, question: str) -> bool:
    return "\n" not in answer.strip()  # the family-level condition (a 2+ item list) is in type_family


@answer_rule("label", 5, f"one line, at most {MAX_LABEL_WORDS} words and {MAX_LABEL_CHARS} characters")
def _is_label(answer: str, question: str) -> bool:
    text = answer.strip()
    return "\n" not in text and len(text) <= MAX_LABEL_CHARS and len(text.split()) <= MAX_LABEL_WORDS


@answer_rule("text", 6, "anything: free-form (the LLM judge is recommended)")
def _is_text(answer: str, question: str) -> bool:
    return True


@dataclass(frozen=True)
class FamilyAnswers:
    """A family's type and its members' canonical golds, in member order."""

    answer_type: str
    answers: tuple[str, ...]
    reason: str = ""
    """Why this type (stored per row as ``answer_type_reason``): the rule that read every member's
    answer, and the earlier rules that did not."""


def _applies(rule: AnswerRule, answers: Sequence[str], question: str) -> bool:
    if not all(rule.accepts(a, question) for a in answers):
        return False
    if rule.answer_type == "list":  # a list family names several items somewhere
        return any(len(_literal_list(a) or ()) >= 2 for a in answers)
    return True


def type_family(answers: Sequence[str], question: str) -> FamilyAnswers:
    """The first rule that reads every (unwrapped) answer; ``text`` reads anything."""
    unwrapped = [unwrap(a) for a in answers]
    rule = next(r for r in ANSWER_RULES if _applies(r, unwrapped, question))
    passed = [r.answer_type for r in ANSWER_RULES if r.order < rule.order]
    reason = f"rule {rule.order} ({rule.answer_type}): every member's answer is {rule.description}" + (
        f"; not {', '.join(passed)}" if passed else "")
    return FamilyAnswers(rule.answer_type, tuple(rule.canonical(a) for a in unwrapped), reason)
