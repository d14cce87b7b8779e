"""Derived-value tolerances (issue 42, point 4): a difference of two reads gets the error
propagation of its reads, capped so that no single-category misreading of either mark passes,
and every row stores how its tolerance was reached (``tolerance_derivation``)."""

from __future__ import annotations

import math

import pytest
from chartprobe.dataset_builders.core.tolerance import Tolerance
from chartprobe.dataset_builders.legend.program import state_of_row
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES

DERIVED = sorted(n for n in LEGEND_TEMPLATES.names() if LEGEND_TEMPLATES.get(n).reads > 1)


def _legend_rows(release_root):
    import pandas as pd

    files = sorted((release_root / "chartprobe-legend").glob("*/*.parquet"))
    assert files, "the small legend release has no parquet files"
    cols = ["id", "template", "answer", "answer_type", "tolerance", "tolerance_derivation", "chart_spec",
            "legend_spec", "program"]
    return pd.concat([pd.read_parquet(f, columns=cols) for f in files]).to_dict("records")


def test_every_derived_template_declares_its_misreadings():
    # A template adding up two reads must say which single-category misreadings its cap excludes.
    assert DERIVED == ["t3_colorbar_diff", "t3_diff"]
    base = LEGEND_TEMPLATES.get("t2_value").misreadings
    for name in DERIVED:
        assert LEGEND_TEMPLATES.get(name).misreadings is not base, name


@pytest.fixture(scope="module")
def derived_rows(release_root):
    rows = [r for r in _legend_rows(release_root) if r["template"] in DERIVED and r["answer_type"] == "number"]
    assert {r["template"] for r in rows} == set(DERIVED), "the small release must exercise every derived template"
    return rows


def test_no_single_category_misreading_passes(derived_rows):
    checked = 0
    for row in derived_rows:
        tol = Tolerance.parse(row["tolerance"])
        st, params, tpl = state_of_row(row)
        gold = float(row["answer"])
        misreads = [v for v in tpl.misreadings(st, params) if abs(v - gold) > 1e-9]
        for wrong in misreads:
            assert not tol.accepts(wrong, gold), (row["id"], row["tolerance"], gold, wrong)
            checked += 1
        assert tol.accepts(gold, gold)
    assert checked >= len(derived_rows)  # every row had at least one misreading to hold out


def test_rows_store_their_derivation(derived_rows):
    for row in derived_rows:
        text = row["tolerance_derivation"]
        assert text.split(":")[0] in ("axis", "colorbar", "printed", "relative"), text
        assert "misreading" in text, text  # the cap (or why none applied) is stated


def test_quadrature_not_sum_and_the_issue_example():
    # issue 42: gold -22 read off ticks 20 apart carried abs:20 x 2 / 2 = 10, so -12..-32 passed.
    # Now: sqrt(2) x 5 (ticks 10 apart) = 7.07 propagated, capped at half the gap to the
    # neighbouring bar's reading (-12 -> 10 -> 5): -12 and -32 fail, -19 passes.
    from types import SimpleNamespace

    from chartprobe.dataset_builders.legend.tolerances import derived_tolerance

    tpl = SimpleNamespace(tolerance_rule="axis", reads=2, misreadings=lambda st, params: (-12.0, -40.0))
    st = SimpleNamespace(add_labels=False, kind="grouped_bar")
    ticks = {"y": [-40.0, -30.0, -20.0, -10.0, 0.0], "x": [-40.0, -30.0, -20.0, -10.0, 0.0]}
    tol, text = derived_tolerance(tpl, st, {}, "-22", ticks)
    assert tol.to_str() == "abs:5", text
    assert "7.071" in text and "capped" in text
    assert not tol.accepts(-12, -22) and not tol.accepts(-32, -22) and tol.accepts(-19, -22)
    # without a close neighbour the propagated bound stands, and it is below the old sum (10)
    tpl_far = SimpleNamespace(tolerance_rule="axis", reads=2, misreadings=lambda st, params: (-60.0,))
    tol_far, _ = derived_tolerance(tpl_far, st, {}, "-22", ticks)
    assert math.isclose(tol_far.value, math.sqrt(2) * 5, rel_tol=1e-9)
