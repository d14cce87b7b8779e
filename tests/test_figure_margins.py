"""Figure layout without a layout engine (core/layout.py): every text inside the canvas, refits
and the constrained-layout fallback only where the fitted margins miss."""

from __future__ import annotations

import dataclasses

import pytest
from chartprobe.dataset_builders.core import layout
from chartprobe.dataset_builders.core import render as core
from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import (
    AxesSpec,
    ChartSpec,
    DataTable,
    Encoding,
    LegendSpec,
    Series,
    StyleSpec,
)
from chartprobe.dataset_builders.core.themes import THEME_STYLES

_TEXT = ("tick/", "axis/", "title", "legend/", "value_label/")


class _Draws:
    """Counts the draws of one render and whether constrained layout laid any of them out."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fixed = self.engine = 0
        build = core.build_scene

        def counted(spec, margins=None):
            if margins is None:
                self.engine += 1
            else:
                self.fixed += 1
            return build(spec, margins)

        monkeypatch.setattr(core, "build_scene", counted)
        refit = layout.Margins.grown
        self.refits = 0

        def grown(margins, over, font_pt):
            self.refits += bool(over)
            return refit(margins, over, font_pt)

        monkeypatch.setattr(layout.Margins, "grown", grown)


def _text_inside(boxes: dict) -> list[str]:
    """Ids of text boxes touching the canvas edge (normalised boxes are clipped to [0, 1]).

    A scatter legend's marker handle measures as an empty box here (legend/measure.py measures
    handles as drawn), so empty boxes are skipped."""
    return [k for k, (x0, y0, x1, y1) in boxes.items()
            if k.startswith(_TEXT) and x1 > x0 and (min(x0, y0) <= 0.0 or max(x1, y1) >= 1.0)]


def _hbar(labels: tuple[str, ...], title: str = "") -> ChartSpec:
    return ChartSpec("hbar", DataTable(labels, (Series("Revenue", tuple(float(10 + i) for i in range(len(labels))), "USD"),)),
                     (Encoding("#1f77b4"),), axes=AxesSpec(x_label="USD bn", y_label="Region"),
                     style=StyleSpec(title=title))


@pytest.mark.parametrize("theme", sorted(THEME_STYLES))
@pytest.mark.parametrize("kind", CHARTS.names())
def test_sampled_charts_fit_with_fitted_margins(kind, theme, monkeypatch):
    """Every kind in every theme: all text inside the canvas, no refit, and constrained layout
    only for the kinds that ask for it (``margins = None``: pies and donuts)."""
    draws = _Draws(monkeypatch)
    for i in range(2):
        spec = sample_spec(kind, rng_for(7, kind, theme, i), SampleConfig(theme=theme, value_labels=bool(i)))
        assert _text_inside(render(spec).boxes) == []
    fitted = CHARTS.get(kind).margins is not None
    assert (draws.fixed, draws.engine, draws.refits) == ((2, 0, 0) if fitted else (0, 2, 0))


@pytest.mark.parametrize("position", ["outside right", "outside bottom"])
def test_outside_legend_gets_its_own_margin(position, monkeypatch):
    draws = _Draws(monkeypatch)
    series = tuple(Series(n, (10.0 + i, 20.0, 15.0), "USD") for i, n in enumerate(("Revenue", "Profit", "Costs")))
    spec = ChartSpec("grouped_bar", DataTable(("USA", "China", "India"), series),
                     tuple(Encoding(c) for c in ("#1f77b4", "#ff7f0e", "#2ca02c")),
                     legend=LegendSpec(position=position), style=StyleSpec(title="Revenue by country"))
    boxes = render(spec).boxes
    legend, axes = boxes["legend/box"], boxes["axes"]
    beside = legend[0] >= axes[2] if position == "outside right" else legend[1] >= axes[3]
    assert beside, (legend, axes)  # next to the axes, never over them
    assert _text_inside(boxes) == [] and draws.engine == 0


def test_a_title_inside_the_axes_leaves_no_blank_band_above_them():
    """As in constrained layout, a title placed inside the axes (a CPA sunken title) takes no room
    above them: the axes reach up to where a title above them would start. Before, its room stayed
    blank, and that band alone told the sunken-title pair apart (judge/cpa.py)."""
    base = _hbar(("North", "South", "East"), title="Revenue by region")
    above, inside, none = (render(base.replace(style=dataclasses.replace(base.style, **kw))).boxes
                           for kw in ({"title_y": 1.02}, {"title_y": 0.9}, {"title": ""}))
    assert inside["axes"][1] < above["axes"][1]  # y0 from the top: the axes start higher
    assert inside["axes"] == pytest.approx(none["axes"], abs=0.01)
    assert above["title"][3] <= above["axes"][1] + 1e-6 < inside["title"][3]


def test_long_labels_grow_the_margin_without_a_layout_engine(monkeypatch):
    draws = _Draws(monkeypatch)
    labels = ("North", "South", "A region with a very long name indeed", "East")
    boxes = render(_hbar(labels)).boxes
    assert _text_inside(boxes) == [] and draws.engine == 0
    # The axes start right of the longest label, whatever the floor margin was.
    assert boxes["axes"][0] > boxes["tick/y/2"][2]


def test_a_missed_estimate_is_refitted(monkeypatch):
    """Fitted margins that ignore the text (the floor alone) overflow; a refit brings it in."""
    draws = _Draws(monkeypatch)
    monkeypatch.setattr(core, "fitted", lambda scene, floor, font_pt, position="": floor)
    boxes = render(_hbar(("Northern territories", "South", "East"))).boxes
    assert draws.refits >= 1 and draws.engine == 0 and _text_inside(boxes) == []


def test_text_wider_than_the_figure_falls_back_to_constrained_layout(monkeypatch):
    draws = _Draws(monkeypatch)
    spec = _hbar(("North", "South"), title="A title far too long " * 6)
    spec = spec.replace(style=dataclasses.replace(spec.style, width=3.0))
    render(spec)
    assert draws.engine == 1


def test_fallback_is_deterministic():
    spec = _hbar(("North", "South"), title="A title far too long " * 6)
    spec = spec.replace(style=dataclasses.replace(spec.style, width=3.0))
    assert render(spec).png == render(spec).png


@pytest.mark.parametrize("kind", ["scatter", "line", "grouped_bar", "pie", "radar"])
def test_legend_measurement_does_not_change_the_drawing(kind):
    """LegendBench measures legend handles as drawn; the layout, and so the pixels, stay render()'s."""
    from chartprobe.dataset_builders.legend.measure import render_chart

    for i in range(3):
        spec = sample_spec(kind, rng_for(11, kind, i), SampleConfig(value_labels=bool(i % 2)))
        assert render_chart(spec).png == render(spec).png


