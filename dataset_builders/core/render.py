"""Render a ChartSpec to PNG bytes plus the bounding box of every chart element.

This module (with ``charts/*.py``, which import matplotlib only inside ``draw``) is the
only place that touches matplotlib: Agg canvas, ``Figure`` API (never pyplot state), a
fixed DPI from the spec, DejaVu Sans and a theme applied through a style context, so the
same spec gives byte-identical PNGs in any process.

The figure is drawn with margins fitted to its text, and drawn again with grown margins only when
text still leaves the canvas (:mod:`.layout`); after the last ``canvas.draw()`` every artist is
measured with ``get_window_extent(renderer)`` and the RGBA buffer is encoded by Pillow (which
writes no timestamp or Software chunk).

Box ids (normalized ``x0, y0, x1, y1``, origin top-left, clipped to [0, 1]):

- ``mark/<series>/<category>`` (pie: ``mark/0/<category>``; heatmap: one per cell),
  ``line/<series>`` (whole line of line/radar, top edge of area), ``area/<series>``
- ``value_label/<series>/<category>`` when ``style.value_labels``
- ``legend/box``, ``legend/entry/<item>``, ``legend/handle/<item>``, ``legend/text/<item>``,
  ``legend/title``, ``legend/direct/<item>``, ``legend/colorbar``, ``legend/colorbar_tick/<k>``
  (``<item>`` indexes legend items = encodings, never display positions)
- ``tick/x/<k>``, ``tick/y/<k>`` (k = index among the ticks drawn; only non-empty labels)
- ``axis/x/label``, ``axis/y/label``, ``title``, ``axes``
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .charts import CHARTS
from .charts._base import DEFAULT_CONFIG, Drawn, SampleConfig
from .colorbar import colorbar_ticks
from .layout import MAX_REFITS, OUTSIDE_ANCHORS, Margins, fitted, overflow
from .render_overrides import drawing_spec, shown_items, style_layout, style_marks
from .spec import ChartSpec
from .themes import style_list

__all__ = ["Rendered", "Scene", "build_scene", "render", "sample_spec", "theme_context"]

_DATA_PREFIXES = ("mark/", "line/", "area/", "value_label/")
_MARK_PREFIXES = ("mark/", "line/", "area/")
_LEGEND_PARTS = ("legend/handle/", "legend/entry/")
_OUTSIDE_LOC = {"outside right": "outside right upper", "outside bottom": "outside lower center"}


@dataclass(frozen=True)
class Rendered:
    """A rendered chart: RGB PNG bytes, pixel size and normalized element boxes."""

    png: bytes
    width: int
    height: int
    boxes: dict[str, tuple[float, float, float, float]]
    ticks: dict[str, tuple[float, ...]] = field(default_factory=dict)
    """Data value of every labelled tick drawn, per guide: ``x``, ``y`` and ``colorbar``
    (ascending). What a reader can resolve on a scale: half the step between two ticks
    (:mod:`chartprobe.dataset_builders.core.tolerance`)."""
    slanted: frozenset[str] = frozenset()
    """Tick label ids drawn at a slant: their boxes are axis-aligned hulls of tilted text, which
    overlap a neighbour's without the glyphs touching (:mod:`.readability` knows)."""


@dataclass
class Scene:
    """A built (not yet drawn) figure and everything the renderer must measure."""

    fig: Any
    canvas: Any
    ax: Any
    drawn: Drawn
    measured: dict[str, Any] = field(default_factory=dict)
    """Element id -> artist (or list of artists, unioned) to measure after drawing."""
    tick_axes: list[tuple[str, Any]] = field(default_factory=list)
    """(id prefix, matplotlib Axis) whose drawn tick labels get boxes."""
    drawn_ticks: dict[str, list[Any]] = field(default_factory=dict)
    """Tick prefix -> the ticks the last draw drew (:func:`_scene_ticks`; emptied by a redraw)."""


