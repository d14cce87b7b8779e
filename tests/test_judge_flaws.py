"""ChartJudgeBench flaws: registry, optional spec fields, and every emitted CPA pair re-verified."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest
from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.png_pad import strip_pad
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec, SpecError
from chartprobe.dataset_builders.judge.cpa import build_pair, cells, is_clean
from chartprobe.dataset_builders.judge.flaws import FLAWS
from chartprobe.dataset_builders.judge.flaws._base import (
    DIMENSIONS,
    Injection,
    collateral,
    criteria_of,
)
from chartprobe.dataset_builders.release.labels import as_text
from datasets import load_dataset

CRITERIA = sorted(DIMENSIONS)
CPA_DRAWN = {"style.font_size", "style.mark_scale", "style.alpha"}
"""What each chart's own benign draw may change (``judge/benign.py``, profile ``CPA``); the figure
scale and resolution are drawn once per pair."""


@pytest.fixture(scope="module")
def cpa_rows(release_root):
    ds = as_text(load_dataset(str(release_root / "chartprobe-judge"), "cpa", split="test"))
    return ds.cast_column("image_better", ds.features["image_better"].__class__(decode=False)) \
             .cast_column("image_worse", ds.features["image_worse"].__class__(decode=False)).to_list()


def test_the_seven_criteria_are_registered_with_strategies():
    assert FLAWS.names() == CRITERIA
    for name in CRITERIA:
        flaw = FLAWS.get(name)()
        assert flaw.dimension in {"visual_effects", "layout_structure", "data_fidelity"}
        assert flaw.strategies and all(s.description for s in flaw.strategies)
        assert all(k in CHARTS for _, k in cells(name)), name
    assert sum(len(FLAWS.get(n).strategies) for n in CRITERIA) >= 14


@pytest.mark.parametrize("criterion", CRITERIA)
def test_every_emitted_pair_passes_verify_and_differs_in_exactly_one_criterion(cpa_rows, criterion):
    rows = [r for r in cpa_rows if r["criterion"] == criterion]
    assert rows, f"no {criterion} pair in the small release"
    flaw = FLAWS.get(criterion)()
    for row in rows:
        better, worse = ChartSpec.from_json(row["spec_better"]), ChartSpec.from_json(row["spec_worse"])
        rb, rw = render(better), render(worse)
        # The stored images are exactly the renders of the stored specs.
        assert rb.png == strip_pad(row["image_better"]["bytes"]) and rw.png == strip_pad(row["image_worse"]["bytes"])
        assert better.kind == worse.kind == row["chart_kind"]
        stored = json.loads(row["evidence"])
        # The flaw as injected touched this criterion only; the charts as drawn differ beside it
        # only in their own benign draws (font size, figure scale, resolution).
        injected = set(stored["changed_fields"])
        assert criteria_of(injected) == {criterion}
        strategy = flaw.strategy(row["strategy"])
        assert strategy.injected_fields(better, worse) - injected <= CPA_DRAWN, row["pair_id"]
        assert is_clean(rb), row["pair_id"]
        assert not collateral(rb, rw) - {criterion}, row["pair_id"]
        found = strategy.verify(rb, rw, better, worse)
        assert found is not None, row["pair_id"]
        assert {k: stored[k] for k in found} == found
        assert better.style.dpi == worse.style.dpi == stored["benign"]["dpi"]
        assert (better.style.width, better.style.height) == (worse.style.width, worse.style.height) \
            or criterion == "aspect_ratio"
        assert row["dimension"] == DIMENSIONS[criterion]


def test_each_chart_of_a_pair_carries_its_own_benign_draw(cpa_rows):
    """Two charts one render apart in the criterion only moved pixel statistics one fixed way;
    each chart now has its own font size, line weight and shade, on a figure scale and resolution
    drawn per pair (``judge/cpa.py``)."""
    drawn = [json.loads(r["evidence"])["benign"] for r in cpa_rows]
    assert sum(d["better"] != d["worse"] for d in drawn) > len(drawn) / 2
    assert len({d["dpi"] for d in drawn}) > 1 and len({d["figure_scale"] for d in drawn}) > 1
    assert len({d["worse"]["font_delta"] for d in drawn}) > 1 and len({d["better"]["mark_scale"] for d in drawn}) > 1


def test_verify_rejects_an_unflawed_pair_and_a_two_criteria_pair():
    pair = build_pair(0, "unit", "axis_scaling", 0)
    flaw = FLAWS.get("axis_scaling")()
    better, worse = pair.injected.better, pair.injected.worse
    rb = render(better)
    assert flaw.verify(rb, render(worse), pair.injected) is not None
    same = Injection("axis_scaling", pair.strategy, better, better)
    assert flaw.verify(rb, rb, same) is None
    squashed = worse.replace(style=dataclasses.replace(worse.style, height=3.0))
    two = Injection("axis_scaling", pair.strategy, better, squashed)
    assert flaw.verify(rb, render(squashed), two) is None
    edited = list(worse.data.series)
    edited[0] = dataclasses.replace(edited[0], values=tuple(v + 1 for v in edited[0].values))
    data_changed = worse.replace(data=dataclasses.replace(worse.data, series=tuple(edited)))
    assert flaw.verify(rb, render(data_changed),
                       Injection("axis_scaling", pair.strategy, better, data_changed)) is None


def test_a_phantom_series_is_the_one_difference_between_the_charts():
    """The better chart draws the worse one's visible series alone, legend included: the same
    marks on both sides, and a legend entry with no data on the worse one (grouped bars keep
    their slots, so there the better chart keeps the series)."""
    from chartprobe.dataset_builders.core.charts._base import SampleConfig

    strategy = FLAWS.get("data_encoding")().strategy("phantom_series")
    for kind, kept in (("line", False), ("stacked_bar", False), ("grouped_bar", True)):
        spec = sample_spec(kind, rng_for(4, "phantom", kind), SampleConfig(n_series=(3, 3), legend_form="box"))
        better, worse = strategy.pair(spec, rng_for(4, "pair", kind))
        (target,) = [i for i, s in enumerate(worse.data.series) if s.missing]
        assert len(better.data.series) == 3 if kept else 2
        assert strategy.injected_fields(better, worse) == {"data.series.missing"}
        rb, rw = render(better), render(worse)
        assert strategy.verify(rb, rw, better, worse) is not None
        assert f"legend/entry/{target}" in rw.boxes
        if not kept:
            assert [k for k in rb.boxes if k.startswith("legend/entry/")] == [f"legend/entry/{i}" for i in range(2)]
            assert len(_marks(rb)) == len(_marks(rw))
            retitled = better.replace(style=dataclasses.replace(better.style, title="another"))
            assert strategy.injected_fields(retitled, worse) == {"data.series.missing", "style.title"}


def test_a_clipped_axis_is_paired_with_a_tight_one():
    """The better chart's value axis ends 2-6% of the range above its data, so its marks reach as
    near the top as the clipped chart's; the clip alone tells them apart, and a tight top that
    cut a marker of the better chart would be refused."""
    pair = build_pair(0, "tight", "axis_scaling", 1)
    better, worse = pair.injected.better, pair.injected.worse
    axis = CHARTS.get(better.kind).value_axis
    (b0, b1), (w0, w1) = getattr(better.axes, f"{axis}_limits"), getattr(worse.axes, f"{axis}_limits")
    top = float(max(max(s.values) for s in better.data.series)) if better.kind not in ("stacked_bar", "area") \
        else float(max(map(sum, zip(*(s.values for s in better.data.series)))))
    assert b0 == w0 and w1 < top < b1 <= top + 0.06 * (top - b0) + 0.01
    assert pair.evidence["changed_fields"] == [f"axes.{axis}_limits"]


def _marks(r):
    return [k for k in r.boxes if k.startswith("mark/")]


def test_missing_series_keeps_its_legend_entry_and_loses_every_mark():
    from chartprobe.dataset_builders.core.charts._base import SampleConfig

    spec = sample_spec("line", rng_for(3, "phantom"), SampleConfig(n_series=(3, 3), legend_form="box"))
    series = tuple(dataclasses.replace(s, missing=i == 1) for i, s in enumerate(spec.data.series))
    flawed = spec.replace(data=dataclasses.replace(spec.data, series=series)).validate()
    boxes = render(flawed).boxes
    assert "legend/entry/1" in boxes and not any(k.startswith(("mark/1/", "line/1")) for k in boxes)
    assert all(f"mark/{s}/0" in boxes for s in (0, 2))
    assert ChartSpec.from_json(flawed.to_json()) == flawed


def test_optional_fields_round_trip_and_are_validated():
    spec = sample_spec("grouped_bar", rng_for(1, "fields"))
    n = len(spec.encodings)
    changed = spec.replace(
        legend=dataclasses.replace(spec.legend, opaque=True, colors=("#000000",) * n),
        axes=dataclasses.replace(spec.axes, label_pad=-6.0, x_tick_rotation=0.0),
        style=dataclasses.replace(spec.style, mark_scale=2.0, alpha=0.5, title_y=0.9, value_label_anchor="center"))
    assert ChartSpec.from_json(changed.validate().to_json()) == changed
    assert render(changed).png != render(spec).png
    with pytest.raises(SpecError, match="legend.colors"):
        spec.replace(legend=dataclasses.replace(spec.legend, colors=("#000000",) * (n + 1))).validate()
    with pytest.raises(SpecError, match="value_label_anchor"):
        spec.replace(style=dataclasses.replace(spec.style, value_label_anchor="inside")).validate()


def test_pairs_are_deterministic(cpa_rows):
    row = cpa_rows[0]
    criterion, index = row["criterion"], int(row["pair_id"].rsplit("-", 1)[1])
    again = build_pair(0, row["pair_id"], criterion, index)
    assert again.worse.to_json() == row["spec_worse"]
    assert io.BytesIO(again.rendered_worse.png).getvalue() == strip_pad(row["image_worse"]["bytes"])
