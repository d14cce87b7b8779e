"""``heatmap``: series are rows, categories are columns; the legend is a colorbar.

The single legend item is the colour scale: its label is the colorbar title (else the
unit) and its encoding colour is the top of a light-to-dark sequential colormap.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..spec import ChartSpec
from . import chart
from ._bars import set_category_ticks
from ._base import DEFAULT_CONFIG, ChartKind, DataBox, Drawn, SampleConfig
from ._marks import format_value


def _colormap(color: str) -> Any:
    from matplotlib.colors import LinearSegmentedColormap, to_rgb

    rgb = np.asarray(to_rgb(color))
    return LinearSegmentedColormap.from_list("chartprobe", [(0.97, 0.97, 0.97), rgb, rgb * 0.45])


@chart("heatmap")
class Heatmap(ChartKind):
    """Heatmap; cell (row s, column c) is ``mark/s/c``, row 0 on top."""

    legend_forms = ("colorbar", "none")
    default_legend = "colorbar"
    min_series = 2
    max_series = 8
    series_range = (2, 6)
    category_range = (3, 8)
    value_axis = ""

    def legend_labels(self, spec: ChartSpec) -> tuple[str, ...]:
        """One item: the colour scale, named by the legend title or the unit."""
        return (spec.legend.title or spec.data.series[0].unit or "value",)

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random matrix; rows labelled by series names, colorbar titled with the unit."""
        spec = self.sample_base(rng, cfg)
        unit = spec.data.series[0].unit
        return spec.replace(legend=dataclasses.replace(spec.legend, title=unit),
                            axes=dataclasses.replace(spec.axes, y_label="", grid=False))

    def apply_axes(self, spec: ChartSpec, ax: Any) -> None:
        """Axis labels only: both axes are categorical and grid lines would cut the cells."""
        ax.set_xlabel(spec.axes.x_label)
        ax.set_ylabel(spec.axes.y_label)
        ax.grid(False)

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """imshow of the matrix; value labels switch to white on dark cells."""
        mat = np.asarray([s.values for s in spec.data.series], dtype=float)
        image = ax.imshow(mat, cmap=_colormap(spec.encodings[0].color), aspect="auto",
                          interpolation="nearest")
        lo, hi = float(mat.min()), float(mat.max())
        drawn = Drawn(mappable=image, handles=[image], anchors=[(mat.shape[1] - 0.5, 0.0)])
        for s in range(mat.shape[0]):
            for c in range(mat.shape[1]):
                drawn.marks[f"mark/{s}/{c}"] = DataBox(ax, c - 0.5, s - 0.5, c + 0.5, s + 0.5)
                if spec.style.value_labels:
                    dark = hi > lo and (mat[s, c] - lo) / (hi - lo) > 0.55
                    drawn.extra[f"value_label/{s}/{c}"] = ax.text(
                        c, s, format_value(spec, mat[s, c]), ha="center", va="center",
                        color="white" if dark else "black", fontsize=spec.style.font_size * 0.8)
        set_category_ticks(ax, spec.data.categories)
        ax.set_yticks(np.arange(mat.shape[0]), labels=[s.name for s in spec.data.series])
        return drawn
