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


def _probe_rows(probes_release):
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.labels import decode_batch, label_names

    cols = ["id", "domain", "answer", "answer_type", "tolerance", "program", "spec"]
    rows = []
    for path in sorted(probes_release.glob("*/*.parquet")):  # domain is a ClassLabel: decoded to its name
        rows += decode_batch(pq.read_table(path, columns=cols), label_names(pq.read_schema(path))).to_pylist()
    return [r for r in rows if r["answer_type"] == "number"]


def test_no_neighbour_misreading_passes_a_derived_probe_tolerance(probes_release):
    """ChartProbe's two-read values (R-ARITH-DIFF, R-ARITH-RATIO): reading either mark as the
    category next to it never lands inside the row's tolerance; single reads keep ±5%."""
    from chartprobe.dataset_builders.core.programs import Program
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS
    from chartprobe.dataset_builders.probes.misreading import misread_answers
    from chartprobe.dataset_builders.probes.templates import TEMPLATES

    TEMPLATES.load()
    derived = capped = 0
    for r in _probe_rows(probes_release):
        domain = PROBE_DOMAINS[r["domain"]]
        view = domain.view(domain.spec_from_json(r["spec"]), {})
        misread = misread_answers(Program.from_json(r["program"]), view)
        tol, gold = Tolerance.parse(r["tolerance"]), float(r["answer"])
        if not misread:
            assert r["tolerance"] == "rel:0.05", r["id"]
            continue
        derived += 1
        capped += tol.kind == "abs"
        assert tol.accepts(gold, gold), r["id"]
        for value in misread:
            assert value == gold or not tol.accepts(value, gold), (r["id"], gold, value, r["tolerance"])
    assert derived >= 10 and capped >= 1  # the small release exercises the cap


def test_the_cap_is_half_the_gap_to_the_nearest_misreading():
    from types import SimpleNamespace

    from chartprobe.dataset_builders.core.programs import Program
    from chartprobe.dataset_builders.probes.misreading import derived_tolerance
    from chartprobe.dataset_builders.probes.templates import TEMPLATES

    TEMPLATES.load()  # registers abs_difference
    program = Program("abs_difference", {"a": "A", "b": "B"})

    def view(*values):
        v = SimpleNamespace(labels=("A", "B", "C", "D"), n=4, values=values)
        v.value = lambda label: values[v.labels.index(label)]
        return v

    # |A - B| = 26. Reading B as C gives |50 - 25| = 25: ±5% (1.3) would accept it, so the bound is
    # half that gap (A has no other neighbour: B is read too).
    tol = derived_tolerance(program, view(50.0, 24.0, 25.0, 10.0), 26.0, Tolerance("rel", 0.05))
    assert tol.kind == "abs" and tol.value == pytest.approx(0.5) and not tol.accepts(25.0, 26.0)
    # with C at 49 the nearest misread answer is 1 (gap 25): ±5% stays
    assert derived_tolerance(program, view(50.0, 24.0, 49.0, 10.0), 26.0, Tolerance("rel", 0.05)) == Tolerance("rel", 0.05)
