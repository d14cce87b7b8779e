"""Data selection for fine-tuning (training/select.py): pure, no torch, synthetic rows.

Covers the issue's selection checks: no complex-reasoning item in any configuration,
volume-matched configurations of equal size, and bottleneck vs random allocation on a
profile with one weak skill.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from chartprobe.training.select import (
    SKILL_SETS,
    SelectionError,
    allocate,
    bottleneck_weights,
    check_no_complex,
    parse_skills,
    select_atomic,
    select_bottleneck,
    select_random,
    select_rows,
    validation_budget,
)

TEMPLATES = {"perception": ["P-A", "P-B", "P-C"], "grounding": ["G-A", "G-B", "G-C"],
             "reasoning": ["R-A", "R-B", "R-C"]}


def synthetic_rows(charts: int = 20) -> list[dict]:
    """Nine probes per chart (three per skill) plus one complex and one held-out row per chart."""
    rows = []
    for c in range(charts):
        kind = "bar" if c % 2 else "hbar"
        for skill, templates in TEMPLATES.items():
            rows += [{"id": f"c{c:03d}-{t}", "skill": skill, "template_id": t, "chart_kind": kind,
                      "domain": kind, "held_out": False} for t in templates]
        rows.append({"id": f"c{c:03d}-CR", "skill": "complex", "template_id": "CR-X", "chart_kind": kind,
                     "domain": kind, "held_out": True})
        rows.append({"id": f"c{c:03d}-HO", "skill": "reasoning", "template_id": "R-A", "chart_kind": kind,
                     "domain": kind, "held_out": True})  # held out even though its skill is trainable
    return rows


ROWS = synthetic_rows()
BY_ID = {r["id"]: r for r in ROWS}
WEAK_PERCEPTION = {"perception": 0.2, "grounding": 0.8, "reasoning": 0.75, "complex": 0.05}


def _all_configurations():
    for skills in SKILL_SETS:
        sk = parse_skills(skills)
        yield select_atomic(ROWS, sk)
        yield select_atomic(ROWS, sk, volume_matched=30)
        yield select_random(ROWS, sk, 15, seed=1)
        yield select_bottleneck(ROWS, sk, 15, WEAK_PERCEPTION)


def test_parse_skills_accepts_the_five_configurations_and_refuses_complex():
    assert parse_skills("P+G") == ("perception", "grounding")
    assert parse_skills("p+g+sr") == ("perception", "grounding", "reasoning")
    assert [len(parse_skills(s)) for s in SKILL_SETS] == [1, 1, 1, 2, 3]
    for bad in ("CR", "P+CR", "complex", "", "P+X"):
        with pytest.raises(SelectionError):
            parse_skills(bad)


def test_no_complex_reasoning_item_in_any_configuration():
    for sel in _all_configurations():
        assert sel.ids, sel.mode
        chosen = [BY_ID[i] for i in sel.ids]
        assert all(r["skill"] != "complex" and not r["held_out"] for r in chosen), (sel.mode, sel.skills)
        assert {r["skill"] for r in chosen} <= set(sel.skills)


def test_the_guard_raises_on_a_complex_row():
    with pytest.raises(SelectionError, match="complex"):
        check_no_complex([{"id": "x", "skill": "complex"}])
    with pytest.raises(SelectionError, match="complex"):
        check_no_complex([{"id": "y", "skill": "perception", "held_out": True}])


def test_atomic_takes_every_row_of_the_skills():
    sel = select_atomic(ROWS, parse_skills("P+G"))
    assert sel.counts == {"grounding": 60, "perception": 60}
    assert len(sel.ids) == len(set(sel.ids)) == 120


def test_volume_matched_configurations_have_equal_counts():
    sizes = {s: select_atomic(ROWS, parse_skills(s), volume_matched=31, seed=42) for s in SKILL_SETS}
    assert {len(sel.ids) for sel in sizes.values()} == {31}
    assert sizes["P+G"].counts == {"grounding": 16, "perception": 15}  # largest remainder, ties by name
    assert max(sizes["P+G+SR"].counts.values()) - min(sizes["P+G+SR"].counts.values()) <= 1
    assert validation_budget(2700) == 300  # the paper's 2700/300
    with pytest.raises(SelectionError, match="exceeds"):
        select_atomic(ROWS, parse_skills("P"), volume_matched=61)


def test_selection_is_deterministic_and_independent_of_row_order():
    sk = parse_skills("P+G+SR")
    a = select_random(ROWS, sk, 20, seed=43)
    assert select_random(list(reversed(ROWS)), sk, 20, seed=43).ids == a.ids
    assert select_random(ROWS, sk, 20, seed=44).ids != a.ids
    b = select_bottleneck(ROWS, sk, 20, WEAK_PERCEPTION, seed=43)
    assert select_bottleneck(list(reversed(ROWS)), sk, 20, WEAK_PERCEPTION, seed=43).ids == b.ids


@pytest.mark.parametrize("seed", [42, 43, 44])
def test_bottleneck_puts_the_configured_share_on_the_weak_skill_and_random_does_not(seed):
    sk = parse_skills("P+G+SR")
    budget, ratio = 30, 0.8
    bott = select_bottleneck(ROWS, sk, budget, WEAK_PERCEPTION, ratio=ratio, seed=seed)
    rand = select_random(ROWS, sk, budget, seed=seed)
    assert len(bott.ids) == len(rand.ids) == budget  # same budget, the LegendBench comparison
    assert bott.details["weak"] == ["perception"]
    assert bott.share(["perception"]) >= ratio
    assert bott.details["weak_share"] == bott.share(["perception"])
    assert rand.share(["perception"]) < ratio
    # The strong side keeps 1 - ratio, split evenly.
    assert abs(bott.counts["reasoning"] - bott.counts["grounding"]) <= 1 and bott.counts["grounding"] >= 1


def test_bottleneck_over_template_regions_and_unknown_regions():
    acc = {"P-A": 0.1, "P-B": 0.9, "P-C": 0.9, "G-A": 0.95}  # G-B, G-C missing -> mean accuracy
    sel = select_bottleneck(ROWS, parse_skills("P+G"), 20, acc, region="template_id", ratio=0.75)
    assert sel.details["weak"] == ["P-A"]  # unmeasured regions are never called weak
    assert sel.counts["P-A"] == 15
    assert sel.details["accuracy"]["G-B"] == pytest.approx((0.1 + 0.9 + 0.9 + 0.95) / 4)
    assert sel.details["missing_from_profile"] == ["G-B", "G-C"]
    with pytest.raises(SelectionError, match="no 'chart_kind' region"):
        select_bottleneck(ROWS, parse_skills("P"), 5, {"pie": 0.1}, region="chart_kind")


def test_weak_regions_that_run_out_of_rows_pass_their_budget_on():
    sel = select_bottleneck(ROWS, parse_skills("P+G+SR"), 100, WEAK_PERCEPTION, ratio=0.9)
    assert sel.counts["perception"] == 60  # every perception row; the rest goes to the others
    assert len(sel.ids) == 100
    assert sel.details["weak_share"] == pytest.approx(0.6)


def test_bottleneck_weights_rule():
    weights, weak, rule = bottleneck_weights({"a": 0.1, "b": 0.3, "c": 0.9, "d": 1.0}, ratio=0.8)
    assert rule == "bottleneck" and weak == ["a", "b"]  # point estimates below the mean accuracy (0.575)
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights["a"] + weights["b"] == pytest.approx(0.8)
    assert weights["a"] / weights["b"] == pytest.approx(0.9 / 0.7)  # proportional to error
    assert weights["c"] == weights["d"] == pytest.approx(0.1)  # the others share 1 - ratio evenly
    assert bottleneck_weights({"a": 0.1, "b": 0.3, "c": 0.9}, k=1)[1] == ["a"]
    assert bottleneck_weights({"only": 0.5})[0] == {"only": 1.0}
    with pytest.raises(SelectionError):
        bottleneck_weights({"a": 0.5}, ratio=0.0)


def _cells(correct: dict[str, int], n: int) -> dict[str, dict]:
    from chartprobe.training.profile import cell

    return {k: cell(c, n) for k, c in correct.items()}


def test_no_evidence_of_a_gap_gives_a_uniform_allocation():
    """2 vs 1 vs 0 correct out of 108 (the issue's case): no interval lies below the mean."""
    for n in (36, 108):
        cells = _cells({"reasoning": 0, "grounding": 1, "perception": 2}, n)
        weights, weak, rule = bottleneck_weights(cells, mean=3 / (3 * n), ratio=0.8)
        assert (weak, rule) == ([], "uniform")
        assert weights == pytest.approx(dict.fromkeys(cells, 1 / 3))
        sel = select_bottleneck(ROWS, parse_skills("P+G+SR"), 30, cells, mean=3 / (3 * n))
        assert sel.counts == {"grounding": 10, "perception": 10, "reasoning": 10}
        assert sel.details["rule"] == "uniform" and "uniformly" in sel.details["note"]


def test_one_clearly_weak_region_gets_the_configured_share():
    cells = _cells({"perception": 20, "grounding": 90, "reasoning": 88}, 100)
    mean = (20 + 90 + 88) / 300
    for ratio in (0.8, 0.6, 1.0):
        weights, weak, rule = bottleneck_weights(cells, mean=mean, ratio=ratio)
        assert (weak, rule) == (["perception"], "bottleneck")
        assert weights["perception"] == pytest.approx(ratio)
        sel = select_bottleneck(ROWS, parse_skills("P+G+SR"), 40, cells, ratio=ratio, mean=mean)
        assert sel.counts["perception"] == round(40 * ratio)


def test_rows_within_a_region_spread_evenly_over_its_templates():
    rows = [{"id": f"p{i:03d}", "skill": "perception", "template_id": "P-BIG" if i < 50 else f"P-{i % 3}",
             "held_out": False} for i in range(80)]
    sel = select_atomic(rows, ("perception",), volume_matched=12, template="template_id")
    picked = [r["template_id"] for r in rows if r["id"] in set(sel.ids)]
    assert {t: picked.count(t) for t in set(picked)} == {"P-BIG": 3, "P-0": 3, "P-1": 3, "P-2": 3}
    small = [r for r in rows if r["template_id"] != "P-0"][:52]  # P-1 and P-2 have one row each
    sel = select_atomic(small, ("perception",), volume_matched=12, template="template_id")
    picked = [r["template_id"] for r in small if r["id"] in set(sel.ids)]
    assert picked.count("P-BIG") == 10 and len(picked) == 12  # what the small ones lack goes to the big one


def test_allocate_is_exact_capped_and_proportional():
    assert allocate(10, {"a": 0.5, "b": 0.5}, {"a": 100, "b": 100}) == {"a": 5, "b": 5}
    assert allocate(10, {"a": 0.9, "b": 0.1}, {"a": 3, "b": 100}) == {"a": 3, "b": 7}
    assert allocate(7, {"a": 1.0, "b": 0.0}, {"a": 5, "b": 5}) == {"a": 5, "b": 2}
    assert sum(allocate(11, {"a": 1, "b": 1, "c": 1}, {"a": 9, "b": 9, "c": 9}).values()) == 11
    with pytest.raises(SelectionError):
        allocate(0, {"a": 1}, {"a": 1})
    with pytest.raises(SelectionError):
        allocate(3, {"a": 1}, {"a": 2})


def test_select_rows_dispatch_and_errors():
    sk = parse_skills("P")
    assert len(select_rows(ROWS, "random", sk, volume_matched=10).ids) == 10  # budget falls back
    for kwargs, match in [({"mode": "random"}, "--budget"), ({"mode": "bottleneck", "budget": 5}, "--profile"),
                          ({"mode": "atomic", "budget": 5}, "--volume-matched"), ({"mode": "best"}, "unknown")]:
        mode = kwargs.pop("mode")
        with pytest.raises(SelectionError, match=match):
            select_rows(ROWS, mode, sk, **kwargs)


def test_manifest_records_ids_and_rule():
    m = select_bottleneck(ROWS, parse_skills("P+G+SR"), 12, WEAK_PERCEPTION).manifest()
    assert m["n"] == 12 and len(m["ids"]) == 12
    assert {"weak", "ratio", "weights", "accuracy", "intervals", "rule", "mean", "weak_share",
            "budget"} <= set(m["details"])
    assert "complex" not in m["details"]["accuracy"]  # profile regions outside the pool are ignored


def test_selection_profile_format_and_config_modules_do_not_import_torch():
    code = ("import sys, chartprobe.training.select, chartprobe.training.profile, chartprobe.training.format, chartprobe.training.config, chartprobe.training.cli; "
            "bad = [m for m in ('torch', 'transformers', 'trl', 'peft') if m in sys.modules]; "
            "sys.exit(f'heavy imports: {bad}' if bad else 0)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr + run.stdout
