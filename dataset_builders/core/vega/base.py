"""The contract between the Vega engine and its per-kind drawers."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

from ..spec import ChartSpec
from .scales import Axis

__all__ = ["MARKER_SHAPES", "Plot", "VegaKind", "dash", "rows_id"]

# matplotlib marker -> Vega symbol shape (named shapes, else an SVG path on the unit square
# [-1, 1]², which Vega scales by ``size`` like a named shape).
MARKER_SHAPES = {
    "": "circle", "o": "circle", "s": "square", "^": "triangle-up", "v": "triangle-down",
    "<": "triangle-left", ">": "triangle-right", "D": "diamond", "+": "cross",
    "x": "M-1,-0.7L-0.7,-1L0,-0.3L0.7,-1L1,-0.7L0.3,0L1,0.7L0.7,1L0,0.3L-0.7,1L-1,0.7L-0.3,0Z",
    "X": "M-1,-0.6L-0.6,-1L0,-0.4L0.6,-1L1,-0.6L0.4,0L1,0.6L0.6,1L0,0.4L-0.6,1L-1,0.6L-0.4,0Z",
    "P": "M-0.35,-1H0.35V-0.35H1V0.35H0.35V1H-0.35V0.35H-1V-0.35H-0.35Z",
    "*": "M0,-1L0.24,-0.33L0.95,-0.31L0.38,0.12L0.59,0.81L0,0.4L-0.59,0.81L-0.38,0.12L-0.95,-0.31L-0.24,-0.33Z",
    "p": "M0,-1L0.95,-0.31L0.59,0.81L-0.59,0.81L-0.95,-0.31Z",
    "h": "M0,-1L0.87,-0.5L0.87,0.5L0,1L-0.87,0.5L-0.87,-0.5Z",
}
_DASHES = {"solid": [], "dashed": [6, 3], "dotted": [1.5, 2.5], "dashdot": [6, 2.5, 1.5, 2.5]}


def dash(line_style: str, scale: float = 1.0) -> list[float]:
    """Vega ``strokeDash`` of a matplotlib line style (pixels, scaled with the line width)."""
    return [round(v * scale, 3) for v in _DASHES.get(line_style or "solid", [])]


def rows_id(prefix: str, s: int, c: int) -> str:
    """The element id a data row's mark carries (``mark/<s>/<c>`` and friends)."""
    return f"{prefix}/{s}/{c}"


@dataclass
class Plot:
    """What a drawer hands the engine: layers plus the shared axes and direct-label anchors."""

    layers: list[dict]
    x: Axis | None = None
    y: Axis | None = None
    anchors: list[tuple[float, float]] = field(default_factory=list)
    """Per legend item, (x, y) data values a direct label sits next to."""
    anchor_align: list[str] = field(default_factory=list)
    """Per legend item: 'left' puts the text right of the anchor (default), 'right' left of it."""
    direct_dx: float = 6.0
    ticks: dict[str, tuple[float, ...]] = field(default_factory=dict)
    """Extra guides' tick values (``colorbar``)."""
    aspect: float | None = None
    """Set by drawers whose x and y must share one scale (radar): the engine measures the plot's
    width / height on a first layout and calls ``plot(spec, px, ratio=...)`` again with it."""
    categorical_x: bool = False
    """True: x is a band scale keyed "0".."n-1" (direct labels address positions by key)."""


class VegaKind(abc.ABC):
    """A Vega drawer for one chart kind."""

    name: str
    legend_symbol: str = "square"
    """Symbol of box-legend entries: square (filled marks), stroke (lines), circle (points)."""
    legend_shapes: bool = False
    """Entries show the encodings' markers (line, scatter, radar)."""

    @abc.abstractmethod
    def plot(self, spec: ChartSpec, px: float) -> Plot:
        """Layers for the data marks of ``spec``; ``px`` is pixels per point (dpi / 72)."""

    def direct_labels(self, spec: ChartSpec, items: list[int], labels: tuple[str, ...], px: float) -> list[dict] | None:
        """Layers of direct labels for legend ``items``; None: text beside ``Plot.anchors``."""
        return None
