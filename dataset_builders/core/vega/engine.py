"""Render a ChartSpec with Vega (vl-convert's embedded engine: no browser, no network).

The same contract as the matplotlib engine (:func:`chartprobe.dataset_builders.core.render.render`):
RGB PNG bytes and normalized element boxes with the same ids, read from the Vega scenegraph
(:mod:`.scene`). The spec stays the one source of truth: the drawer reads the spec, never the
other way round. The Vega-Lite spec is compiled to Vega once, then drawn and measured; the
vl-convert, Vega and Vega-Lite versions are pinned (:data:`VEGA_LITE_VERSION`) and reported by
:func:`engine_versions` for release cards.
"""

from __future__ import annotations

import functools
import io
import json

from ..charts import CHARTS
from ..render import Rendered
from ..spec import ChartSpec, SpecError
from .base import Plot
from .kinds import VEGA_KINDS
from .legend import legend_layers
from .runtime import vlc
from .scene import scene_boxes
from .styles import vega_config

__all__ = ["VEGA_LITE_VERSION", "engine_versions", "render_vega", "vega_lite_spec"]

VEGA_LITE_VERSION = "5.21"
"""Vega-Lite version the specs are compiled with (one of ``vl_convert.get_vegalite_versions()``)."""

_DATA_ROLES = ("mark/", "line/", "area/", "value_label/", "band/", "legend/direct/")


def engine_versions() -> dict[str, str]:
    """Versions that decide the pixels: vl-convert, Vega, Vega-Lite (compiled against), vega-themes."""
    lib = vlc()
    return {"vl_convert": lib.__version__, "vega": lib.get_vega_version(),
            "vega_lite": VEGA_LITE_VERSION, "vega_themes": lib.get_vega_themes_version()}


def _check(spec: ChartSpec) -> None:
    if spec.kind not in VEGA_KINDS.names():
        raise SpecError("spec.kind", f"{spec.kind!r} cannot be drawn by the Vega engine: no drawer is registered "
                        "for it (core/vega/kinds/)")
    for i, enc in enumerate(spec.encodings):
        if enc.hatch:
            raise SpecError(f"spec.encodings[{i}].hatch",
                            "hatch patterns cannot be drawn by the Vega engine (Vega has no pattern fills)")
    for i, e in enumerate(spec.legend.entries or ()):
        if e.hatch:
            raise SpecError(f"spec.legend.entries[{i}].hatch",
                            "hatch patterns cannot be drawn by the Vega engine (Vega has no pattern fills)")


def vega_lite_spec(spec: ChartSpec) -> dict:
    """The complete Vega-Lite spec drawing ``spec`` (size, theme, title, data layers, legend)."""
    return _build(spec)[0]


def _build(spec: ChartSpec) -> tuple[dict, Plot]:
    _check(spec)
    drawer = VEGA_KINDS.get(spec.kind)()
    px = spec.style.dpi / 72.0
    plot = drawer.plot(spec, px)
    vl = _compose(spec, drawer, plot)
    if plot.aspect is not None:  # one shared scale: measure the plot's shape, then draw to it
        frame = scene_boxes(vlc().vega_to_scenegraph(_vega(vl))).boxes["axes"]
        plot = drawer.plot(spec, px, ratio=(frame[2] - frame[0]) / max(frame[3] - frame[1], 1.0))
        vl = _compose(spec, drawer, plot)
    return vl, plot


def _compose(spec: ChartSpec, drawer, plot: Plot) -> dict:
    st = spec.style
    px = st.dpi / 72.0
    labels = CHARTS.get(spec.kind)().legend_labels(spec)
    layers = [*plot.layers, *legend_layers(spec, labels, drawer, plot, px)]
    out: dict = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": round(st.width * st.dpi), "height": round(st.height * st.dpi),
        "autosize": {"type": "fit", "contains": "padding"}, "padding": round(0.1 * st.dpi),
        "config": vega_config(spec, px), "layer": layers,
        "resolve": {"scale": {"color": "independent", "shape": "independent", "strokeDash": "independent"},
                    "legend": {"color": "independent"}},
    }
    if st.title:
        out["title"] = {"text": st.title}
    if plot.aspect is not None:
        out["config"]["view"] = {**out["config"].get("view", {}), "stroke": None}
    return out


