"""Style shift: the probes' style_shift configs (one chart and question drawn by both engines in several
house styles), the style metrics on crafted predictions, and their report table."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

pytest.importorskip("vl_convert")

from chartprobe.dataset_builders.core.specs import load_spec, render_spec
from chartprobe.dataset_builders.core.style_axis import (
    STYLE_SHIFT_DEFAULT,
    DrawStyle,
    parse_styles,
    pick_style,
)
from chartprobe.eval_tasks.metrics.style_shift import style_shift_summary
from chartprobe.eval_tasks.report.style_shift import style_shift_section
from chartprobe.eval_tasks.suites.probes import ProbesSuite

CONFIGS = ("style_shift_bar", "style_shift_hbar", "style_shift_pie")


@pytest.fixture(scope="module")
def shift_rows(probes_release):
    from datasets import load_dataset

    return {c: list(load_dataset(str(probes_release), c, split="test")) for c in CONFIGS}


@pytest.mark.parametrize("config", CONFIGS)
def test_every_question_is_asked_in_every_style_with_one_gold(shift_rows, config):
    rows = shift_rows[config]
    items = defaultdict(dict)
    for r in rows:
        items[(r["chart_id"], r["template_id"])][r["style"]] = r
    assert items
    for per_style in items.values():
        assert sorted(per_style) == sorted(STYLE_SHIFT_DEFAULT)
        assert len({(r["question"], r["answer"], r["program"]) for r in per_style.values()}) == 1
        assert len({r["image"].tobytes() for r in per_style.values()}) == len(STYLE_SHIFT_DEFAULT)
        assert all(r["engine"] == r["style"].split("/")[0] for r in per_style.values())
    # box answers belong to one drawing: none is asked
    assert not {r["template_id"] for r in rows} & {"G-BBOX-ELEMENT"}


@pytest.mark.parametrize("config", CONFIGS)
def test_eight_rows_rerender_byte_identical_with_their_engine(shift_rows, config):
    import io

    seen = {}
    for r in shift_rows[config]:
        seen.setdefault(r["style"], r)
    rows = (list(seen.values()) + shift_rows[config])[:8]
    for r in rows:
        out = render_spec(load_spec(r["spec"]), engine=r["engine"])
        buf = io.BytesIO()
        r["image"].save(buf, format="PNG")
        from PIL import Image

        assert np.array_equal(np.asarray(Image.open(io.BytesIO(out.png)).convert("RGB")),
                              np.asarray(r["image"].convert("RGB"))), r["id"]


def test_styles_parse_and_refuse_clearly():
    assert parse_styles(None)[0] == DrawStyle("matplotlib", "default")
    assert DrawStyle.parse("vega/vox").name == "vega/vox"
    with pytest.raises(ValueError, match="matplotlib engine draws the themes"):
        DrawStyle.parse("matplotlib/vox")
    with pytest.raises(ValueError, match="engine one of"):
        DrawStyle.parse("d3/default")
    with pytest.raises(ValueError, match="at least two different"):
        parse_styles(["vega/default", "vega/default"])
    pool = parse_styles(None)
    picks = {pick_style(np.random.default_rng(k), pool) for k in range(50)}
    assert picks <= set(pool) and len(picks) > 2


def test_a_style_param_outside_a_style_shift_config_is_refused():
    from chartprobe.dataset_builders.probes.config_sets import pool_for

    with pytest.raises(ValueError, match="only style_shift_<domain>"):
        pool_for("bar", {"styles": ["vega/default", "matplotlib/default"]})
    with pytest.raises(ValueError, match="not a chart domain"):
        pool_for("style_shift_shapes", {})


def _crafted(rows, wrong_style: str, wrong_charts: set[str]):
    """Gold everywhere, except rows of ``wrong_style`` on ``wrong_charts`` (answered "zzz")."""
    suite = ProbesSuite()
    return [suite.score(r, "zzz" if r["style"] == wrong_style and r["chart_id"] in wrong_charts else r["answer"])
            for r in rows]


def test_style_metrics_on_crafted_predictions_match_a_hand_computation(shift_rows):
    rows = shift_rows["style_shift_bar"]
    charts = sorted({r["chart_id"] for r in rows})
    wrong = set(charts[:2])
    records = _crafted(rows, "vega/latimes", wrong)
    summary = ProbesSuite().summarize(records)["style_shift"]
    per_chart = defaultdict(int)
    for r in rows:
        if r["style"] == "vega/latimes":
            per_chart[r["chart_id"]] += 1
    n_latimes = sum(per_chart.values())
    lost = sum(per_chart[c] for c in wrong)
    # by hand: every style right except latimes on two charts
    assert summary["reference"] == "matplotlib/default" and summary["worst_style"] == "vega/latimes"
    assert summary["per_style"]["matplotlib/default"] == 1.0
    assert summary["per_style"]["vega/latimes"] == pytest.approx(1 - lost / n_latimes)
    assert summary["worst_style_gap"] == pytest.approx(lost / n_latimes)
    assert summary["consistency"] == pytest.approx(1 - lost / n_latimes)
    assert summary["robust_accuracy"] == summary["consistency"]
    # the interval by hand: every draw of len(charts) charts with replacement, equally likely
    gaps = []
    for draw in itertools.product(charts, repeat=len(charts)):
        total = sum(per_chart[c] for c in draw)
        gaps.append(sum(per_chart[c] for c in draw if c in wrong) / total)
    gaps = np.sort(gaps)
    cdf = np.arange(1, len(gaps) + 1) / len(gaps)
    low_exact, high_exact = gaps[np.searchsorted(cdf, 0.025)], gaps[np.searchsorted(cdf, 0.975)]
    # 1,000 resamples estimate the exact quantiles; on 4 charts the support is a handful of values
    assert summary["gap_low"] == pytest.approx(low_exact, abs=0.1)
    assert summary["gap_high"] == pytest.approx(high_exact, abs=0.1)


def test_all_right_is_fully_consistent_and_gapless(shift_rows):
    records = _crafted(shift_rows["style_shift_pie"], "vega/latimes", set())
    s = ProbesSuite().summarize(records)["style_shift"]
    assert s["worst_style_gap"] == 0.0 and s["consistency"] == 1.0 and s["gap_low"] == s["gap_high"] == 0.0


def test_lm_eval_aggregations_agree_with_the_suite(shift_rows):
    import importlib.util
    from pathlib import Path

    from chartprobe.eval_tasks.harness.runner import tasks_path

    spec = importlib.util.spec_from_file_location("probes_utils_t", Path(tasks_path()) / "probes_utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    rows = shift_rows["style_shift_bar"]
    wrong = {min(r["chart_id"] for r in rows)}
    docs = [(r, "zzz" if r["style"] == "vega/default" and r["chart_id"] in wrong else r["answer"]) for r in rows]
    out = [utils.process_style(d, [p]) for d, p in docs]
    summary = ProbesSuite().summarize(_crafted(rows, "vega/default", wrong))["style_shift"]
    assert utils.style_gap([o["style_gap"] for o in out]) == pytest.approx(summary["worst_style_gap"])
    assert utils.style_consistency([o["style_consistency"] for o in out]) == pytest.approx(summary["consistency"])


def test_report_section_lists_every_style_and_the_gap():
    records = [{"style": s, "chart_id": f"c{c}", "template_id": "T", "accuracy": float(not (s == "vega/vox" and c))}
               for s in ("matplotlib/default", "vega/vox") for c in range(4)]
    summary = {"style_shift": style_shift_summary(records)}
    lines = "\n".join(style_shift_section({"m": {"probes": {"summary": summary}}}))
    assert "## Style shift" in lines and "vega/vox" in lines and "| 0.750 [" in lines
    assert style_shift_section({"m": {"probes": {"summary": {}}}}) == []
