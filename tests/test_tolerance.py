"""Numeric tolerances come from the chart: half a tick step off a scale, exact when printed.

The acceptance case of issue 22: on a value read off the axis, an answer off by half a tick
step is right and one off by a whole step is wrong; every numeric template's card entry
states its tolerance.
"""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.tolerance import (
    RELATIVE,
    Tolerance,
    last_digit_tolerance,
    scale_tolerance,
    tolerance_for,
)
from chartprobe.dataset_builders.families.card import _regimes_table
from chartprobe.dataset_builders.families.source import FAMILY_SOURCES
from chartprobe.dataset_builders.legend.card import _templates_table
from chartprobe.dataset_builders.legend.rows import RowMaker
from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES
from chartprobe.dataset_builders.probes.builder import eligible_templates
from chartprobe.dataset_builders.probes.card import probe_card
from chartprobe.eval_tasks.scoring.typed import score_answer, score_doc


def test_scale_tolerance_is_half_the_step_around_the_value():
    assert scale_tolerance((0, 10, 20, 30), 14) == Tolerance("abs", 5.0)
    assert scale_tolerance((0, 10, 20, 30), 14, reads=2) == Tolerance("abs", 10.0)
    assert scale_tolerance((20, 40, 60), 14) == Tolerance("abs", 10.0)  # below the labels: nearest step
    assert scale_tolerance((1, 10, 100), 50) == Tolerance("abs", 45.0)  # a log axis: the local step
    assert scale_tolerance((5,), 5) is None
    assert tolerance_for("axis", "14", {}) == RELATIVE  # no labelled ticks: the ±5% default


@pytest.mark.parametrize(("text", "tol"), [("45", 0.5), ("12.5", 0.05), ("-3.25", 0.005), ("1235", 0.5)])
def test_printed_values_are_exact_to_their_last_digit(text, tol):
    assert last_digit_tolerance(text) == Tolerance("abs", tol)


@pytest.mark.parametrize("text", ["abs:2.5", "rel:0.05", "abs:0"])
def test_tolerance_text_round_trips(text):
    assert Tolerance.parse(text).to_str() == text


@pytest.mark.parametrize("text", ["abs", "pct:3", "abs:-1", "abs:nan", "rel:x"])
def test_malformed_tolerance_is_refused(text):
    with pytest.raises(ValueError, match="tolerance"):
        Tolerance.parse(text)


def _axis_read_row() -> dict:
    """A real t2_value row on a line chart without printed values, rendered by the builder."""
    space, tpl = LegendSpace(), LEGEND_TEMPLATES.get("t2_value")()
    for i in range(40):
        unit = sample_unit(space, rng_for(5, "tol", i), kind="line", mode="single", form="box")
        if unit.add_labels:
            continue
        maker = RowMaker(unit, f"b{i}", 5)
        st = maker.state()
        params = tpl.candidates(st, rng_for(5, "tol", i, "q"))[0]
        row = maker.row(f"b{i}-0", st, tpl, params, group_id=f"b{i}-0")
        if row is not None:
            return row
    raise AssertionError("no axis-read row drawn")


def test_axis_read_passes_at_half_a_tick_and_fails_at_a_whole_tick():
    row = _axis_read_row()
    tol = Tolerance.parse(row["tolerance"])
    assert tol.kind == "abs" and tol.value > 0, row["tolerance"]
    step, gold = 2 * tol.value, float(row["answer"])
    for off in (tol.value, -tol.value, 0.4 * step):
        assert score_doc(row, f"{gold + off:.6g}").correct, (row["tolerance"], gold, off)
    for off in (step, -step):
        assert not score_doc(row, f"{gold + off:.6g}").correct, (row["tolerance"], gold, off)


def test_printed_values_make_the_row_exact():
    space, tpl = LegendSpace(), LEGEND_TEMPLATES.get("t2_value")()
    for i in range(60):
        unit = sample_unit(space, rng_for(6, "tol", i), kind="grouped_bar", mode="single", form="box")
        if not unit.add_labels:
            continue
        maker = RowMaker(unit, f"p{i}", 6)
        st = maker.state()
        row = maker.row(f"p{i}-0", st, tpl, tpl.candidates(st, rng_for(6, "tol", i, "q"))[0], group_id="g")
        if row is None:
            continue
        gold = float(row["answer"])
        assert row["tolerance"] == last_digit_tolerance(row["answer"]).to_str()
        assert score_doc(row, row["answer"]).correct
        assert not score_doc(row, f"{gold * 1.04:.6g}").correct  # within ±5%, but not what is printed
        return
    raise AssertionError("no printed row drawn")


def test_without_a_tolerance_column_numbers_keep_the_5_percent_default():
    assert score_doc({"answer": "100", "answer_type": "number"}, "104").correct
    assert not score_doc({"answer": "100", "answer_type": "number"}, "106").correct
    assert score_answer("103", "100", "number", tolerance="abs:3").correct
    assert not score_answer("103.5", "100", "number", tolerance="abs:3").correct


def test_every_numeric_template_states_its_tolerance_in_its_card():
    legend = {line.split("|")[1].strip(" `"): line for line in _templates_table().splitlines()
              if line.startswith("| `")}
    for name, cls in LEGEND_TEMPLATES.items():
        if cls.answer_type == "number":
            assert "tolerance: " in legend[name], name
    families = {line.split("|")[1].strip(" `"): line for line in _regimes_table({}).splitlines()
                if line.startswith("| `")}
    for name, cls in FAMILY_SOURCES.items():
        if cls.answer_type == "number":
            assert "tolerance: " in families[name], name
    probes = {line.split("|")[1].strip(" `"): line for line in probe_card({}, eligible_templates).splitlines()
              if line.startswith("| `")}
    numeric = {t.name for d in ("bar", "pie", "shapes") for h in (False, True) for t in eligible_templates(d, h)
               if t.answer_type == "number"}
    assert numeric
    for name in numeric:
        assert "tolerance: ±5% relative" in probes[name], name


@pytest.mark.parametrize(("pred", "gold"), [("1/2", "0.5"), ("1:2", "0.5"), ("2:1", "2"), ("The ratio is 3 : 4.", "0.75")])
def test_ratio_answers_as_fractions_or_a_to_b(pred, gold):
    assert score_answer(pred, gold, "number").correct


def test_a_date_is_not_a_ratio():
    assert not score_answer("3/4/2020", "0.75", "number").correct


def test_percent_boxes_are_read_as_percent():
    assert score_answer("[10%, 20%, 50%, 60%]", "[0.1, 0.2, 0.5, 0.6]", "bbox").correct
    assert score_answer("[100, 200, 500, 600]", "[0.1, 0.2, 0.5, 0.6]", "bbox").correct  # 0-1000 (Qwen)


@pytest.mark.parametrize("pred", ["positive correlation", "Positively correlated", "a positive relationship",
                                  "positive"])
def test_closed_vocabularies_accept_their_synonyms(pred):
    from chartprobe.dataset_builders.core.answer_vocab import aliases_json

    row = {"answer": "positive", "answer_type": "label", "answer_aliases": aliases_json("correlation")}
    assert score_doc(row, pred).correct
    assert not score_doc(row, "negative correlation").correct
    assert not score_doc({**row, "answer": "negative"}, pred).correct
