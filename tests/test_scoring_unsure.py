"""Precision first (issue 42): the typed scorer says correct, wrong or unsure, and unsure is counted apart."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.scoring import score_answer
from chartprobe.eval_tasks.scoring.sentences import judge_sentence

OPPOSITES = [  # (prediction, gold): every pair the issue found accepted by the fuzzy ratio
    ("Reading comics spans late childhood", "Watching TV spans early childhood"),
    ("South America", "North America"), ("Decreasing", "Increasing"), ("Women", "Men"),
    ("Very dissatisfied", "Very satisfied"), ("Offline retail", "Online retail"), ("Q1 2019", "Q3 2019"),
    ("Watching movies", "Watching TV"),
]


@pytest.mark.parametrize(("prediction", "gold"), OPPOSITES)
@pytest.mark.parametrize("answer_type", ["text", "label"])
def test_opposites_never_pass(prediction, gold, answer_type):
    assert not score_answer(prediction, gold, answer_type).correct


@pytest.mark.parametrize(("prediction", "gold", "verdict"), [
    ("Watching TV spans late childhood", "Watching TV spans early childhood", "wrong"),
    ("The gap narrowed by 15 points", "The gap narrowed by 12 points", "wrong"),
    ("Revenue peaked in Q1 2019", "Revenue peaked in Q3 2019", "wrong"),
    ("According to the chart, watching TV spans early childhood.", "Watching TV spans early childhood", "correct"),
    ("TV watching covers early childhood", "Watching TV spans early childhood", "unsure"),
    ("Imports exceeded exports", "Exports exceeded imports", "unsure"),
    ("Watching TV does not span early childhood", "Watching TV spans early childhood", "unsure"),
    ("", "Watching TV spans early childhood", "wrong"),
])
def test_sentence_rule(prediction, gold, verdict):
    assert judge_sentence(prediction, gold).verdict == verdict
    score = score_answer(prediction, gold, "text")
    assert (score.correct, score.unsure) == (verdict == "correct", verdict == "unsure")


@pytest.mark.parametrize(("prediction", "gold", "correct"), [
    ("2012", "2016", False), ("FY2016", "2016", True), ("'16", "2016", True), ("2016-2017", "2016-17", True),
    ("3Q19", "Q3 2019", True), ("September 2019", "Sept 2019", True), ("Q3 2018", "Q3 2019", False),
    ("2000", "1998", False), ("1990s", "1990", False), ("2018 or 2019", "2019", False),
])
def test_years_and_periods_are_exact(prediction, gold, correct):
    assert score_answer(prediction, gold, "year").correct is correct


def test_unsure_rows_are_counted_apart_in_family_records():
    doc = {"family_id": "f1", "role": "original", "answer": "Watching TV spans early childhood", "answer_type": "text"}
    rec = fm.score_family_record(doc, "TV watching covers early childhood")
    assert rec["unsure"] is True and rec["correct"] is False
    sure = fm.score_family_record(doc, "Watching TV spans late childhood")
    assert "unsure" not in sure and sure["correct"] is False
    summary = fm.family_summary([rec, sure], n_resamples=10)
    assert summary["unsure"] == 1
