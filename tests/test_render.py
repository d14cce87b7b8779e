"""render(): box geometry, legend handling, themes, registry loudness, generic validation."""

from __future__ import annotations

import dataclasses
import importlib
import math
import sys

import pytest
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.fields import THEMES
from chartprobe.dataset_builders.core.registry import Registry, RegistryError
from chartprobe.dataset_builders.core.render import Rendered, render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import (
    AxesSpec,
    ChartSpec,
    DataTable,
    Encoding,
    LegendSpec,
    Series,
    SpecError,
    StyleSpec,
)

COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")


def _bar(values, kind="bar", **kw) -> ChartSpec:
    cats = tuple(f"C{i}" for i in range(len(values)))
    return ChartSpec(kind, DataTable(cats, (Series("Revenue", tuple(values), "USD bn"),)),
                     (Encoding(COLORS[0]),), **kw)


def _grouped(legend: LegendSpec, n_series: int = 3) -> ChartSpec:
    series = tuple(Series(name, (10.0 + i, 20.0, 15.0 + 2 * i), "USD bn")
                   for i, name in enumerate(("Revenue", "Profit", "Costs", "Taxes")[:n_series]))
    return ChartSpec("grouped_bar", DataTable(("USA", "China", "India"), series),
                     tuple(Encoding(c) for c in COLORS[:n_series]), legend=legend)


def _inside(inner, outer, tol=1e-6) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def test_render_returns_rendered_and_skips_empty_text():
    r = render(_bar([3, 5, 2]))
    assert isinstance(r, Rendered) and (r.width, r.height) == (640, 480)
    assert "axes" in r.boxes
    assert not {"axis/x/label", "axis/y/label", "title"} & set(r.boxes)  # empty texts get no box
    labelled = render(_bar([3, 5, 2], axes=AxesSpec(x_label="Country", y_label="USD"),
                           style=StyleSpec(title="Revenue"))).boxes
    assert {"axis/x/label", "axis/y/label", "title"} <= set(labelled)


@pytest.mark.parametrize("values", [[10, 20, 40, 5], [3, 97, 50, 12, 66, 1.5]])
def test_bar_heights_proportional(values):
    boxes = render(_bar(values)).boxes
    heights = [boxes[f"mark/0/{c}"][3] - boxes[f"mark/0/{c}"][1] for c in range(len(values))]
    for h, v in zip(heights, values):
        assert abs(h / max(heights) - v / max(values)) <= 0.02


def test_hbar_widths_proportional_and_first_category_on_top():
    values = [8, 2, 30, 17]
    boxes = render(_bar(values, kind="hbar")).boxes
    widths = [boxes[f"mark/0/{c}"][2] - boxes[f"mark/0/{c}"][0] for c in range(len(values))]
    for w, v in zip(widths, values):
        assert abs(w / max(widths) - v / max(values)) <= 0.02
    tops = [boxes[f"mark/0/{c}"][1] for c in range(len(values))]
    assert tops == sorted(tops)


def test_pie_wedges_clockwise_from_noon():
    spec = _bar([1, 1, 1, 1], kind="pie").replace(encodings=tuple(Encoding(c) for c in COLORS))
    boxes = render(spec).boxes
    ax = boxes["axes"]
    cx, cy = (ax[0] + ax[2]) / 2, (ax[1] + ax[3]) / 2
    first, second, fourth = boxes["mark/0/0"], boxes["mark/0/1"], boxes["mark/0/3"]
    assert first[0] >= cx - 0.01 and first[3] <= cy + 0.01  # wedge 0: top right quarter
    assert second[0] >= cx - 0.01 and second[1] >= cy - 0.01  # wedge 1: bottom right
    assert fourth[2] <= cx + 0.01 and fourth[3] <= cy + 0.01  # wedge 3: top left


@pytest.mark.parametrize("position", ["upper right", "lower left", "center", "outside right",
                                      "outside bottom"])
