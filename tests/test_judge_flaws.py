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
from chartprobe.dataset_builders.judge.flaws._base import DIMENSIONS, Injection, changed_fields, criteria_of
from chartprobe.dataset_builders.release.labels import as_text
from datasets import load_dataset

CRITERIA = sorted(DIMENSIONS)


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
        assert criteria_of(changed_fields(better, worse)) == {criterion}
        assert is_clean(rb), row["pair_id"]
        evidence = flaw.verify(rb, rw, Injection(criterion, row["strategy"], better, worse))
        assert evidence is not None, row["pair_id"]
        stored = json.loads(row["evidence"])
        assert {k: v for k, v in stored.items() if k != "attempt"} == evidence
        assert row["dimension"] == DIMENSIONS[criterion]


def test_verify_rejects_an_unflawed_pair_and_a_two_criteria_pair():
    pair = build_pair(0, "unit", "axis_scaling", 0)
    flaw = FLAWS.get("axis_scaling")()
    same = Injection("axis_scaling", pair.strategy, pair.better, pair.better)
    assert flaw.verify(pair.rendered_better, pair.rendered_better, same) is None
    squashed = pair.worse.replace(style=dataclasses.replace(pair.worse.style, height=3.0))
    two = Injection("axis_scaling", pair.strategy, pair.better, squashed)
    assert flaw.verify(pair.rendered_better, render(squashed), two) is None
    edited = list(pair.worse.data.series)
    edited[0] = dataclasses.replace(edited[0], values=tuple(v + 1 for v in edited[0].values))
    data_changed = pair.worse.replace(data=dataclasses.replace(pair.worse.data, series=tuple(edited)))
    assert flaw.verify(pair.rendered_better, render(data_changed),
                       Injection("axis_scaling", pair.strategy, pair.better, data_changed)) is None


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
