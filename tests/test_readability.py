"""Readable labels (issue 45): text boxes over text boxes and the legend over axis text are found
from a render's boxes, and a legend chart with colliding labels is refused (re-laid out or redrawn)."""

from __future__ import annotations

import dataclasses

import pytest
from chartprobe.dataset_builders.core.readability import (
    legend_over_text,
    readability_problems,
    text_overlap_max,
    text_overlaps,
)
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import DataTable, Series
from chartprobe.dataset_builders.legend.measure import render_chart
from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
from chartprobe.dataset_builders.legend.unit import compose
from chartprobe.dataset_builders.legend.visible import Renders, fit_layout, visible_unit


def test_text_pairs_overlapping_more_than_a_fifth_of_the_smaller_box():
    boxes = {"tick/x/0": (0.0, 0.0, 0.1, 0.05), "tick/x/1": (0.09, 0.0, 0.19, 0.05),   # 10% of a tick: readable
             "legend/direct/0": (0.5, 0.5, 0.7, 0.55), "legend/direct/1": (0.55, 0.5, 0.75, 0.55),  # 75%
             "mark/0/0": (0.5, 0.5, 0.7, 0.55), "legend/box": (0.0, 0.0, 1.0, 1.0)}  # neither is text
    (found,) = text_overlaps(boxes)
    assert (found.text, found.mark, found.share) == ("legend/direct/0", "legend/direct/1", 0.75)
    assert text_overlap_max(boxes) == 0.75


def test_the_legend_box_may_not_cover_axis_text_or_printed_values():
    boxes = {"legend/box": (0.6, 0.6, 0.9, 0.9), "value_label/0/1": (0.85, 0.7, 0.95, 0.75),  # half under it
             "tick/y/3": (0.0, 0.6, 0.05, 0.65), "title": (0.6, 0.6, 0.9, 0.65)}  # title: not axis text
    assert [(o.mark, o.share) for o in legend_over_text(boxes)] == [("value_label/0/1", 0.5)]


def _radar_on_one_spoke():
    """A radar whose two series peak on the same spoke: their direct labels are drawn at one spot."""
    space = LegendSpace(chart_kinds=("radar",), legend_forms=("direct",), encoding_modes=("single",),
                        num_series=(2, 2), themes=("default",), add_labels=(False,))
    unit = sample_unit(space, rng_for(3, "radar-collide"), kind="radar", mode="single", form="direct")
    data = unit.chart.data
    peaked = DataTable(categories=data.categories, series=tuple(
        Series(s.name, tuple(90.0 - 10 * s_i if c == 1 else 20.0 + 5 * c for c in range(len(s.values))), s.unit)
        for s_i, s in enumerate(data.series)))
    return space, dataclasses.replace(unit, chart=unit.chart.replace(data=peaked))


def test_a_radar_with_colliding_direct_labels_is_refused_and_redrawn():
    space, unit = _radar_on_one_spoke()
    renders = Renders()
    problems = renders.hidden(unit.chart, unit.legend)
    assert any(o.text.startswith("legend/direct/") and o.mark.startswith("legend/direct/") for o in problems)
    def hidden(u):
        return renders.hidden(u.chart, u.legend)

    assert fit_layout(unit, space.legend_positions, hidden) is None  # direct labels cannot be moved: redraw

    def draw(r):
        return unit if r is None else sample_unit(space, r, kind="radar", mode="single", form="direct")

    fresh = visible_unit(draw, lambda a: None if a == 0 else rng_for(3, "radar-redraw", a),
                         space.legend_positions, hidden)
    assert fresh is not unit
    assert readability_problems(render_chart(compose(fresh.chart, fresh.legend)).boxes) == []


@pytest.mark.parametrize("kind", ["line", "grouped_bar", "radar", "pie", "scatter"])
def test_drawn_units_are_readable(kind):
    """Every kind, drawn through the builder's path, comes out with readable labels."""
    space = LegendSpace(chart_kinds=(kind,))
    renders = Renders()

    def hidden(u):
        return renders.hidden(u.chart, u.legend)

    for i in range(3):
        unit = visible_unit(lambda r: sample_unit(space, r, kind=kind), lambda a, i=i: rng_for(5, kind, i, a),
                            space.legend_positions, hidden)
        shot, _ = renders.shot(unit.chart, unit.legend)
        assert shot.text_overlap_max <= 0.2 and shot.legend_text_cover_max <= 0.1


def test_no_two_pie_wedges_share_a_colour():
    """A pie never has more wedges than named colours (12 wedges over 10 colours drew two reds)."""
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS

    pie = PROBE_DOMAINS["pie"]
    for i in range(40):
        spec = pie.sample(rng_for(11, "pie-colours", i), "complex")
        colours = [e.color for e in spec.encodings]
        assert len(set(colours)) == len(colours) == len(spec.data.categories), i


def test_slanted_tick_labels_are_not_compared_with_each_other():
    """Crowded category labels are slanted: their hulls overlap, the glyphs do not."""
    from chartprobe.dataset_builders.core.render import render
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS

    bar = PROBE_DOMAINS["bar"]
    spec = next(s for i in range(40) if len((s := bar.sample(rng_for(11, "bar-slant", i), "complex")).data.categories) >= 18)
    rendered = render(spec)
    ticks = {k for k in rendered.boxes if k.startswith("tick/x/")}
    assert ticks and ticks <= rendered.slanted
    assert text_overlaps(rendered.boxes)  # hulls of neighbours overlap...
    assert text_overlaps(rendered.boxes, slanted=rendered.slanted) == []  # ...which is not a collision


@pytest.mark.parametrize("dataset, config, column", [
    ("probes", "bar", "spec"), ("probes", "hbar", "spec"), ("probes", "pie", "spec"),
    ("families", "all", "spec"), ("judge", "cpa", "spec_better"), ("judge", "crj_reproduction", "spec_reference"),
    ("judge", "crj_editing", "spec_reference")])
def test_small_releases_draw_readable_charts(release_root, dataset, config, column):
    """Every chart a question is asked about (a CPA pair's better chart, a CRJ reference) is readable."""
    from chartprobe.dataset_builders.core.render import render
    from chartprobe.dataset_builders.core.spec import ChartSpec
    from datasets import load_dataset

    ds = load_dataset(str(release_root / f"chartprobe-{dataset}"), config)
    specs = sorted({s for split in ds.values() for s in split[column]})
    assert specs
    for spec_json in specs[:: max(1, len(specs) // 40)]:
        rendered = render(ChartSpec.from_json(spec_json))
        assert readability_problems(rendered.boxes, rendered.slanted) == [], spec_json[:120]