@pytest.mark.parametrize("columns", [1, 2])
def test_legend_entries_inside_legend_box(position, columns):
    spec = _grouped(LegendSpec(position=position, columns=columns, title="Metric"), n_series=4)
    boxes = render(spec).boxes
    for i in range(4):
        for part in ("entry", "handle", "text"):
            assert _inside(boxes[f"legend/{part}/{i}"], boxes["legend/box"]), (part, i)
        assert _inside(boxes[f"legend/handle/{i}"], boxes[f"legend/entry/{i}"])
    assert _inside(boxes["legend/title"], boxes["legend/box"])
    if position.startswith("outside"):
        assert not _inside(boxes["legend/box"], boxes["axes"])


@pytest.mark.parametrize("theme", THEMES)
def test_legend_box_measured_in_every_theme(theme):
    spec = _grouped(LegendSpec()).replace(style=StyleSpec(theme=theme))
    boxes = render(spec).boxes
    assert all(_inside(boxes[f"legend/entry/{i}"], boxes["legend/box"]) for i in range(3))


def test_legend_order_sets_entry_positions():
    def tops(order):
        boxes = render(_grouped(LegendSpec(order=order))).boxes
        return [boxes[f"legend/entry/{i}"][1] for i in range(3)]

    natural, permuted = tops(None), tops((2, 0, 1))
    assert natural[0] < natural[1] < natural[2]
    assert permuted[2] < permuted[0] < permuted[1]
    assert sorted(natural) == pytest.approx(sorted(permuted), abs=0.005)  # text heights vary


def test_hidden_legend_entry_has_no_box():
    boxes = render(_grouped(LegendSpec(visible=(True, False, True)))).boxes
    assert "legend/entry/1" not in boxes and "legend/text/1" not in boxes
    assert {"legend/entry/0", "legend/entry/2", "legend/box"} <= set(boxes)
    none_shown = render(_grouped(LegendSpec(visible=(False, False, False)))).boxes
    assert not any(k.startswith("legend/") for k in none_shown)


def test_legend_font_scale_grows_text():
    small = render(_grouped(LegendSpec(font_scale=0.8))).boxes["legend/text/0"]
    large = render(_grouped(LegendSpec(font_scale=2.0))).boxes["legend/text/0"]
    assert (large[3] - large[1]) > 2 * (small[3] - small[1])


def test_direct_labels_sit_right_of_last_point():
    spec = dataclasses.replace(_grouped(LegendSpec(form="direct")), kind="line")
    spec = spec.replace(encodings=tuple(dataclasses.replace(e, marker="o") for e in spec.encodings))
    boxes = render(spec).boxes
    for i in range(3):
        assert boxes[f"legend/direct/{i}"][0] >= boxes[f"mark/{i}/2"][0]


def test_tick_boxes_only_for_drawn_ticks():
    spec = _bar([10, 20, 30], axes=AxesSpec(y_limits=(0, 40), tick_format="{x:.0f}%"))
    boxes = render(spec).boxes
    y_ticks = sorted(k for k in boxes if k.startswith("tick/y/"))
    assert len(y_ticks) == 9  # 0, 5, ..., 40 and none beyond the limits
    assert sorted(k for k in boxes if k.startswith("tick/x/")) == ["tick/x/0", "tick/x/1", "tick/x/2"]


def test_log_scale_renders_and_rejects_nonpositive():
    spec = _bar([1, 10, 1000], axes=AxesSpec(y_scale="log"))
    boxes = render(spec).boxes
    assert boxes["mark/0/2"][1] < boxes["mark/0/1"][1] < boxes["mark/0/0"][1]
    with pytest.raises(SpecError) as err:
        _bar([1, 0, 3], axes=AxesSpec(y_scale="log")).validate()
    assert err.value.field == "spec.data.series[0].values[1]"
    with pytest.raises(SpecError) as err:
        _bar([1, 2, 3], axes=AxesSpec(x_scale="log")).validate()
    assert err.value.field == "spec.axes.x_scale"


