"""The published answer-equivalence set (tests/data/answer_equivalence.jsonl, issue 42 point 6).

Every case is written and graded by hand (gold, answer type, prediction, verdict, why) in the answer
styles of ChartQA, CharXiv, ChartMuseum, PlotQA and modern model outputs. The typed scorer must
never call a wrong answer correct, and may leave at most 15% of the right answers unsure.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from chartprobe.dataset_builders.core.answer_types import ANSWER_TYPES
from chartprobe.eval_tasks.scoring import score_answer

DATA = Path(__file__).parent / "data" / "answer_equivalence.jsonl"
MAX_UNSURE_RIGHT = 0.15


def _cases() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def _verdict(case: dict) -> str:
    score = score_answer(case["prediction"], case["gold"], case["answer_type"])
    return "unsure" if score.unsure else "correct" if score.correct else "wrong"


def test_answer_equivalence_set_is_well_formed():
    cases = _cases()
    assert len(cases) >= 300
    assert len({c["id"] for c in cases}) == len(cases)
    for case in cases:
        assert set(case) == {"id", "style", "gold", "answer_type", "prediction", "verdict", "why"}
        assert case["answer_type"] in ANSWER_TYPES and case["verdict"] in {"right", "wrong"} and case["why"]
    styles = Counter(c["style"] for c in cases)
    assert set(styles) == {"chartqa", "charxiv", "chartmuseum", "plotqa", "modern"}
    assert {"right", "wrong"} == {c["verdict"] for c in cases}


def test_no_wrong_answer_is_scored_correct_and_few_right_ones_are_unsure():
    cases = _cases()
    verdicts = [(_verdict(c), c) for c in cases]
    accepted_wrong = [c["id"] for v, c in verdicts if v == "correct" and c["verdict"] == "wrong"]
    assert accepted_wrong == []
    right = [v for v, c in verdicts if c["verdict"] == "right"]
    unsure_share = right.count("unsure") / len(right)
    print(f"answer equivalence: {len(cases)} cases, {len(right)} right answers, "
          f"{right.count('unsure')} unsure ({unsure_share:.1%}), {right.count('wrong')} scored wrong")
    assert unsure_share <= MAX_UNSURE_RIGHT
    # A wrong answer is never "unsure" where the rule can tell: opposites are wrong outright.
    opposite = [c for v, c in verdicts if c["verdict"] == "wrong" and "opposite" in c["why"]]
    assert opposite and all(v == "wrong" for v, c in verdicts if c in opposite)
