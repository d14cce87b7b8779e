"""Every registered chart kind: sampling, validation, round-trip, deterministic rendering, boxes.

Parametrized over ``CHARTS.names()`` so a new ``charts/<kind>.py`` is tested the moment it
exists. Renders are cached per kind to keep the file fast.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys

import numpy as np
import pytest
from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec, SpecError
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

KINDS = CHARTS.names()
# Value labels on and a box legend where supported: the most elements to measure.
CFG = SampleConfig(value_labels=True, legend_form="box")


def _spec(kind: str, seed: int = 0, cfg: SampleConfig = CFG) -> ChartSpec:
    return sample_spec(kind, rng_for(seed, "test_charts", kind), cfg)


_RENDERS: dict[str, object] = {}


def _rendered(kind: str):
    if kind not in _RENDERS:
        _RENDERS[kind] = render(_spec(kind))
    return _RENDERS[kind]


def test_all_kinds_registered():
    assert set(KINDS) >= {"bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "pie",
                          "area", "heatmap", "radar"}


@pytest.mark.parametrize("kind", KINDS)
def test_sampled_specs_validate_and_roundtrip(kind):
    for seed in range(8):
        for cfg in (SampleConfig(), CFG, SampleConfig(integer_values=False, n_series=(1, 6))):
            spec = _spec(kind, seed, cfg)
            assert spec.kind == kind
            assert ChartSpec.from_dict(spec.to_dict()) == spec
            assert ChartSpec.from_json(spec.to_json()) == spec


@pytest.mark.parametrize("kind", KINDS)
def test_sampling_is_a_function_of_the_rng(kind):
    assert _spec(kind, 3).to_json() == _spec(kind, 3).to_json()
    assert any(_spec(kind, 3).to_json() != _spec(kind, s).to_json() for s in range(4, 8))


@pytest.mark.parametrize("kind", KINDS)
def test_integer_and_distinct_values(kind):
    for seed in range(5):
        spec = _spec(kind, seed, SampleConfig(integer_values=True, distinct_values=True))
        for s in spec.data.series:
            assert all(float(v).is_integer() for v in s.values)
            assert len(set(s.values)) == len(s.values)


@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS),
       n_cat=st.tuples(st.integers(1, 12), st.integers(1, 12)),
       n_ser=st.tuples(st.integers(1, 6), st.integers(1, 6)), ints=st.booleans())
@settings(max_examples=60, deadline=None)
def test_sampling_always_valid(seed, kind, n_cat, n_ser, ints):
    cfg = SampleConfig(n_categories=tuple(sorted(n_cat)), n_series=tuple(sorted(n_ser)),
                       integer_values=ints)
    spec = sample_spec(kind, np.random.default_rng(seed), cfg)
    assert ChartSpec.from_json(spec.to_json()) == spec


@pytest.mark.parametrize("kind", KINDS)
def test_render_is_deterministic(kind):
    first = _rendered(kind)
    again = render(_spec(kind))
    assert again.png == first.png
    assert again.boxes == first.boxes


@pytest.fixture(scope="module")
def subprocess_digests() -> dict[str, str]:
    """sha256 of each kind's PNG rendered in a fresh interpreter (one process for all kinds)."""
    code = (
        "import hashlib, json, sys\n"
        "from chartprobe.dataset_builders.core.render import render\n"
        "from chartprobe.dataset_builders.core.spec import ChartSpec\n"
        "specs = json.load(sys.stdin)\n"
        "print(json.dumps({k: hashlib.sha256(render(ChartSpec.from_dict(d)).png).hexdigest()"
        " for k, d in specs.items()}))\n")
    payload = json.dumps({k: _spec(k).to_dict() for k in KINDS})
    out = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True,
                         text=True, check=True, timeout=120)
    return json.loads(out.stdout)


@pytest.mark.parametrize("kind", KINDS)
def test_render_identical_in_another_process(kind, subprocess_digests):
    assert subprocess_digests[kind] == hashlib.sha256(_rendered(kind).png).hexdigest()


@pytest.mark.parametrize("kind", KINDS)
def test_png_is_rgb_of_stated_size(kind):
    r = _rendered(kind)
    img = Image.open(io.BytesIO(r.png))
    assert img.format == "PNG" and img.mode == "RGB"
    assert img.size == (r.width, r.height)
    assert b"Software" not in r.png and b"tIME" not in r.png


