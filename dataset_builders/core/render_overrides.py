"""The optional presentation fields of a spec, applied to an already drawn figure.

Chart kinds draw the plain chart; the optional fields (``Series.missing``,
``StyleSpec.mark_scale``/``alpha``/``title_y``/``value_label_anchor``,
``AxesSpec.label_pad``/``x_tick_rotation``, ``LegendSpec.opaque``/``colors``) are applied
here, generically, so no chart kind has to know about them. Every function is a no-op when
its field has its default value, which keeps default renders byte-identical.
Imported by ``render.py`` only (matplotlib objects arrive through the scene); it also says
which legend items are shown (:func:`shown_items`), which both need.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from .spec import ChartSpec

__all__ = ["drawing_spec", "shown_items", "style_layout", "style_marks"]


def shown_items(spec: ChartSpec, n: int) -> list[int]:
    """Legend item indices (or explicit entry indices) in display order, without hidden ones."""
    if spec.legend.entries is not None:
        n = len(spec.legend.entries)
    order = spec.legend.order if spec.legend.order is not None else range(n)
    visible = spec.legend.visible if spec.legend.visible is not None else (True,) * n
    return [i for i in order if visible[i]]


def drawing_spec(spec: ChartSpec) -> ChartSpec:
    """The spec a kind draws: ``missing`` series get all-NaN values (so they leave no mark)."""
    if not any(s.missing for s in spec.data.series):
        return spec
    series = tuple(dataclasses.replace(s, values=(math.nan,) * len(s.values)) if s.missing else s
                   for s in spec.data.series)
    # No validation here on purpose: NaN is exactly what the flaw needs to reach matplotlib.
    return dataclasses.replace(spec, data=dataclasses.replace(spec.data, series=series))


def _mark_artists(drawn: Any) -> list[Any]:
    """Every real artist among the marks and legend handles (point/cell stand-ins excluded)."""
    seen: dict[int, Any] = {}
    for obj in [*drawn.marks.values(), *drawn.handles]:
        for artist in (obj if isinstance(obj, (list, tuple)) else [obj]):
            if hasattr(artist, "set_alpha") and hasattr(artist, "draw"):
                seen.setdefault(id(artist), artist)
    return list(seen.values())


def _scale_artist(artist: Any, scale: float, horizontal: bool) -> None:
    """Thicker/thinner strokes and markers; bars get heavy edges or get narrower."""
    from matplotlib.collections import PathCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    if isinstance(artist, Line2D):
        artist.set_linewidth(artist.get_linewidth() * scale)
        artist.set_markersize(artist.get_markersize() * scale)
    elif isinstance(artist, PathCollection):
        artist.set_sizes(artist.get_sizes() * scale ** 2)
    elif isinstance(artist, Rectangle):
        if scale > 1:  # a clumsy dark outline, the bar itself keeps its data extent
            artist.set_edgecolor("#222222")
            artist.set_linewidth(1.2 * scale)
        elif horizontal:  # frail bars: keep the centre line, shrink the thickness
            y, h = artist.get_y(), artist.get_height()
            artist.set_y(y + h * (1 - scale) / 2)
            artist.set_height(h * scale)
        else:
            x, w = artist.get_x(), artist.get_width()
            artist.set_x(x + w * (1 - scale) / 2)
            artist.set_width(w * scale)
    elif hasattr(artist, "get_linewidth"):
        widths = artist.get_linewidth()
        artist.set_linewidth([w * scale for w in widths] if hasattr(widths, "__len__") else widths * scale)


def style_marks(spec: ChartSpec, scene: Any) -> None:
    """Mark scale, mark opacity and value-label anchoring; runs before the legend copies handles."""
    from .charts import CHARTS

    st = spec.style
    if st.mark_scale != 1.0 or st.alpha != 1.0:
        horizontal = CHARTS.get(spec.kind).value_axis == "x"
        for artist in _mark_artists(scene.drawn):
            if st.mark_scale != 1.0:
                _scale_artist(artist, st.mark_scale, horizontal)
            if st.alpha != 1.0:
                artist.set_alpha((artist.get_alpha() if artist.get_alpha() is not None else 1.0) * st.alpha)
    if st.value_label_anchor == "center":
        for key, text in scene.drawn.extra.items():
            if key.startswith("value_label/") and hasattr(text, "xyann"):
                text.xyann = (0.0, 0.0)  # on the data point itself: the text hides the mark
                text.set_ha("center")
                text.set_va("center")


def style_layout(spec: ChartSpec, scene: Any) -> None:
    """Title position, label padding, tick rotation and legend frame/handle colours."""
    ax, st, axes = scene.ax, spec.style, spec.axes
    if st.title_y is not None and st.title:
        ax.set_title(st.title, y=st.title_y)
    if axes.label_pad is not None:
        ax.xaxis.labelpad = axes.label_pad
        ax.yaxis.labelpad = axes.label_pad
    if axes.x_tick_rotation is not None:
        for label in ax.get_xticklabels():
            label.set_rotation(axes.x_tick_rotation)
            label.set_ha("center" if axes.x_tick_rotation == 0 else "right")
    legend = ax.get_legend() or (scene.fig.legends[0] if scene.fig.legends else None)
    if legend is None:
        return
    if spec.legend.opaque:
        legend.set_frame_on(True)
        legend.get_frame().set_alpha(1.0)
        legend.set_zorder(20)  # above every mark, so the data behind it is hidden
    if spec.legend.colors is not None:
        shown = shown_items(spec, len(spec.legend.colors))
        for item, handle in zip(shown, legend.legend_handles):
            handle.set_color(spec.legend.colors[item])
