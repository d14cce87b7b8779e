"""The Vega engine: every chart kind and shape scenes drawn from the same spec, boxes read from the
scenegraph that cover drawn pixels, byte-identical re-renders in any process, house styles, and the
refusals (hatch patterns; Vega-only house styles on matplotlib)."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("vl_convert")

from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.fields import HOUSE_STYLES, THEMES
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.scenes import sample_scene
from chartprobe.dataset_builders.core.spec import SpecError
from chartprobe.dataset_builders.core.specs import load_spec, render_spec
from chartprobe.dataset_builders.core.vega import VEGA_KINDS, engine_versions
from chartprobe.dataset_builders.core.vega.scales import nice_ticks

KINDS = CHARTS.names()
CONFIGS = {"plain": SampleConfig(), "labelled_box": SampleConfig(value_labels=True, legend_form="box",
                                                                 n_series=(2, 3)),
           "direct": SampleConfig(legend_form="direct", n_series=(2, 3))}


def _spec(kind: str, k: int, cfg: SampleConfig | None = None, theme: str | None = None):
    """A sampled spec without hatches (which Vega cannot draw), optionally in ``theme``."""
    spec = sample_spec(kind, rng_for(7, f"vega-{kind}", k), cfg or SampleConfig())
    style = spec.style if theme is None else dataclasses.replace(spec.style, theme=theme)
    return spec.replace(encodings=tuple(dataclasses.replace(e, hatch="") for e in spec.encodings), style=style)


def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _inked(img: np.ndarray, box, background: np.ndarray) -> float:
    """Share of the box's pixels that differ from the background."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = int(box[0] * w), int(box[1] * h), int(np.ceil(box[2] * w)), int(np.ceil(box[3] * h))
    crop = img[y0:y1, x0:x1]
    return float((np.abs(crop - background).sum(-1) > 8).mean()) if crop.size else 0.0


def test_every_chart_kind_has_a_vega_drawer():
    assert VEGA_KINDS.names() == KINDS


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("kind", KINDS)
def test_boxes_cover_drawn_pixels_and_match_the_matplotlib_ids(kind, config):
    cfg = CONFIGS[config]
    spec = _spec(kind, 0, cfg)  # kinds without the asked legend form sample their own (never refused)
    vega, mpl = render_spec(spec, engine="vega"), render(spec)
    assert (vega.width, vega.height) == (mpl.width, mpl.height)
    img = _pixels(vega.png)
    background = img[1, 1]
    data_ids = {k for k in mpl.boxes if k.startswith(("mark/", "line/", "area/", "value_label/", "band/",
                                                      "legend/direct/", "legend/text/", "legend/handle/"))}
    # The same element ids as the matplotlib engine: grounding questions address either drawing.
    assert data_ids <= set(vega.boxes), sorted(data_ids - set(vega.boxes))
    for key, box in vega.boxes.items():
        x0, y0, x1, y1 = box
        assert 0 <= x0 <= x1 <= 1 and 0 <= y0 <= y1 <= 1, (key, box)
        if key.startswith(("mark/", "line/", "area/", "value_label/", "band/", "legend/text/", "tick/", "title")):
            assert x1 > x0 and y1 > y0, (key, box)
            assert _inked(img, box, background) > 0, f"{key}: nothing drawn inside {box}"
    # Ticks: one label box per reported tick value.
    for guide, prefix in (("x", "tick/x/"), ("y", "tick/y/")):
        if guide in vega.ticks:
            assert sum(k.startswith(prefix) for k in vega.boxes) == len(vega.ticks[guide])


@pytest.mark.parametrize("kind", KINDS)
def test_value_labels_sit_on_their_text(kind):
    """A value label's box is the text Vega drew: the crop holds ink, and the label of every mark exists."""
    spec = _spec(kind, 1, SampleConfig(value_labels=True))
    out = render_spec(spec, engine="vega")
    img = _pixels(out.png)
    labels = [k for k in out.boxes if k.startswith("value_label/")]
    marks = [k for k in out.boxes if k.startswith("mark/")]
    assert len(labels) == len(marks)
    assert all(_inked(img, out.boxes[k], img[1, 1]) > 0.02 for k in labels)


@pytest.mark.parametrize("kind", KINDS)
def test_rerender_is_byte_identical(kind):
    specs = [_spec(kind, k) for k in range(2)]
    first = [render_spec(s, engine="vega") for s in specs]
    from chartprobe.dataset_builders.core.vega import engine as eng

    eng._compile.cache_clear()
    again = [render_spec(load_spec(s.to_json()), engine="vega") for s in specs]
    assert [r.png for r in first] == [r.png for r in again]
    assert [r.boxes for r in first] == [r.boxes for r in again]