@functools.lru_cache(maxsize=256)
def _compile(vl_json: str) -> str:
    return json.dumps(vlc().vegalite_to_vega(json.loads(vl_json), vl_version=VEGA_LITE_VERSION))


def _vega(vl: dict) -> dict:
    """The Vega spec compiled from ``vl`` (memoised on its canonical JSON)."""
    return json.loads(_compile(json.dumps(vl, sort_keys=True)))


def render_vega(spec: ChartSpec, *, validate: bool = True) -> Rendered:
    """Render ``spec`` with Vega to an RGB PNG and the normalized boxes of its elements."""
    if validate:
        spec.validate()
    vl, plot = _build(spec)
    vg = _vega(vl)
    lib = vlc()
    sg = lib.vega_to_scenegraph(vg)
    png = _opaque(lib.vega_to_png(vg), vl["config"].get("background", "#ffffff"))
    width, height = int(sg["width"]), int(sg["height"])
    found = scene_boxes(sg)
    plot_ticks = {**_tick_values(vl), **plot.ticks}
    if spec.legend.form == "colorbar":  # the matplotlib engine reports a colour bar, not a legend box
        found.boxes.pop("legend/box", None)
    boxes = {k: _norm(b, width, height) for k, b in found.boxes.items() if _keep(k, b)}
    for guide, label_boxes in found.ticks.items():
        for k, b in enumerate(label_boxes):
            if b is not None:
                boxes[f"{guide}/{k}"] = _norm(b, width, height)
    _legend_entries(spec, found, boxes, width, height)
    ticks = {name: vals for name, vals in plot_ticks.items() if vals}
    return Rendered(png=png, width=width, height=height, boxes=boxes, ticks=ticks,
                    slanted=frozenset(k for k in boxes if k.startswith("tick/x/") and _slanted_x(vl)))


def _keep(key: str, box: tuple) -> bool:
    return box[2] > box[0] or box[3] > box[1] or not key.startswith(_DATA_ROLES)


def _legend_entries(spec: ChartSpec, found, boxes: dict, width: int, height: int) -> None:
    from ..render_overrides import shown_items

    if spec.legend.form != "box":
        return
    n = len(CHARTS.get(spec.kind)().legend_labels(spec))
    for item, sym, lab in zip(shown_items(spec, n), found.legend_symbols, found.legend_labels):
        boxes[f"legend/handle/{item}"] = _norm(sym, width, height)
        boxes[f"legend/text/{item}"] = _norm(lab, width, height)
        boxes[f"legend/entry/{item}"] = _norm((min(sym[0], lab[0]), min(sym[1], lab[1]),
                                               max(sym[2], lab[2]), max(sym[3], lab[3])), width, height)


def _tick_values(vl: dict) -> dict[str, tuple[float, ...]]:
    out: dict[str, tuple[float, ...]] = {}
    for layer in vl["layer"]:
        for channel in ("x", "y"):
            enc = layer.get("encoding", {}).get(channel, {})
            if enc.get("type") == "quantitative" and "values" in (enc.get("axis") or {}):
                out.setdefault(channel, tuple(sorted(enc["axis"]["values"])))
        color = layer.get("encoding", {}).get("color", {})
        if color.get("type") == "quantitative" and (color.get("legend") or {}).get("values"):
            out.setdefault("colorbar", tuple(sorted(color["legend"]["values"])))
    return out


def _slanted_x(vl: dict) -> bool:
    for layer in vl["layer"]:
        angle = ((layer.get("encoding", {}).get("x") or {}).get("axis") or {}).get("labelAngle", 0)
        if angle % 90:
            return True
    return False


def _norm(b: tuple, width: int, height: int) -> tuple[float, float, float, float]:
    def clip(v: float) -> float:
        return round(min(1.0, max(0.0, v)), 6)

    return (clip(b[0] / width), clip(b[1] / height), clip(b[2] / width), clip(b[3] / height))


def _opaque(png: bytes, background: str) -> bytes:
    """RGB PNG: the RGBA drawing composited on the theme's background (as the matplotlib engine's)."""
    from PIL import Image

    rgba = Image.open(io.BytesIO(png)).convert("RGBA")
    base = Image.new("RGBA", rgba.size, background if background.startswith("#") else "#ffffff")
    out = io.BytesIO()
    Image.alpha_composite(base, rgba).convert("RGB").save(out, format="PNG")
    return out.getvalue()
