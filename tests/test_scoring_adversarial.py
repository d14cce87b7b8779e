"""How models answer in 2026: reasoning blocks, answer-marker precedence, hedges, negations,
number words, worked values, month names and inflections — each with its expected verdict.

And the judge case that motivated it: an always-right judge whose ``<think>`` block mentions the
other verdict must score 1.0 on CPA and CRJ.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.scoring.typed import ANSWER_TYPES, score_answer

# (id, prediction, gold, answer_type, correct, parse_failed)
ADVERSARIAL = [
    # ---- reasoning blocks and marker precedence
    ("think-swallows-marker", "<think>answer: 12? no.</think>\nAnswer: 14", "14", "number", True, False),
    ("think-mentions-gold-only", "<think>It is 14.</think>\nAnswer: 15", "14", "number", False, False),
    ("thinking-tag", "<thinking>Answer: 3</thinking> Final Answer: 4", "4", "integer", True, False),
    ("reasoning-tag", "<reasoning>the answer: yes</reasoning>\nno", "no", "bool", True, False),
    ("unclosed-think-no-marker", "<think>The bars show 14 and 20", "14", "number", False, True),
    ("unclosed-think-with-marker", "<think>long... Final Answer: 14", "14", "number", True, False),
    ("thought-preamble", "Thought: the tallest is 14.\nAnswer: 20", "20", "number", True, False),
    ("thought-preamble-only", "Thought: I believe it is 14", "14", "number", False, True),
    ("boxed-beats-answer-line", "\\boxed{21}\nAnswer: 12", "21", "integer", True, False),
    ("bracket-field-beats-final", "Final Answer: B\n[Answer]: A\n[Reason]: B is clipped", "A", "choice", True, False),
    ("final-beats-answer", "Answer: see below.\nFinal Answer: 9", "9", "integer", True, False),
    ("answer-tag-first", "<answer>Tesla</answer> \\boxed{Amazon}", "Tesla", "label", True, False),
    ("boxed-inside-answer-tag", "<answer>\\boxed{Tesla}</answer>", "Tesla", "label", True, False),
    ("field-stops-at-reason", "[Answer]: Reject [Reason]: acceptable colours, wrong data", "Reject", "choice", True,
     False),
    ("special-tokens", "<|im_start|>assistant\n42<|im_end|>", "42", "number", True, False),
    # ---- hedges: more than one candidate is wrong
    ("hedge-either-numbers", "Either 0 or 41", "41", "number", False, True),
    ("hedge-or-numbers", "It is 3 or 4", "4", "integer", False, True),
    ("hedge-maybe-years", "2018, maybe 2019", "2019", "year", False, True),
    ("hedge-letters", "A or B", "A", "choice", False, True),
    ("hedge-verdicts", "accept or reject, hard to say", "accept", "choice", False, True),
    ("hedge-bool", "yes or no", "yes", "bool", False, True),
    ("hedge-labels", "Either Tesla or Amazon", "Tesla", "label", False, False),
    ("no-hedge-same-number", "41, i.e. 41 units", "41", "number", True, False),
    ("between-is-not-a-hedge", "The difference between 2019 and 2020 is 12", "12", "integer", True, False),
    # ---- negation-aware verdicts
    ("not-true", "Not true", "no", "bool", True, False),
    ("not-true-is-not-yes", "Not true", "yes", "bool", False, False),
    ("not-false", "That is not false.", "yes", "bool", True, False),
    ("no-it-is-not", "No, it is not.", "no", "bool", True, False),
    ("dont-think-so", "I don't think so", "no", "bool", True, False),
    ("isnt-correct", "That isn't correct", "no", "bool", True, False),
    ("plain-yes", "Yes.", "yes", "bool", True, False),
    ("would-not-accept", "I would not accept this", "reject", "choice", True, False),
    ("would-not-accept-is-not-accept", "I would not accept this", "accept", "choice", False, False),
    ("cannot-reject", "I cannot reject it: it matches", "accept", "choice", True, False),
    ("unacceptable", "Unacceptable reproduction", "reject", "choice", True, False),
    ("no-comma-reject", "No, reject it.", "reject", "choice", True, False),
    ("accepted", "Accepted", "accept", "choice", True, False),
    # ---- number words and worked values
    ("twenty-one", "twenty-one", "21", "integer", True, False),
    ("twenty-one-is-not-1", "twenty-one", "1", "integer", False, False),
    ("hundred-and-five", "one hundred and five", "105", "count", True, False),
    ("thousands-words", "three thousand two hundred", "3200", "number", True, False),
    ("value-then-working", "20 (67 - 47)", "20", "number", True, False),
    ("value-then-working-not-47", "20 (67 - 47)", "-47", "number", False, False),
    ("bracket-working", "12 [= 30 - 18]", "12", "integer", True, False),
    ("value-in-year", "95 in 2018", "95", "number", True, False),
    ("value-in-year-not-year", "95 in 2018", "2018", "number", False, False),
    ("dated-sentence", "In 2018 the value was 95", "95", "number", True, False),
    ("year-type-keeps-year", "It peaked in 2018", "2018", "year", True, False),
    ("digits-beat-words", "two bars, 7 in total", "7", "count", True, False),
    # ---- month names, plurals and inflections
    ("month-full-vs-abbr", "September", "Sep", "label", True, False),
    ("month-abbr-vs-full", "Mar", "March", "label", True, False),
    ("month-sept", "Sept", "September", "label", True, False),
    ("month-wrong", "October", "Sep", "label", False, False),
    ("inflection-ed", "outlined", "outline", "label", True, False),
    ("plural-s", "circles", "circle", "label", True, False),
    ("plural-ies", "Categories", "category", "label", True, False),
    ("inflection-not-substring", "Asia", "East Asia", "label", False, False),
    ("short-word-not-stemmed", "r", "red", "label", False, False),
    ("list-months", "Jan, Feb", '["January", "February"]', "list", True, False),
    # ---- the remaining types still read plainly through all of it
    ("bbox-after-think", "<think>maybe [0,0,1,1]</think>[0.1, 0.1, 0.5, 0.5]", "[0.1, 0.1, 0.5, 0.5]", "bbox", True,
     False),
    ("abstain-after-think", "<think>the legend is hidden</think>\nI don't know", "I don't know", "abstain", True,
     False),
    ("abstain-not-answer", "<think>I don't know...</think>\n41", "I don't know", "abstain", False, False),
    ("text-after-think", "<think>hmm</think>\nAnswer: the north region grew fastest",
     "the north region grew fastest", "text", True, False),
]


@pytest.mark.parametrize(("prediction", "gold", "answer_type", "correct", "parse_failed"),
                         [pytest.param(*c[1:], id=c[0]) for c in ADVERSARIAL])
def test_adversarial_answers(prediction, gold, answer_type, correct, parse_failed):
    result = score_answer(prediction, gold, answer_type)
    assert result.correct is correct, result
    assert result.parse_failed is parse_failed, result


def test_the_table_is_large_and_covers_every_answer_type():
    assert len(ADVERSARIAL) >= 60
    assert len({c[0] for c in ADVERSARIAL}) == len(ADVERSARIAL)
    assert {c[3] for c in ADVERSARIAL} == set(ANSWER_TYPES)


def _rows(release, config: str) -> list[dict]:
    return [r for f in sorted((release / config).glob("*.parquet"))
            for r in pq.read_table(f, columns=None).drop_columns(
                [c for c in pq.read_schema(f).names if c.startswith("image")]).to_pylist()]


def test_always_right_judge_thinking_about_the_other_verdict_scores_one(release_root):
    judge = release_root / "chartprobe-judge"
    cpa = []
    for row in _rows(judge, "cpa"):
        for order, gold, other in (("better_first", "A", "B"), ("worse_first", "B", "A")):
            think = f"<think>[Answer]: Image {other}? The answer: {other} looks cleaner... no.</think>"
            doc = {**row, "order": order}
            cpa.append(jm.cpa_record(doc, [f"{think}\n[Answer]: Image {gold}\n[Reason]: fewer flaws"]))
    assert jm.cpa_summary(cpa, 1)["two_pass_accuracy"] == 1.0
    for config in ("crj_reproduction", "crj_editing"):
        crj = []
        for row in _rows(judge, config):
            gold = row["label"].capitalize()
            other = "Reject" if gold == "Accept" else "Accept"
            think = f"<think>Answer: {other}? I would {other.lower()} it at first glance.</think>"
            crj.append(jm.crj_record(row, [f"{think}\n\n[Answer]: {gold}\n[Reason]: checked every criterion"]))
        assert jm.crj_metrics(crj, 1)["accuracy"] == 1.0, config