def sample_spec(kind: str, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
    """Sample a random spec of ``kind`` from ``rng`` and validate it."""
    return CHARTS.get(kind)().sample(rng, cfg).validate()


@contextlib.contextmanager
def theme_context(spec: ChartSpec) -> Iterator[None]:
    """rcParams for ``spec.style`` (theme + pinned font), restored on exit."""
    import matplotlib.style

    with matplotlib.style.context(style_list(spec.style.theme, spec.style.font_size)):
        yield


def build_scene(spec: ChartSpec, margins: Margins | None = None) -> Scene:
    """Create the figure, let the kind draw, add title, axes styling and legend.

    ``margins`` places the axes by hand (:mod:`.layout`); None lays the figure out with
    constrained layout, which keeps outside legends, colour bars and long labels inside the
    canvas and runs within the draw. Call inside :func:`theme_context`. Nothing is rasterised yet.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure, SubplotParams

    kind = CHARTS.get(spec.kind)()
    st = spec.style
    if margins is None:
        fig = Figure(figsize=(st.width, st.height), dpi=st.dpi, layout="constrained")
    else:
        params = margins.subplot_params(st.width, st.height, st.font_size)
        fig = Figure(figsize=(st.width, st.height), dpi=st.dpi, subplotpars=SubplotParams(**params))
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot(projection="polar" if kind.polar else None)
    drawn = kind.draw(drawing_spec(spec), fig, ax)
    kind.apply_axes(spec, ax)
    if st.title:
        ax.set_title(st.title)
    scene = Scene(fig, canvas, ax, drawn)
    scene.measured.update(drawn.marks)
    scene.measured.update(drawn.extra)
    scene.measured.update({"axes": ax, "title": ax.title, "axis/x/label": ax.xaxis.label,
                           "axis/y/label": ax.yaxis.label})
    scene.tick_axes += [("tick/x", ax.xaxis), ("tick/y", ax.yaxis)]
    style_marks(spec, scene)  # before the legend, which copies the styled handles
    _LEGENDS[spec.legend.form](spec, kind.legend_labels(spec), scene)
    style_layout(spec, scene)
    return scene


def render(spec: ChartSpec, *, validate: bool = True,
           prepare: Callable[[Scene], None] | None = None, layout: str = "fitted",
           pixels: bool = True) -> Rendered:
    """Render ``spec`` to an RGB PNG and the normalized boxes of its elements (module doc).

    ``prepare`` may adjust a built scene (what is measured, and how) before it is drawn.
    ``layout="constrained"`` lays every chart out with matplotlib's constrained layout, as
    releases before 0.2.0 were drawn (slower; other pixels than the releases of this version).
    ``pixels=False`` runs the same draws without painting or encoding a pixel: the same boxes,
    ticks and size, and an empty ``png`` (for a box answer, which is measured on the drawing).
    """
    if validate:
        spec.validate()
    if layout not in _LAYOUTS:
        raise ValueError(f"layout={layout!r}: choose one of {', '.join(_LAYOUTS)}")
    draw = _paint if pixels else _lay_out
    with theme_context(spec):
        scene, raw = _LAYOUTS[layout](spec, prepare or (lambda scene: None), draw)
        width, height = scene.canvas.get_width_height()
        boxes = {key: _normalize(bb, width, height) for key, bb in raw.items()}
        ticks = _tick_values(scene)
        png = _encode_png(scene.canvas, width, height) if pixels else b""
    return Rendered(png=png, width=width, height=height, boxes=boxes, ticks=ticks, slanted=_slanted(scene))


def _paint(scene: Scene) -> None:
    scene.canvas.draw()


def _lay_out(scene: Scene) -> None:
    """The draw with painting switched off (what ``Figure.draw_without_rendering`` does), on the
    canvas's own renderer: every artist placed and every text measured as in :func:`_paint`."""
    renderer = scene.canvas.get_renderer()
    with renderer._draw_disabled():
        scene.fig.draw(renderer)


def _draw_laid_out(spec: ChartSpec, prepare: Callable[[Scene], None],
                   draw: Callable[[Scene], None] = _paint) -> tuple[Scene, dict[str, Any]]:
    """Draw ``spec`` with margins fitted to its text, grown while text overflows (:mod:`.layout`).

    Returns the drawn scene and the display box of every measured element.
    """
    st = spec.style
    margins = CHARTS.get(spec.kind).margins
    if margins is None:
        return _draw_constrained(spec, prepare, draw)
    margins = margins.with_title(bool(st.title) and (st.title_y is None or st.title_y >= 1.0))
    scene = build_scene(spec, margins)
    prepare(scene)
    margins, over = fitted(scene, margins, st.font_size, spec.legend.position), {}
    for _attempt in range(MAX_REFITS + 1):
        margins = margins.grown(over, st.font_size)
        try:
            scene.fig.subplots_adjust(**margins.subplot_params(st.width, st.height, st.font_size))
        except ValueError:
            break
        draw(scene)
        scene.drawn_ticks.clear()
        raw = _measure_raw(scene)
        over = overflow(_text_boxes(scene, raw), *scene.canvas.get_width_height(), st.dpi)
        if not over:
            return scene, raw
    # Text wider than the figure allows: constrained layout, which also shrinks what it can.
    return _draw_constrained(spec, prepare, draw)


def _draw_constrained(spec: ChartSpec, prepare: Callable[[Scene], None],
                      draw: Callable[[Scene], None] = _paint) -> tuple[Scene, dict[str, Any]]:
    """Draw ``spec`` laid out by constrained layout (within the one draw)."""
    scene = build_scene(spec)
    prepare(scene)
    draw(scene)
    return scene, _measure_raw(scene)


_LAYOUTS = {"fitted": _draw_laid_out, "constrained": _draw_constrained}


def _text_boxes(scene: Scene, raw: dict[str, Any]) -> list[Any]:
    """Display boxes of everything but data marks and the axes (value labels are text), plus any
    unmeasured text.

    Legend handles and entries are left to the legend's frame around them: how they are measured
    differs between callers (``legend/measure.py`` measures handles as drawn), and the layout must
    not, or one spec would draw two ways."""
    renderer = scene.canvas.get_renderer()
    boxes = [bb for key, bb in raw.items()
             if not key.startswith(_MARK_PREFIXES + _LEGEND_PARTS) and key != "axes"]
    measured = {id(obj) for obj in scene.measured.values()}
    boxes += [t.get_window_extent(renderer) for t in (*scene.ax.texts, *scene.fig.texts)
              if id(t) not in measured and t.get_visible() and t.get_text()]
    return [bb for bb in boxes if np.all(np.isfinite(bb.get_points()))]


# -- legends -----------------------------------------------------------------------------

def _legend_box(spec: ChartSpec, labels: tuple[str, ...], scene: Scene) -> None:
    shown = shown_items(spec, len(labels))
    if not shown:
        return
    lg = spec.legend
    size = spec.style.font_size * lg.font_scale
    kw = {"fontsize": size, "ncols": lg.columns, "title": lg.title or None, "title_fontsize": size}
    if lg.entries is not None:
        handles = [_entry_handle(lg.entries[k]) for k in shown]
        texts = [lg.entries[k].label for k in shown]
    else:
        handles = [scene.drawn.handles[i] for i in shown]
        texts = [labels[i] for i in shown]
    if lg.position in _OUTSIDE_LOC and scene.fig.get_layout_engine() is None:
        # Laid out by hand (:mod:`.layout`): pinned to the figure edge, the margin made to fit it.
        leg = scene.fig.legend(handles, texts, **OUTSIDE_ANCHORS[lg.position], **kw)
    elif lg.position in _OUTSIDE_LOC:
        leg = scene.fig.legend(handles, texts, loc=_OUTSIDE_LOC[lg.position], **kw)
    else:
        leg = scene.ax.legend(handles, texts, loc=lg.position, **kw)
    m = scene.measured
    # The frame is laid out even when a theme hides it (frameon=False): measure it anyway.
    m["legend/box"] = _Unhidden(leg.get_frame())
    if lg.title:
        m["legend/title"] = leg.get_title()
    for item, handle, text in zip(shown, leg.legend_handles, leg.get_texts()):
        m[f"legend/handle/{item}"] = handle
        m[f"legend/text/{item}"] = text
        m[f"legend/entry/{item}"] = [handle, text]


def _entry_handle(entry: Any) -> Any:
    """A proxy artist for an explicit legend entry: a filled patch or a line/marker sample."""
    if entry.patch:
        from matplotlib.patches import Patch

        return Patch(facecolor=entry.color, hatch=entry.hatch or None, edgecolor="#333333")
    from matplotlib.lines import Line2D

    return Line2D([], [], color=entry.color, marker=entry.marker or None,
                  linestyle=entry.line_style or "none", markersize=7)


def _legend_direct(spec: ChartSpec, labels: tuple[str, ...], scene: Scene) -> None:
    d = scene.drawn
    size = spec.style.font_size * spec.legend.font_scale
    for item in shown_items(spec, len(labels)):
        ha = d.anchor_ha[item] if d.anchor_ha else "left"
        dx = {"left": d.anchor_offset, "right": -d.anchor_offset}.get(ha, 0.0)
        text = scene.ax.annotate(labels[item], d.anchors[item], xytext=(dx, 0),
                                 textcoords="offset points", ha=ha, va="center", fontsize=size,
                                 color=spec.encodings[item].color, annotation_clip=False)
        scene.measured[f"legend/direct/{item}"] = text


def _legend_colorbar(spec: ChartSpec, labels: tuple[str, ...], scene: Scene) -> None:
    if scene.drawn.mappable is None:
        return
    from matplotlib.ticker import FuncFormatter

    fmt = spec.axes.tick_format
    cb = scene.fig.colorbar(scene.drawn.mappable, ax=scene.ax,
                            format=FuncFormatter(lambda x, _pos: fmt.format(x=x)))
    # Ticks pinned to the spec's (core/colorbar.py), so questions about them are answered from the spec.
    ticks = colorbar_ticks(spec)
    if ticks:
        cb.set_ticks(ticks)
    if spec.legend.direction == "down":
        cb.ax.invert_yaxis()
    if spec.legend.title:
        cb.set_label(spec.legend.title, fontsize=spec.style.font_size * spec.legend.font_scale)
        scene.measured["legend/title"] = cb.ax.yaxis.label
    cb.ax.tick_params(labelsize=spec.style.font_size * spec.legend.font_scale)
    scene.measured["legend/colorbar"] = cb.ax
    scene.tick_axes.append(("legend/colorbar_tick", cb.ax.yaxis))


def _legend_none(spec: ChartSpec, labels: tuple[str, ...], scene: Scene) -> None:
    return None


_LEGENDS = {"box": _legend_box, "direct": _legend_direct, "colorbar": _legend_colorbar,
            "none": _legend_none}


# -- measuring and encoding ----------------------------------------------------------------

@dataclass(frozen=True)
class _Unhidden:
    """An artist measured whether or not it is visible."""

    artist: Any

    def get_window_extent(self, renderer: Any = None) -> Any:
        return self.artist.get_window_extent(renderer)


def _extent(obj: Any, renderer: Any) -> Any:
    """Display-space Bbox of an artist, a DataPoint/DataBox, or the union of a list of them."""
    from matplotlib.transforms import Bbox

    if isinstance(obj, (list, tuple)):
        return Bbox.union([_extent(o, renderer) for o in obj])
    return obj.get_window_extent(renderer)


def _is_shown(obj: Any) -> bool:
    """Skip artists that draw nothing (hidden, or text without characters)."""
    if isinstance(obj, (list, tuple)):
        return any(_is_shown(o) for o in obj)
    if hasattr(obj, "get_visible") and not obj.get_visible():
        return False
    return not (hasattr(obj, "get_text") and not obj.get_text())


def _drawn_ticks(axis: Any) -> list[Any]:
    # Axis._update_ticks is what Axis.draw itself uses to pick the ticks inside the view
    # interval; get_ticklabels() would also return labels outside it, which are not drawn.
    return axis._update_ticks()


def _scene_ticks(scene: Scene, prefix: str, axis: Any) -> list[Any]:
    """:func:`_drawn_ticks` of ``axis``, computed once per draw (each call re-runs the locator)."""
    if prefix not in scene.drawn_ticks:
        scene.drawn_ticks[prefix] = _drawn_ticks(axis)
    return scene.drawn_ticks[prefix]


def _measure_raw(scene: Scene) -> dict[str, Any]:
    """Element id -> display Bbox of every shown measured artist and drawn tick label."""
    renderer = scene.canvas.get_renderer()
    raw: dict[str, Any] = {}
    for key, obj in scene.measured.items():
        if _is_shown(obj):
            bb = _extent(obj, renderer)
            # A mark of a missing (all-NaN) series draws nothing, so it gets no box.
            if np.all(np.isfinite(bb.get_points())) or not key.startswith(_DATA_PREFIXES):
                raw[key] = bb
    for prefix, axis in scene.tick_axes:
        for k, tick in enumerate(_scene_ticks(scene, prefix, axis)):
            labels = [t for t in (tick.label1, tick.label2) if t.get_visible() and t.get_text()]
            if labels:
                raw[f"{prefix}/{k}"] = _extent(labels, renderer)
    return raw


def _slanted(scene: Scene) -> frozenset[str]:
    """Ids of the tick labels drawn at an angle that is not a multiple of 90 degrees."""
    out = set()
    for prefix, axis in scene.tick_axes:
        for k, tick in enumerate(_scene_ticks(scene, prefix, axis)):
            if any(t.get_visible() and t.get_text() and t.get_rotation() % 90 for t in (tick.label1, tick.label2)):
                out.add(f"{prefix}/{k}")
    return frozenset(out)


_TICK_GUIDES = {"tick/x": "x", "tick/y": "y", "legend/colorbar_tick": "colorbar"}


def _tick_values(scene: Scene) -> dict[str, tuple[float, ...]]:
    """Guide name -> sorted values of the ticks drawn with a visible label."""
    out: dict[str, tuple[float, ...]] = {}
    for prefix, axis in scene.tick_axes:
        vals = sorted({round(float(t.get_loc()), 12) for t in _scene_ticks(scene, prefix, axis)
                       if any(x.get_visible() and x.get_text() for x in (t.label1, t.label2))
                       and np.isfinite(t.get_loc())})
        if vals:
            out[_TICK_GUIDES.get(prefix, prefix)] = tuple(vals)
    return out


def _normalize(bb: Any, width: int, height: int) -> tuple[float, float, float, float]:
    def clip(v: float) -> float:
        return round(min(1.0, max(0.0, float(v))), 6) if np.isfinite(v) else 0.0

    x0, x1 = sorted((bb.x0 / width, bb.x1 / width))
    y0, y1 = sorted((1.0 - bb.y1 / height, 1.0 - bb.y0 / height))
    return (clip(x0), clip(y0), clip(x1), clip(y1))


def _encode_png(canvas: Any, width: int, height: int) -> bytes:
    from PIL import Image

    rgba = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    out = io.BytesIO()
    # Every theme paints an opaque figure background, so dropping alpha loses nothing.
    rgba.convert("RGB").save(out, format="PNG")
    return out.getvalue()
