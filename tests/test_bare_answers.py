"""The bare-answer fast path of typed scoring gives exactly what the full path gives.

``extract_answer`` takes the last line of a text with no marker character (``<``, a colon, a
backslash) as its answer without the marker search, and the parsers behind the matchers remember
short texts (numbers, abstentions, alias tables). Both are speed only: here every edge answer is
scored over every answer type twice, the fast way (twice, so the caches answer) and with the
marker search and the uncached parsers, and the two must agree field by field.
"""

from __future__ import annotations

import json

import pytest
from chartprobe.eval_tasks.scoring import matchers, parsing, typed
from chartprobe.eval_tasks.scoring.typed import extract_answer, score_answer, score_doc

BARE = [
    "12", "12.0", "-3", "-0", "0012", "1,234", "12%", "$5", "1e3", "1.4 billion", "twelve", "1/2", "3 or 4",
    "12.", "12..", "12 . .", "- 12", "--3", "• 12", "12 。", ". 12", "12 (approx)", "20 (67 - 47)",
    "Yes", "yes.", "N", "no", "Not true", " A ", "(B)", "B.", "Option A", "A or B", "accept",
    "I would not accept this", "May", "May.", "may month", "the May", "May (thousand units)", '"Red"', "'Red'",
    "**12**", "`12`", "__May__", "Red, Blue", "Red and Blue", "[0.1, 0.2, 0.3, 0.4]", "100 200 300 400",
    "2016", "FY2016", "'16", "2016-17", "Q3 2019", "Sept 2019", "2018 or 2019", "North America",
    "I don't know", "not sure", "It cannot be determined", "Looking at the chart, the answer is 12.",
    "", "   ", ".", "..", "\t12\t", "x" * 300, "12\n13", "12\r\n", "a\u2028b", "\n\n May. \n\n", "12\n  \n",
    "Reading the chart (model 3, item 7) mark by mark.\nMay", "So it is 12.\nI think.", "x" * 5000,
]
"""Bare texts (the fast path's, one line or several) and one that is too long for it."""

MARKED = ["Answer: 12", "<answer>12</answer>", "\\boxed{12}", "Thought: 12\n13", "Thought: 12",
          "<think>12</think> 13", "Final answer：May", "<think>still thinking\n12", "12\nAnswer: 13\n\nReason: x",
          "<|im_end|>12"]
"""Texts with a marker character: the full path's, checked here as the control."""

GOLDS = {"number": "12", "integer": "12", "count": "3", "year": "2016", "label": "May",
         "list": json.dumps(["Red", "Blue"]), "bool": "yes", "bbox": "[0.1, 0.2, 0.3, 0.4]", "choice": "B",
         "abstain": "I don't know", "text": "North America"}
ALIASES = {"May": ["may month", "5th month"], "Red": "crimson"}


def _all_scores() -> list[typed.Score]:
    return [score_answer(p, gold, kind, aliases=ALIASES if kind in ("label", "list") else None)
            for p in BARE + MARKED for kind, gold in GOLDS.items()]


@pytest.mark.parametrize("text", BARE + MARKED)
def test_extract_answer_is_the_marker_search(text):
    assert extract_answer(text) == typed._extract_marked(text)


def test_bare_texts_take_the_fast_path(monkeypatch):
    """The short bare texts never reach the marker search (else the test above proves nothing)."""
    def marked(text):
        raise AssertionError(f"{text!r} went the full path")

    monkeypatch.setattr(typed, "_extract_marked", marked)
    for text in BARE:
        if len(text) <= typed.ANSWER_MAX_CHARS:
            extract_answer(text)


def test_scores_equal_the_full_path(monkeypatch):
    fast = _all_scores()
    assert _all_scores() == fast  # the second time from the caches
    monkeypatch.setattr(typed, "extract_answer", typed._extract_marked)
    monkeypatch.setattr(typed, "is_abstention", parsing._abstains)
    monkeypatch.setattr(matchers, "is_abstention", parsing._abstains)
    monkeypatch.setattr(matchers, "parse_number", parsing._parse_number)
    monkeypatch.setattr(parsing, "_alias_index", lambda a: parsing._build_index([parsing._BUILTIN_ALIASES, a])
                        if a else parsing._BUILTIN_INDEX)
    full = _all_scores()
    for (p, kind), a, b in zip(((p, k) for p in BARE + MARKED for k in GOLDS), fast, full):
        assert a == b, (p, kind)


def test_score_doc_aliases_json_is_read_once_and_the_same():
    row = {"answer": "May", "answer_type": "label", "answer_aliases": json.dumps(ALIASES)}
    assert score_doc(row, "may month") == score_doc(row, "may month")
    assert score_doc(row, "may month").correct and not score_doc(row, "June").correct
    assert score_doc({**row, "answer_aliases": "{not json"}, "may month") == score_answer("may month", "May", "label")
