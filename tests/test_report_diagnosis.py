"""The report's diagnosis paragraph names a model's planted weakness, from the numbers (issue 41, check 4)."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.report.diagnosis import diagnose, paragraph


def _probes(g_acc: float, n_charts: int = 40) -> list[dict]:
    """Probe rows on ``n_charts`` charts: P and SR mostly right, G right on a ``g_acc`` share of charts."""
    rows = []
    for c in range(n_charts):
        for skill, ok in (("perception", c % 10 != 0), ("reasoning", c % 8 != 0), ("grounding", c < g_acc * n_charts)):
            rows.append({"chart_id": f"c{c}", "skill": skill, "accuracy": float(ok), "correct": ok})
    return rows


def _legend(follow: bool, n_sets: int = 40) -> list[dict]:
    """Rank rows of ``n_sets`` base charts: one aligned and two conflict rotations each. A follower
    answers the target's legend-entry position; a reader answers its visual rank."""
    rows = []
    for b in range(n_sets):
        for rot, legend_index in enumerate((2, 1, 3)):
            answer = legend_index if follow else 2
            rows.append({"base_id": f"b{b}", "group_id": f"b{b}", "capability": "reason", "visual_rank": 2,
                         "target_legend_index": legend_index, "prediction": str(answer), "correct": answer == 2})
        rows.append({"base_id": f"b{b}", "capability": "guide_read", "correct": b % 9 != 0})
        rows.append({"base_id": f"b{b}", "capability": "bind", "correct": b % 7 != 0})
    return rows


def _families(stale: bool, n: int = 40) -> list[dict]:
    """Families with a solved original and two variants: a stale model repeats the original's answer."""
    rows = []
    for f in range(n):
        rows.append({"family_id": f"f{f}", "role": "original", "correct": True, "normalized": "10"})
        for v in range(2):
            right = not stale and (f, v) != (0, 0)  # one slip in 80 variants: no real change
            rows.append({"family_id": f"f{f}", "role": "variant", "correct": right,
                         "normalized": "10" if stale else ("20" if right else "30")})
    return rows


MODELS = {
    "grounding-wrong": ({"probes": _probes(0.2), "legend": _legend(False), "families": _families(False)},
                        "probes grounding skill"),
    "legend-follower": ({"probes": _probes(0.9), "legend": _legend(True), "families": _families(False)},
                        "follows the legend order"),
    "stale": ({"probes": _probes(0.9), "legend": _legend(False), "families": _families(True)},
              "chart variants"),
}
WEAKNESS_WORDS = ("probes grounding skill", "follows the legend order", "chart variants")


@pytest.mark.parametrize("model", sorted(MODELS))
def test_a_planted_weakness_is_named_and_no_other(model):
    records, words = MODELS[model]
    text = paragraph(model, records)
    assert words in text, text
    for other in WEAKNESS_WORDS:
        if other != words:
            assert other not in text, (other, text)


def test_the_numbers_in_the_paragraph_are_the_computed_ones():
    weakest, strongest = diagnose(MODELS["grounding-wrong"][0])
    assert weakest.text == "probes grounding skill" and weakest.value == pytest.approx(0.2) and weakest.n == 40
    assert weakest.low < 0.2 < weakest.high
    assert strongest is None  # a reader of the chart: no shortcut share above 0, RVC not significant
    _, follow = diagnose(MODELS["legend-follower"][0])
    assert follow.value == pytest.approx(1.0) and follow.n == 80  # two conflict rotations per set
    assert "100% [100, 100]" in paragraph("m", MODELS["legend-follower"][0])
    weakest, stale = diagnose(MODELS["stale"][0])
    assert weakest.text.startswith("updating answers to chart variants") and weakest.value == 0.0
    assert stale.text.startswith("repeats the original's answer on chart variants") and stale.value == 1.0


def test_the_weakest_capability_moves_with_the_data():
    """Same model, grounding repaired and perception broken: the paragraph follows the numbers."""
    rows = [{**r, "accuracy": float(r["skill"] != "perception"), "correct": r["skill"] != "perception"}
            for r in _probes(1.0)]
    weakest, _ = diagnose({"probes": rows})
    assert weakest.text == "probes perception skill" and weakest.value == 0.0


def test_no_interval_from_one_unit_and_no_weakest_when_all_tie():
    one_family = [r for r in _families(True) if r["family_id"] == "f0"]
    text = paragraph("m", {"families": one_family})
    assert "(no interval: 1 unit)" in text and "stale" not in text  # one family supports no shortcut claim
    assert "Every one of its 3 capabilities scores 100%" in paragraph("m", {"probes": [
        {**r, "accuracy": 1.0} for r in _probes(1.0)]})


def test_every_headline_number_carries_its_95_interval():
    """The headline table beside the paragraph: each number with its cluster-bootstrap interval,
    which contains it and narrows where the evidence does (a perfect OA is [1.00, 1.00])."""
    from chartprobe.eval_tasks.report.compare import headline_of
    from chartprobe.eval_tasks.report.headline import INTERVAL_NOTE, diagnosis_markdown
    from chartprobe.eval_tasks.report.intervals import headline_intervals
    from chartprobe.eval_tasks.suites import suite_for_release

    suite = suite_for_release("families")
    rows = _families(False)
    for r in rows[2::6]:  # some variants wrong on some families: VA is not a constant
        r["correct"] = False
    head = headline_of(suite, rows)
    cis = headline_intervals(suite, rows)
    assert cis["OA"] == (1.0, 1.0)
    assert cis["VA"][0] < head["VA"] < cis["VA"][1]
    assert headline_intervals(suite, rows) == cis  # seeded: the same records, the same interval
    profiles = {"m": {"families": {"headline": head, "split": "test", "coverage": {"test": 1.0}}}}
    text = "\n".join(diagnosis_markdown(profiles, {"m": {"families": rows}}))
    row = next(line for line in text.splitlines() if line.startswith("| families"))
    assert f"{head['VA']:.3f} [{cis['VA'][0]:.2f}, {cis['VA'][1]:.2f}]" in row
    assert INTERVAL_NOTE in text
