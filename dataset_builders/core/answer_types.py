"""The closed vocabulary of the ``answer_type`` column and how each type is scored.

Every row of every release types its gold answer with one of :data:`ANSWER_TYPES`;
``programs.format_answer`` writes the canonical gold string per type and the evaluation face's
matchers (``eval_tasks/scoring/matchers.py``, one per type) score predictions by the rule stated here.
Dataset cards quote :data:`SCORING_RULES`, so the builders never import the scorer; a test
holds each matcher's docstring to its line here.
"""

from __future__ import annotations

import re

__all__ = ["ANSWER_TYPES", "SCORING_RULES", "gold_type", "is_period_gold"]

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_YEAR4 = r"[12]\d{3}"
_YY = rf"(?:{_YEAR4}|['’]?\d{{2}})"
_PERIOD_GOLD = re.compile(
    rf"(?:fy\s*)?{_YEAR4}(?:\s*(?:-|–|/|to)\s*(?:fy\s*)?(?:{_YEAR4}|\d{{2}}))?"  # 2016, FY2016, 2016-17
    rf"|fy\s*['’]?\d{{2}}|['’]\d{{2}}"  # FY16, '16
    rf"|q[1-4]\s*(?:fy\s*)?{_YY}|{_YEAR4}\s*[-/ ]?\s*q[1-4]|[1-4]q\s*{_YY}"  # Q3 2019, 2019 Q3, 3Q19
    rf"|{_MONTH},?\s*{_YY}|(?:0?[1-9]|1[0-2])/{_YEAR4}|{_YEAR4}-(?:0[1-9]|1[0-2])",  # Sept 2019, 09/2019
    re.IGNORECASE)
_BARE_YEAR = re.compile(r"(?:19|20)\d{2}")


def is_period_gold(answer: str, question: str = "") -> bool:
    """Whether a gold answer is a year or period (typed ``year``, matched exactly, never ±5%).

    A written period ("FY2016", "'16", "2016-17", "Q3 2019", "Sept 2019") always is; a bare 4-digit
    number is when it lies in 1900-2099 or the question asks for a year ("year", "when"), so a family
    of years whose question lacks "year" is no longer typed ``number`` (2012 passed for 2016).
    """
    text = answer.strip().rstrip(".")
    if _PERIOD_GOLD.fullmatch(text) is None:
        return False
    if re.fullmatch(_YEAR4, text) is None:
        return True
    asks_year = re.search(r"\b(?:years?|when)\b", question, re.IGNORECASE) is not None
    return _BARE_YEAR.fullmatch(text) is not None or asks_year


def gold_type(answer_type: str, answer: str, question: str = "") -> str:
    """The type a generated row's gold is stored and scored under: a ``label`` that is a year or
    period (a bar labelled "2011", a wedge "Q3 2023") is ``year``, matched as a period ("FY2011",
    "Q3 '23"), never as a free label; every other type is the template's."""
    return "year" if answer_type == "label" and is_period_gold(str(answer), question) else answer_type


SCORING_RULES: dict[str, str] = {
    "number": "Within the row's tolerance (half a tick step, exact when printed), default ±5% relative; scaled or bare values may match.",
    "integer": 'Exact integer equality ("12" == "12.0" == "twelve", "977,633" == "977633").',
    "count": 'Exact integer equality ("12" == "12.0" == "twelve", "977,633" == "977633").',
    "year": "Last year or period (year, year range, quarter, month-year; \"FY2016\", \"'16\", \"2016-17\", \"Q3 2019\", \"Sept 2019\"); exact, never tolerant.",
    "label": "Exact equality of label_key (case/space/punctuation-insensitive, aliases, inflections).",
    "list": "Score = recall of gold items (order-free); correct = prediction set equals gold set.",
    "bool": 'yes/true/y vs no/false/n as whole words, negation-aware ("not true" is no); both is unparsable.',
    "bbox": "Score = IoU (continuous); correct iff IoU >= 0.5.",
    "choice": 'Letters A-H ("(A)", "Option A", "A.") -> "A"; accept/reject words -> "accept"/"reject".',
    "abstain": 'Correct iff the prediction is in the abstention family (the gold is "I don\'t know").',
    "text": "Strict sentence rule: correct iff same content words, numbers, periods and negation; a known opposite or different number is wrong; else unsure.",
}
"""One line per answer type: how a prediction is matched against the gold."""

ANSWER_TYPES: tuple[str, ...] = tuple(SCORING_RULES)
