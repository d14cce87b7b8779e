"""Table-driven tests for chartprobe.eval_tasks.scoring.typed (extraction, per-type matching, robustness)."""

from __future__ import annotations

import random
import time

import pytest
from chartprobe.eval_tasks.scoring.matchers import MATCHERS
from chartprobe.eval_tasks.scoring.typed import (
    ABSTAIN_ANSWER,
    ANSWER_TYPES,
    Score,
    extract_answer,
    normalize,
    score_answer,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# (id, prediction, gold, answer_type, correct, score or None to skip, parse_failed)
CASES = [
    # ---- number
    ("number-plain", "42", "42", "number", True, 1.0, False),
    ("number-sentence", "The answer is 42.", "42", "number", True, 1.0, False),
    ("number-thousands-comma", "977,633", "977633", "number", True, 1.0, False),
    ("number-gold-comma", "977633", "977,633", "number", True, 1.0, False),
    ("number-percent-sign", "12%", "12", "number", True, 1.0, False),
    ("number-percent-word", "27 percent", "27", "number", True, 1.0, False),
    ("number-percent-as-fraction", "27%", "0.27", "number", True, 1.0, False),
    ("number-dollar", "$3.5", "3.5", "number", True, 1.0, False),
    ("number-euro", "€3.5", "3.5", "number", True, 1.0, False),
    ("number-negative", "-4.2", "-4.2", "number", True, 1.0, False),
    ("number-negative-vs-positive", "-4.2", "4.2", "number", False, 0.0, False),
    ("number-unicode-minus", "−4.2", "-4.2", "number", True, 1.0, False),
    ("number-billion-bare-gold", "1.4 billion", "1.4", "number", True, 1.0, False),
    ("number-billion-full-gold", "1.4 billion", "1400000000", "number", True, 1.0, False),
    ("number-bn-suffix", "$1.4bn", "1.4", "number", True, 1.0, False),
    ("number-B-suffix", "2.5B", "2500000000", "number", True, 1.0, False),
    ("number-M-suffix", "3M", "3000000", "number", True, 1.0, False),
    ("number-million", "3 million", "3000000", "number", True, 1.0, False),
    ("number-k-suffix", "5k", "5000", "number", True, 1.0, False),
    ("number-thousand-vs-gold-unit", "1400", "1.4 thousand", "number", True, 1.0, False),
    ("number-scaled-mismatch", "1400", "1.4", "number", False, 0.0, False),
    ("number-within-5pct", "104", "100", "number", True, 1.0, False),
    ("number-outside-5pct", "106", "100", "number", False, 0.0, False),
    ("number-gold-zero-exact", "0", "0", "number", True, 1.0, False),
    ("number-gold-zero-strict", "0.01", "0", "number", False, 0.0, False),
    ("number-trailing-dots", "42...", "42", "number", True, 1.0, False),
    ("number-last-in-sentence", "In 2019 the value was 42.5", "42.5", "number", True, 1.0, False),
    ("number-scientific", "1.2e6", "1200000", "number", True, 1.0, False),
    ("number-word", "seven", "7", "number", True, 1.0, False),
    ("number-range-hyphen-not-sign", "2019-2020", "2020", "number", True, 1.0, False),
    ("number-none", "no idea what the value is", "42", "number", False, 0.0, True),
    ("number-empty", "", "42", "number", False, 0.0, True),
    # ---- integer / count
    ("integer-plain", "12", "12", "integer", True, 1.0, False),
    ("integer-float-form", "12.0", "12", "integer", True, 1.0, False),
    ("integer-word", "twelve", "12", "integer", True, 1.0, False),
    ("integer-thousands-comma", "977,633", "977633", "integer", True, 1.0, False),
    ("integer-off-by-one", "13", "12", "integer", False, 0.0, False),
    ("integer-no-tolerance", "977634", "977633", "integer", False, 0.0, False),
    ("integer-non-integral", "12.5", "12", "integer", False, 0.0, False),
    ("count-sentence", "There are 7 bars.", "7", "count", True, 1.0, False),
    ("count-word", "Three", "3", "count", True, 1.0, False),
    ("count-wrong", "4", "3", "count", False, 0.0, False),
    ("count-unparsable", "several", "3", "count", False, 0.0, True),
    # ---- year
    ("year-exact", "2008", "2008", "year", True, 1.0, False),
    ("year-never-tolerant", "2008", "2010", "year", False, 0.0, False),
    ("year-adjacent", "2009", "2010", "year", False, 0.0, False),
    ("year-sentence", "The peak was in 2008.", "2008", "year", True, 1.0, False),
    ("year-fiscal-prefix", "FY2019", "2019", "year", True, 1.0, False),
    ("year-five-digits", "20081", "2008", "year", False, 0.0, True),
    ("year-none", "last year", "2008", "year", False, 0.0, True),
    # ---- label
    ("label-case-space-punct", "  north   AMERICA! ", "North America", "label", True, 1.0, False),
    ("label-lead-in", "The answer is Canada", "Canada", "label", True, 1.0, False),
    ("label-alias-usa", "USA", "United States", "label", True, 1.0, False),
    ("label-alias-us-dots", "U.S.", "United States", "label", True, 1.0, False),
    ("label-alias-uk", "the UK", "United Kingdom", "label", True, 1.0, False),
    ("label-article", "The Netherlands", "Netherlands", "label", True, 1.0, False),
    ("label-parenthetical", "Canada (CA)", "Canada", "label", True, 1.0, False),
    ("label-no-substring", "East Asia", "Asia", "label", False, 0.0, False),
    ("label-wrong", "Mexico", "Canada", "label", False, 0.0, False),
    ("label-gold-unknown-literal", "Unknown", "unknown", "label", True, 1.0, False),
    ("label-na-is-not-abstention", "NA", "North America", "label", False, 0.0, False),
    ("label-empty", "   ", "Canada", "label", False, 0.0, True),
    # ---- list
    ("list-json-exact", '["B", "A"]', '["A", "B"]', "list", True, 1.0, False),
    ("list-free-text", "A, B and C", '["A", "B", "C"]', "list", True, 1.0, False),
    ("list-oxford-comma", "apples, pears, and plums", '["Apples", "Pears", "Plums"]', "list", True, 1.0, False),
    ("list-semicolon-newline", "Final Answer: A; B\nC", '["A", "B", "C"]', "list", True, 1.0, False),
    ("list-bulleted-after-marker", "Answer:\n- A\n- B", '["A", "B"]', "list", True, 1.0, False),
    ("list-no-marker-last-line-only", "A\nB", '["A", "B"]', "list", False, 0.5, False),
    ("list-partial-recall", "A", '["A", "B"]', "list", False, 0.5, False),
    ("list-extra-item", "A, B, C", '["A", "B"]', "list", False, 1.0, False),
    ("list-gold-item-with-and", "Research and Development, Sales", '["Research and Development", "Sales"]',
     "list", True, 1.0, False),
    ("list-numeric-items", "[1, 2.0]", "[1, 2]", "list", True, 1.0, False),
    ("list-unbracketed-json-ish", "[A, B]", '["A", "B"]', "list", True, 1.0, False),
    ("list-alias-items", "USA and UK", '["United States", "United Kingdom"]', "list", True, 1.0, False),
    ("list-empty-gold-none", "none", "[]", "list", True, 1.0, False),
    ("list-empty-prediction", "", '["A"]', "list", False, 0.0, True),
    # ---- bool
    ("bool-yes", "Yes", "yes", "bool", True, 1.0, False),
    ("bool-yes-never-no", "Yes", "No", "bool", False, 0.0, False),
    ("bool-no-never-yes", "No", "Yes", "bool", False, 0.0, False),
    ("bool-true", "True", "yes", "bool", True, 1.0, False),
    ("bool-false", "false", "No", "bool", True, 1.0, False),
    ("bool-y", "y", "Yes", "bool", True, 1.0, False),
    ("bool-sentence", "Yes, it increases.", "Yes", "bool", True, 1.0, False),
    ("bool-both-is-parse-failure", "Yes or no", "Yes", "bool", False, 0.0, True),
    ("bool-neither", "maybe", "Yes", "bool", False, 0.0, True),
    # ---- bbox
    ("bbox-unit-scale", "[0.1, 0.2, 0.5, 0.6]", "[0.1, 0.2, 0.5, 0.6]", "bbox", True, 1.0, False),
    ("bbox-qwen-1000-scale", "(100,200),(500,600)", "[0.1, 0.2, 0.5, 0.6]", "bbox", True, 1.0, False),
    ("bbox-no-brackets", "0.1 0.2 0.5 0.6", "[0.1, 0.2, 0.5, 0.6]", "bbox", True, 1.0, False),
    ("bbox-swapped-corners", "[0.5, 0.6, 0.1, 0.2]", "[0.1, 0.2, 0.5, 0.6]", "bbox", True, 1.0, False),
    ("bbox-iou-half", "[0, 0, 1, 0.5]", "[0, 0, 1, 1]", "bbox", True, 0.5, False),
    ("bbox-iou-low", "[0, 0, 0.4, 1]", "[0, 0, 1, 1]", "bbox", False, 0.4, False),
    ("bbox-disjoint", "[0, 0, 0.1, 0.1]", "[0.5, 0.5, 1, 1]", "bbox", False, 0.0, False),
    ("bbox-too-few-numbers", "[0.1, 0.2]", "[0, 0, 1, 1]", "bbox", False, 0.0, True),
    ("bbox-out-of-range", "[0, 0, 2000, 2000]", "[0, 0, 1, 1]", "bbox", False, 0.0, True),
    # ---- choice
    ("choice-letter", "B", "B", "choice", True, 1.0, False),
    ("choice-paren", "(A)", "A", "choice", True, 1.0, False),
    ("choice-option", "Option C", "C", "choice", True, 1.0, False),
    ("choice-letter-dot", "D. 42%", "D", "choice", True, 1.0, False),
    ("choice-lowercase", "b", "B", "choice", True, 1.0, False),
    ("choice-answer-is", "The answer is (c)", "C", "choice", True, 1.0, False),
    ("choice-wrong-letter", "A", "B", "choice", False, 0.0, False),
    ("choice-accept", "Accept", "Accept", "choice", True, 1.0, False),
    ("choice-accepted", "accepted", "Accept", "choice", True, 1.0, False),
    ("choice-reject-it", "I would reject it", "Reject", "choice", True, 1.0, False),
    ("choice-accept-vs-reject", "Accept", "Reject", "choice", False, 0.0, False),
    ("choice-unacceptable-is-reject", "unacceptable", "Accept", "choice", False, 0.0, False),
    ("choice-both-verdicts", "accept or reject", "Reject", "choice", False, 0.0, True),
    ("choice-article-not-letter", "A bar chart", "A", "choice", False, 0.0, True),
    # ---- abstain
    ("abstain-canonical", ABSTAIN_ANSWER, ABSTAIN_ANSWER, "abstain", True, 1.0, False),
    ("abstain-answer-instead", "42", ABSTAIN_ANSWER, "abstain", False, 0.0, False),
    ("abstain-empty", "", ABSTAIN_ANSWER, "abstain", False, 0.0, True),
    # ---- abstaining on an answerable item is wrong, not a parse failure
    ("number-abstained", "I don't know", "42", "number", False, 0.0, False),
    ("label-abstained", "Cannot be determined from the chart.", "Canada", "label", False, 0.0, False),
    ("bool-abstained", "Not enough information", "Yes", "bool", False, 0.0, False),
    # ---- text
    ("text-exact", "The sales doubled", "the sales doubled.", "text", True, 1.0, False),
    ("text-close", "The chart shows that sales doubled", "sales doubled", "text", True, 1.0, False),
    ("text-unrelated", "zzzz", "sales doubled", "text", False, 0.0, False),
    ("text-empty", "", "sales doubled", "text", False, 0.0, True),
]


@pytest.mark.parametrize(
    ("prediction", "gold", "answer_type", "correct", "score", "parse_failed"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_scoring_table(prediction, gold, answer_type, correct, score, parse_failed):
    result = score_answer(prediction, gold, answer_type)
    assert isinstance(result, Score)
    assert result.correct is correct
    assert result.parse_failed is parse_failed
    if score is not None:
        assert result.score == pytest.approx(score, abs=1e-9)
    assert (result.normalized == "") is parse_failed


@pytest.mark.parametrize("answer_type", sorted(MATCHERS))
def test_scoring_every_registered_type_has_cases(answer_type):
    assert any(case[3] == answer_type for case in CASES)


def test_scoring_registry_matches_answer_types():
    assert set(MATCHERS) == set(ANSWER_TYPES)
    assert len(ANSWER_TYPES) == len(set(ANSWER_TYPES))


@pytest.mark.parametrize(
    "prediction",
    ["I don't know", "I do not know", "i dont know.", "It cannot be determined", "Can't be determined",
     "Unanswerable", "not enough information in the chart", "Insufficient data", "I can't tell",
     "Unknown", "The chart has no legend", "N/A", "It is impossible to determine", "I’m unable to tell"],
)
def test_scoring_abstention_family(prediction):
    result = score_answer(prediction, ABSTAIN_ANSWER, "abstain")
    assert result.correct and result.abstained and not result.parse_failed
    assert result.normalized == "i don't know"
    wrong = score_answer(prediction, "42", "number")
    assert not wrong.correct and wrong.abstained and not wrong.parse_failed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("<think>maybe 3? no, 4</think>\n4", "4", id="think-closed"),
        pytest.param("reasoning without opening tag</think> 17", "17", id="think-close-only"),
        pytest.param("<think>a</think>b<think>c</think>Final", "Final", id="think-last-close"),
        pytest.param("<think>I guess 5, or 6", "", id="think-unclosed-no-marker"),
        pytest.param("<think>so... Final Answer: 6", "6", id="think-unclosed-with-marker"),
        pytest.param("x <answer>1</answer> y <answer> 2 </answer> z", "2", id="answer-tag-last"),
        pytest.param("<ANSWER>Paris", "Paris", id="answer-tag-unclosed"),
        pytest.param("<think>hmm <answer>9</answer></think><answer>10</answer>", "10", id="answer-after-think"),
        pytest.param("Answer: 3\nFinal Answer: 5\n\nHope this helps!", "5", id="final-answer-last"),
        pytest.param("final answer:\n\n  yes", "yes", id="final-answer-next-paragraph"),
        pytest.param("**Final Answer:** 42", "42", id="final-answer-bold"),
        pytest.param("**Final Answer**: 42", "42", id="final-answer-bold-colon-outside"),
        pytest.param("Let me look.\nThe bars...\n\nCanada\n\n", "Canada", id="last-line"),
        pytest.param('"Canada".', "Canada", id="quotes-and-period"),
        pytest.param("`42`", "42", id="backticks"),
        pytest.param("**Blue**", "Blue", id="bold"),
        pytest.param("- Blue", "Blue", id="bullet"),
        pytest.param("The result is \\boxed{12}.", "12", id="boxed"),
        pytest.param("42<|im_end|>", "42", id="special-token"),
        pytest.param("", "", id="empty"),
        pytest.param("\n \n", "", id="whitespace"),
    ],
)
def test_scoring_extract_answer(text, expected):
    assert extract_answer(text) == expected


def test_scoring_extract_answer_none_like():
    assert extract_answer(None) == ""  # type: ignore[arg-type]
    assert score_answer(None, "42", "number").parse_failed  # type: ignore[arg-type]


def test_scoring_extraction_feeds_matching():
    result = score_answer("<think>It might be 2010</think>Final Answer: 2008.", "2008", "year")
    assert result.correct and result.extracted == "2008"


@pytest.mark.parametrize(
    ("answer", "answer_type", "expected"),
    [
        pytest.param("1,234", "number", "1234", id="number-comma"),
        pytest.param("27 percent", "number", "27", id="number-percent"),
        pytest.param("1.4 billion", "number", "1400000000", id="number-billion"),
        pytest.param("twelve", "count", "12", id="count-word"),
        pytest.param("In 2008", "year", "2008", id="year"),
        pytest.param("The USA", "label", "united states", id="label-alias"),
        pytest.param("B, a", "list", '["a", "b"]', id="list-sorted"),
        pytest.param("True", "bool", "yes", id="bool"),
        pytest.param("[100, 200, 500, 600]", "bbox", "[0.1, 0.2, 0.5, 0.6]", id="bbox"),
        pytest.param("Option (c)", "choice", "C", id="choice-letter"),
        pytest.param("Rejected", "choice", "reject", id="choice-verdict"),
        pytest.param("cannot be determined", "abstain", "i don't know", id="abstain"),
        pytest.param("cannot be determined", "number", "i don't know", id="abstain-any-type"),
        pytest.param("  Hello,   World ", "text", "hello world", id="text"),
        pytest.param("no digits", "number", None, id="number-unparsable"),
        pytest.param("maybe", "bool", None, id="bool-unparsable"),
    ],
)
def test_scoring_normalize(answer, answer_type, expected):
    assert normalize(answer, answer_type) == expected


@pytest.mark.parametrize(
    ("first", "second", "answer_type"),
    [
        pytest.param("1.4 billion", "1400000000", "number", id="number"),
        pytest.param("USA", "the United States", "label", id="label"),
        pytest.param("Yes.", "true", "bool", id="bool"),
        pytest.param("(A)", "Option A", "choice", id="choice"),
        pytest.param('["b", "a"]', "a and b", "list", id="list"),
    ],
)
def test_scoring_equal_normalized_for_same_answer(first, second, answer_type):
    gold = '["a", "b"]' if answer_type == "list" else "x"
    assert score_answer(first, gold, answer_type).normalized == score_answer(second, gold, answer_type).normalized


def test_scoring_caller_aliases():
    aliases = {"Democratic Republic of the Congo": ["DRC", "Congo-Kinshasa"]}
    assert score_answer("DRC", "Democratic Republic of the Congo", "label", aliases=aliases).correct
    assert score_answer("congo kinshasa", "Democratic Republic of the Congo", "label", aliases=aliases).correct
    assert not score_answer("DRC", "Democratic Republic of the Congo", "label").correct
    gold = '["Democratic Republic of the Congo", "Chad"]'
    assert score_answer("DRC, Chad", gold, "list", aliases=aliases).correct


def test_scoring_unknown_answer_type_raises_value_error():
    with pytest.raises(ValueError, match="unknown answer_type"):
        score_answer("42", "42", "float")
    with pytest.raises(ValueError, match="unknown answer_type"):
        normalize("42", "float")


def _hostile_inputs() -> list[tuple[str, str]]:
    rng = random.Random(0)
    return [
        ("10MB-letters", "x" * 10_000_000),
        ("10MB-random-bytes", rng.randbytes(10_000_000).decode("utf-8", errors="replace")),
        ("10MB-digits", "9" * 10_000_000),
        ("many-think-tags", "</think>" * 1_000_000),
        ("many-answer-markers", "Answer: " * 1_000_000),
        ("unclosed-answer-tags", "<answer>[" * 500_000),
        ("deep-json", "[" * 100_000 + "]" * 100_000),
        ("nul-and-surrogates", "\x00\ud800\udfff" * 1000),
    ]


HOSTILE = _hostile_inputs()
GOLDS = {"list": '["a", "b"]', "bbox": "[0, 0, 1, 1]", "abstain": ABSTAIN_ANSWER, "bool": "yes", "choice": "A"}


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
@pytest.mark.parametrize("prediction", [p for _, p in HOSTILE], ids=[name for name, _ in HOSTILE])
def test_scoring_hostile_inputs_never_raise_and_are_fast(prediction, answer_type):
    start = time.perf_counter()
    result = score_answer(prediction, GOLDS.get(answer_type, "42"), answer_type)
    assert time.perf_counter() - start < 1.0
    assert 0.0 <= result.score <= 1.0
    assert len(result.extracted) <= 4096
    # hostile gold must not raise either
    score_answer("42", prediction, answer_type)


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prediction=st.text(max_size=300), gold=st.text(max_size=60))
def test_scoring_property_never_raises(answer_type, prediction, gold):
    result = score_answer(prediction, gold, answer_type)
    assert 0.0 <= result.score <= 1.0
    assert result.parse_failed == (result.normalized == "")
    assert not (result.parse_failed and result.correct)
    assert normalize(prediction, answer_type) is None or isinstance(normalize(prediction, answer_type), str)


ALPHABET = st.sampled_from(list("0123456789.,-%$ ABCxyz[]()<>/:\n") + ["</think>", "<answer>", "Answer:",
                                                                     "billion", "yes", "no", "accept"])


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
@settings(max_examples=150, deadline=None)
@given(prediction=st.lists(ALPHABET, max_size=40).map("".join))
def test_scoring_property_answer_like_text(answer_type, prediction):
    result = score_answer(prediction, GOLDS.get(answer_type, "42"), answer_type)
    assert 0.0 <= result.score <= 1.0
    assert result.abstained or result.parse_failed or result.normalized


@pytest.mark.parametrize("answer_type", ANSWER_TYPES)
def test_card_scoring_rule_is_the_matcher_docstring(answer_type):
    """Cards quote ``core.answer_types.SCORING_RULES``; it must say what the matcher does."""
    import re

    from chartprobe.eval_tasks.scoring.typed import scoring_rule

    doc = (type(MATCHERS[answer_type]).__doc__ or "").strip().splitlines()[0]
    assert scoring_rule(answer_type) == re.sub(r":\w+:`([^`]+)`", r"\1", doc)