@pytest.mark.parametrize("kind", KINDS)
def test_boxes_are_normalized_and_complete(kind):
    r, spec = _rendered(kind), _spec(kind)
    for key, (x0, y0, x1, y1) in r.boxes.items():
        assert 0.0 <= x0 <= x1 <= 1.0 and 0.0 <= y0 <= y1 <= 1.0, key
    n_series = 1 if CHARTS.get(kind).legend_items == "categories" else len(spec.data.series)
    for s in range(n_series):
        for c in range(len(spec.data.categories)):
            assert f"mark/{s}/{c}" in r.boxes
            assert f"value_label/{s}/{c}" in r.boxes
    assert {"axes", "title"} <= set(r.boxes)


@pytest.mark.parametrize("kind", KINDS)
def test_every_legend_form_renders(kind):
    cls = CHARTS.get(kind)
    for form in cls.legend_forms:
        spec = _spec(kind, 1, SampleConfig(legend_form=form))
        boxes = render(spec).boxes
        n = len(cls().legend_labels(spec))
        expected = {"box": [f"legend/entry/{i}" for i in range(n)] + ["legend/box"],
                    "direct": [f"legend/direct/{i}" for i in range(n)],
                    "colorbar": ["legend/colorbar", "legend/colorbar_tick/0"],
                    "none": []}[form]
        assert set(expected) <= set(boxes), (form, sorted(boxes))
        if form == "none":
            assert not any(k.startswith("legend/") for k in boxes)


def test_sampling_never_imports_matplotlib():
    code = ("import sys\n"
            "from chartprobe.dataset_builders.core.render import sample_spec\n"
            "from chartprobe.dataset_builders.core.charts import CHARTS\n"
            "from chartprobe.dataset_builders.core.rng import rng_for\n"
            "for k in CHARTS.names():\n"
            "    sample_spec(k, rng_for(0, k)).validate()\n"
            "assert not [m for m in sys.modules if m.startswith('matplotlib')], 'matplotlib imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def _replace_values(spec: ChartSpec, **series_values) -> ChartSpec:
    series = tuple(s.__class__(s.name, tuple(series_values.get(f"s{i}", s.values)), s.unit)
                   for i, s in enumerate(spec.data.series))
    return spec.replace(data=spec.data.__class__(spec.data.categories, series, spec.data.x_values))


@pytest.mark.parametrize("kind, series_idx, bad, field", [
    ("pie", 0, -1.0, "spec.data.series[0].values[1]"),
    ("pie", 0, 0.0, "spec.data.series[0].values[1]"),
    ("stacked_bar", 1, -2.0, "spec.data.series[1].values[1]"),
    ("area", 0, -2.0, "spec.data.series[0].values[1]"),
    ("radar", 0, -2.0, "spec.data.series[0].values[1]"),
])
def test_kind_rejects_bad_values(kind, series_idx, bad, field):
    spec = _spec(kind)
    vals = list(spec.data.series[series_idx].values)
    vals[1] = bad
    with pytest.raises(SpecError) as err:
        _replace_values(spec, **{f"s{series_idx}": vals}).validate()
    assert err.value.field == field


def test_kind_structural_checks():
    heat = _spec("heatmap")
    with pytest.raises(SpecError, match="at least 2") as err:
        heat.replace(data=heat.data.__class__(heat.data.categories, heat.data.series[:1])).validate()
    assert err.value.field == "spec.data.series"
    scat = _spec("scatter")
    with pytest.raises(SpecError) as err:
        scat.replace(data=scat.data.__class__(scat.data.categories, scat.data.series)).validate()
    assert err.value.field == "spec.data.x_values"
    grouped = _spec("grouped_bar")
    with pytest.raises(SpecError):
        grouped.replace(data=grouped.data.__class__(grouped.data.categories, grouped.data.series[:1]),
                        encodings=grouped.encodings[:1]).validate()
    heat_box = heat.replace(legend=heat.legend.__class__(form="box"))
    with pytest.raises(SpecError) as err:
        heat_box.validate()
    assert err.value.field == "spec.legend.form"