def test_margins_grow_only_where_text_overflows():
    m = layout.Margins(left=1.0, right=1.0, bottom=1.0, top=1.0)
    grown = m.grown({"left": 10.0}, font_pt=10.0)
    assert grown.left == pytest.approx(1.0 + (10.0 + layout.PAD_PT) / 10.0)
    assert (grown.right, grown.bottom, grown.top) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="no room"):
        layout.Margins(left=40.0, right=40.0).subplot_params(6.4, 4.8, 10.0)


@pytest.mark.parametrize("theme", sorted(THEME_STYLES))
@pytest.mark.parametrize("kind", CHARTS.names())
def test_measuring_without_pixels_gives_the_drawing_s_boxes(kind, theme):
    """``render(pixels=False)`` (what the oracle re-derives box answers from) lays out and measures
    exactly as the painted draw: the same boxes, ticks, slanted labels and size, and no PNG."""
    for i in range(2):
        spec = sample_spec(kind, rng_for(11, kind, theme, i), SampleConfig(theme=theme, value_labels=bool(i)))
        painted, measured = render(spec), render(spec, pixels=False)
        assert measured.png == b"" and painted.png
        assert (measured.boxes, measured.ticks, measured.slanted, measured.width, measured.height) == \
            (painted.boxes, painted.ticks, painted.slanted, painted.width, painted.height)


@pytest.mark.parametrize("spec", [_hbar(("North", "South"), title="A title far too long " * 6),
                                  _hbar(("Northern territories", "South", "East"))], ids=["fallback", "refit"])
def test_measuring_without_pixels_follows_refits_and_the_fallback(spec, monkeypatch):
    spec = spec.replace(style=dataclasses.replace(spec.style, width=3.0))
    monkeypatch.setattr(core, "fitted", lambda scene, floor, font_pt, position="": floor)
    assert render(spec, pixels=False).boxes == render(spec).boxes
