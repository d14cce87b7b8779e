"""chartprobe-legend keeps its evidence visible: no text covers more than 25% of a data mark on
any row's image (the stored ``occlusion_max`` says so, and re-rendering ``spec`` agrees), and
every stored legend box has positive width and height (scatter and line handles included)."""

from __future__ import annotations

import json

import pytest
from chartprobe.dataset_builders.core.occlusion import COVER_LIMIT, occlusions
from chartprobe.dataset_builders.legend.visible import occlusion_max

CONFIGS = ("snapshot", "channel_study", "order_study", "visibility_study")


@pytest.fixture(scope="module")
def legend_only(release_root) -> dict[str, list[dict]]:
    """The small legend release of the session's ``release_root`` (built once for every file), rows
    without images."""
    from datasets import load_dataset

    folder = str(release_root / "chartprobe-legend")
    return {c: list(load_dataset(folder, c, split="test").remove_columns("image")) for c in CONFIGS}


@pytest.mark.parametrize("config", CONFIGS)
def test_every_row_shows_the_marks_it_reads(legend_only, config):
    rows = legend_only[config]
    assert rows
    for r in rows:
        assert 0.0 <= r["occlusion_max"] <= COVER_LIMIT, f"{r['id']}: text covers {r['occlusion_max']:.0%} of a mark"


@pytest.mark.parametrize("config", CONFIGS)
def test_rerendered_specs_have_no_occlusion(legend_only, config):
    from chartprobe.dataset_builders.core.render import render
    from chartprobe.dataset_builders.core.spec import ChartSpec

    specs = sorted({r["spec"]: r for r in legend_only[config]}.items())
    for spec_json, r in specs[:: max(1, len(specs) // 8)]:
        boxes = render(ChartSpec.from_json(spec_json)).boxes
        assert occlusions(boxes) == [], r["id"]
        assert occlusion_max(boxes) == pytest.approx(r["occlusion_max"], abs=1e-4), r["id"]


@pytest.mark.parametrize("config", CONFIGS)
def test_every_label_is_readable(legend_only, config):
    """No text over text, no legend over axis text (issue 45): stored, and re-rendering agrees."""
    from chartprobe.dataset_builders.core.readability import (
        LEGEND_LIMIT,
        OVERLAP_LIMIT,
        legend_text_cover_max,
        readability_problems,
        text_overlap_max,
    )
    from chartprobe.dataset_builders.core.render import render
    from chartprobe.dataset_builders.core.spec import ChartSpec

    for r in legend_only[config]:
        assert r["text_overlap_max"] <= OVERLAP_LIMIT and r["legend_text_cover_max"] <= LEGEND_LIMIT, r["id"]
    specs = sorted({r["spec"]: r for r in legend_only[config]}.items())
    for spec_json, r in specs[:: max(1, len(specs) // 8)]:
        drawn = render(ChartSpec.from_json(spec_json))
        boxes = drawn.boxes
        # Slanted tick labels' boxes are hulls that overlap without the glyphs touching (as stored).
        assert readability_problems(boxes, drawn.slanted) == [], r["id"]
        assert text_overlap_max(boxes, drawn.slanted) == pytest.approx(r["text_overlap_max"], abs=1e-4), r["id"]
        assert legend_text_cover_max(boxes) == pytest.approx(r["legend_text_cover_max"], abs=1e-4), r["id"]


@pytest.mark.parametrize("config", CONFIGS)
def test_no_stored_legend_box_is_degenerate(legend_only, config):
    for r in legend_only[config]:
        for key, (x0, y0, x1, y1) in json.loads(r["legend_boxes"]).items():
            assert x1 > x0 and y1 > y0, f"{r['id']}: {key} = {(x0, y0, x1, y1)}"


def test_scatter_handles_are_measured_as_drawn(legend_only):
    """A scatter handle box holds its marker: inside the entry, left of the label, marker-sized."""
    checked = 0
    for r in legend_only["channel_study"]:
        if r["chart_kind"] != "scatter":
            continue
        boxes = json.loads(r["legend_boxes"])
        for key in (k for k in boxes if k.startswith("legend/handle/")):
            item = key.rsplit("/", 1)[1]
            hx0, hy0, hx1, hy1 = boxes[key]
            ex0, ey0, _ex1, ey1 = boxes[f"legend/entry/{item}"]
            tx0 = boxes[f"legend/text/{item}"][0]
            assert ex0 <= hx0 and hx1 <= tx0 and ey0 <= hy0 and hy1 <= ey1, (r["id"], key)
            assert 0.005 < hx1 - hx0 < 0.05, (r["id"], key)
            checked += 1
    assert checked > 0


def test_legend_renders_match_core_render_outside_the_handles():
    """The builder's render is ``core.render.render``: same PNG, same boxes except fixed-up handles."""
    from chartprobe.dataset_builders.core.render import render
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.legend.measure import render_chart
    from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
    from chartprobe.dataset_builders.legend.unit import compose

    for kind in ("scatter", "line", "pie"):
        unit = sample_unit(LegendSpace(), rng_for(5, "visible", kind), kind=kind, form="box")
        spec = compose(unit.chart, unit.legend)
        ours, core = render_chart(spec), render(spec)
        assert ours.png == core.png and set(ours.boxes) == set(core.boxes)
        changed = {k for k in core.boxes if ours.boxes[k] != core.boxes[k]}
        assert all(k.startswith(("legend/handle/", "legend/entry/")) for k in changed), changed