def test_scatter_log_x():
    spec = sample_spec("scatter", rng_for(0, "log"))
    boxes = render(spec.replace(axes=dataclasses.replace(spec.axes, x_scale="log"))).boxes
    xs = spec.data.x_values
    lo, hi = xs.index(min(xs)), xs.index(max(xs))
    assert boxes[f"mark/0/{lo}"][0] < boxes[f"mark/0/{hi}"][0]


@pytest.mark.parametrize("theme", THEMES)
def test_themes_render_distinct_images(theme):
    spec = _bar([3, 4, 5], style=StyleSpec(theme=theme, title="T"))
    png = render(spec).png
    if theme != "default":
        assert png != render(_bar([3, 4, 5], style=StyleSpec(title="T"))).png


def test_style_size_and_dpi():
    r = render(_bar([1, 2], style=StyleSpec(width=4.0, height=3.0, dpi=50)))
    assert (r.width, r.height) == (200, 150)


def test_value_labels_use_tick_format():
    spec = _bar([12.5, 40], axes=AxesSpec(tick_format="{x:.1f}%"), style=StyleSpec(value_labels=True))
    boxes = render(spec).boxes
    assert boxes["value_label/0/0"][3] <= boxes["mark/0/0"][1] + 0.01  # sits on top of the bar


def test_sample_spec_validates_and_uses_cfg():
    spec = sample_spec("grouped_bar", rng_for(5, "x"), SampleConfig(legend_form="direct", theme="dark"))
    assert spec.legend.form == "direct" and spec.style.theme == "dark"
    with pytest.raises(RegistryError):
        sample_spec("no_such_kind", rng_for(0))


# -- generic validation through spec.validate() ---------------------------------------------

def test_pie_negative_value_names_the_field():
    spec = _bar([3, -1, 2], kind="pie").replace(encodings=tuple(Encoding(c) for c in COLORS[:3]))
    with pytest.raises(SpecError) as err:
        spec.validate()
    assert err.value.field == "spec.data.series[0].values[1]"


def test_series_length_mismatch():
    spec = _bar([1, 2, 3])
    bad = spec.replace(data=DataTable(spec.data.categories, (Series("Revenue", (1.0, 2.0)),)))
    with pytest.raises(SpecError) as err:
        bad.validate()
    assert err.value.field == "spec.data.series[0].values"


def test_nan_value():
    with pytest.raises(SpecError) as err:
        _bar([1, math.nan, 3]).validate()
    assert err.value.field == "spec.data.series[0].values[1]"


def test_unknown_kind():
    with pytest.raises(SpecError) as err:
        _bar([1, 2]).replace(kind="sankey").validate()
    assert err.value.field == "spec.kind"
    with pytest.raises(SpecError):
        render(_bar([1, 2]).replace(kind="sankey"))


# -- registry loudness ----------------------------------------------------------------------

def _fake_package(tmp_path, monkeypatch, name: str, modules: dict[str, str]) -> Registry:
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        f"from chartprobe.dataset_builders.core.registry import Registry\nREG = Registry('fake', {name!r})\n")
    for mod, body in modules.items():
        (pkg / f"{mod}.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.setattr(sys, "modules", dict(sys.modules))  # forget the fake package afterwards
    return importlib.import_module(name).REG


GOOD = "from . import REG\n@REG.register('good')\nclass Good:\n    pass\n"


def test_registry_loads_good_plugins(tmp_path, monkeypatch):
    reg = _fake_package(tmp_path, monkeypatch, "fake_ok_pkg", {"good": GOOD})
    assert reg.names() == ["good"]


def test_registry_module_registering_nothing_raises(tmp_path, monkeypatch):
    reg = _fake_package(tmp_path, monkeypatch, "fake_empty_pkg", {"good": GOOD, "empty": "X = 1\n"})
    with pytest.raises(RegistryError, match="registers nothing"):
        reg.names()


def test_registry_module_failing_import_raises(tmp_path, monkeypatch):
    reg = _fake_package(tmp_path, monkeypatch, "fake_broken_pkg",
                        {"good": GOOD, "broken": "import not_a_real_module_xyz\n"})
    with pytest.raises(RegistryError, match="failed to import"):
        reg.names()