def test_rerender_in_another_process_is_byte_identical():
    """16 specs over 8 kinds, drawn here and in a fresh interpreter: the same bytes."""
    specs = [_spec(kind, k).to_json() for kind in ("bar", "line", "pie", "heatmap", "radar", "scatter",
                                                   "stacked_bar", "gantt") for k in range(2)]
    here = [_digest(render_spec(load_spec(s), engine="vega").png) for s in specs]
    code = ("import json, sys, hashlib\n"
            "from chartprobe.dataset_builders.core.specs import load_spec, render_spec\n"
            "specs = json.load(sys.stdin)\n"
            "print(json.dumps([hashlib.sha256(render_spec(load_spec(s), engine='vega').png).hexdigest() for s in specs]))\n")
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(specs), capture_output=True, text=True,
                         check=True, timeout=300)
    assert json.loads(out.stdout) == here


def _digest(png: bytes) -> str:
    import hashlib

    return hashlib.sha256(png).hexdigest()


@pytest.mark.parametrize("theme", THEMES + HOUSE_STYLES)
def test_every_house_style_draws(theme):
    spec = _spec("grouped_bar", 2, SampleConfig(legend_form="box", n_series=(2, 3)), theme=theme)
    out = render_spec(spec, engine="vega")
    assert out.boxes["legend/box"] and all(f"mark/{s}/0" in out.boxes for s in range(len(spec.data.series)))


def test_styles_change_pixels_not_boxes_ids():
    pngs = {t: render_spec(_spec("line", 3, theme=t), engine="vega") for t in ("default", "fivethirtyeight", "vox")}
    assert len({r.png for r in pngs.values()}) == 3
    assert len({frozenset(k for k in r.boxes if k.startswith("mark/")) for r in pngs.values()}) == 1


def test_matplotlib_refuses_a_vega_only_house_style_and_draws_its_own():
    with pytest.raises(SpecError, match="spec.style.theme.*engine='vega'"):
        render(_spec("bar", 0, theme="vox"))
    assert render(_spec("bar", 0, theme="fivethirtyeight")).png


def test_hatches_are_refused_with_the_field_named():
    spec = _spec("bar", 0)
    hatched = spec.replace(encodings=(dataclasses.replace(spec.encodings[0], hatch="/"),))
    with pytest.raises(SpecError, match=r"spec.encodings\[0\].hatch: .*pattern"):
        render_spec(hatched, engine="vega")


def test_unknown_engine_is_refused():
    with pytest.raises(SpecError, match="engine: 'pillow' cannot draw"):
        render_spec(_spec("bar", 0), engine="pillow")


def test_shape_scenes_draw_like_the_pillow_engine():
    import numpy.random as npr

    scene = sample_scene(npr.default_rng(3))
    native, vega = render_spec(scene), render_spec(scene, engine="vega")
    assert native.boxes == vega.boxes
    a, b = _pixels(native.png), _pixels(vega.png)
    # Edges anti-alias differently; the shapes themselves coincide.
    assert (np.abs(a - b).sum(-1) > 60).mean() < 0.02


def test_tick_values_and_labels_follow_the_spec_format():
    spec = _spec("bar", 4)
    spec = spec.replace(axes=dataclasses.replace(spec.axes, tick_format="${x:,.0f}"))
    out = render_spec(spec, engine="vega")
    assert out.ticks["y"] == nice_ticks(0.0, out.ticks["y"][-1])
    from chartprobe.dataset_builders.core.vega.engine import vega_lite_spec

    expr = vega_lite_spec(spec)["layer"][0]["encoding"]["y"]["axis"]["labelExpr"]
    assert all(json.dumps(f"${t:,.0f}") in expr for t in out.ticks["y"])


def test_engine_versions_are_pinned_and_reported():
    v = engine_versions()
    assert v["vega_lite"] == "5.21" and v["vl_convert"] and v["vega"]


def test_cli_render_engine_vega(tmp_path):
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(_spec("pie", 0).to_json())
    out = subprocess.run([sys.executable, "-m", "chartprobe", "render", str(spec_file), "--out",
                          str(tmp_path / "pie.png"), "--engine", "vega", "--boxes", str(tmp_path / "b.json")],
                         check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "pie.png").read_bytes() == render_spec(_spec("pie", 0), engine="vega").png
    assert "mark/0/0" in json.loads((tmp_path / "b.json").read_text())
