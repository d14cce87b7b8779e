"""Binding probes leave no order prior: a peak where x has no order, a trend where it does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.legend.groups import bind_template, offering_draw
from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES
from chartprobe.dataset_builders.legend.templates._base import State

TRAJECTORY_KINDS = ("line", "area", "grouped_bar")


def _states(kind: str, n: int = 40):
    space = LegendSpace()
    for i in range(n):
        unit = sample_unit(space, rng_for(11, "bind", kind, i), kind=kind, mode="single")
        yield State(unit.chart, unit.legend, unit.channels, unit.add_labels)


def test_each_chart_kind_gets_the_binding_probe_of_its_axis():
    for kind in TRAJECTORY_KINDS:
        assert {bind_template(st, "single") for st in _states(kind, 5)} == {"t2_bind_trend"}
    for kind in ("radar", "scatter"):
        assert {bind_template(st, "single") for st in _states(kind, 5)} == {"t2_bind_peak"}


def test_trend_answers_are_balanced_and_follow_the_two_ends():
    """Which way a trajectory runs is a coin: 'yes' and 'no' each near one half (so an agent
    assuming every series rises scores chance), and each answer is the sign of last - first."""
    tpl = LEGEND_TEMPLATES.get("t2_bind_trend")()
    answers = Counter()
    for kind in TRAJECTORY_KINDS:
        for st in _states(kind):
            for params in tpl.candidates(st, np.random.default_rng(0)):
                vals = st.series_values(st.item_of(params["labels"][0]))
                ans = tpl.answer(st, params)
                assert ans == ("yes" if vals[-1] > vals[0] else "no")
                assert abs(vals[-1] - vals[0]) >= st.margin()
                answers[ans] += 1
    share = answers["yes"] / sum(answers.values())
    assert sum(answers.values()) > 100 and 0.4 <= share <= 0.6, answers


def test_peak_probe_is_not_asked_where_trajectories_put_the_peak_at_an_end():
    tpl = LEGEND_TEMPLATES.get("t2_bind_peak")()
    assert not set(tpl.kinds) & set(TRAJECTORY_KINDS)


def test_crossing_counts_are_balanced():
    """Trajectories rarely cross ("0" was ~60% of crossing answers): a chart offers the pairs of
    one crossing count (2 first, none above 2), and a chart whose lines never cross is asked
    half the time, so no count exceeds 1.5x uniform."""
    tpl = LEGEND_TEMPLATES.get("t3_crossing")()
    answers = Counter()
    for i, st in enumerate(_states("line", 300)):
        rng = np.random.default_rng(i)
        cands = tpl.candidates(st, rng)
        if cands:
            assert len({tpl.answer(st, p) for p in cands}) == 1
            answers[tpl.answer(st, cands[int(rng.integers(len(cands)))])] += 1
    n = sum(answers.values())
    assert n > 150 and max(answers.values()) / n <= 1.5 / len(answers), answers


def test_crossing_asks_every_count_up_to_its_answer_set():
    """0, 1 and 2 are all asked (2 first where a chart has it); a pair crossing 3+ times never is
    (``MAX_ASKED``: a 0-3 set would fail the majority-share check by construction)."""
    tpl = LEGEND_TEMPLATES.get("t3_crossing")()
    asked = Counter()
    for i, st in enumerate(_states("line", 300)):
        for params in tpl.candidates(st, np.random.default_rng(i)):
            asked[tpl.answer(st, params)] += 1
    assert set(asked) == set(tpl.answer_set) == {"0", "1", "2"}, asked


def test_small_release_asks_crossing_counts_0_1_and_2(release_root: Path):
    """Issue 45: a pair crossing twice comes on ~21% of line charts, and the small preset's four
    line charts (seed 0) offered none until a snapshot drew its data again for the count its
    stratum wants (``groups.offering_draw``)."""
    from datasets import load_dataset

    folder = str(release_root / "chartprobe-legend")
    answers = {r["answer"] for split in ("train", "validation", "test")
               for r in load_dataset(folder, "snapshot", split=split).remove_columns("image")
               if r["template"] == "t3_crossing"}
    assert {"0", "1", "2"} <= answers, answers


def test_a_snapshot_draws_again_until_the_chart_offers_its_strata_count():
    """``offering_draw``: one draw in five offers a pair crossing twice, 16 draws nearly always
    do; a chart the template does not apply to (grouped bars) is the first draw as it came."""
    tpl, space = LEGEND_TEMPLATES.get("t3_crossing")(), LegendSpace()
    offered = Counter()
    for i in range(150):
        r = rng_for(4, "offer", i)
        unit = offering_draw(lambda r=r: sample_unit(space, r, kind="line", mode="single"), i)
        offered[tpl.offers(State(unit.chart, unit.legend, unit.channels, unit.add_labels), tpl.answer_set[i % 3])] += 1
    assert offered[True] >= 0.95 * 150, offered
    first = sample_unit(space, rng_for(4, "bar"), kind="grouped_bar", mode="single")
    again = offering_draw(lambda: sample_unit(space, rng_for(4, "bar"), kind="grouped_bar", mode="single"), 2)
    assert again == first


def test_stratified_crossing_counts_stay_under_the_majority_cap():
    """The snapshot asks the count its stratum wants where a chart has it (else the chart's
    rarest): every count 0-2 is asked and none exceeds 1.5x uniform."""
    tpl = LEGEND_TEMPLATES.get("t3_crossing")()
    answers = Counter()
    for i, st in enumerate(_states("line", 300)):
        cands = tpl.candidates_for(st, np.random.default_rng(i), tpl.answer_set[i % 3])
        if cands:
            answers[tpl.answer(st, cands[0])] += 1
    n = sum(answers.values())
    assert set(answers) == {"0", "1", "2"} and max(answers.values()) / n <= 1.5 / 3, answers
