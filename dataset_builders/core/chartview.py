"""A single-series chart seen the way a probe template needs it.

``ChartView`` wraps a spec (and, when rendered, the element boxes from the plotting
backend) and re-resolves *geometry by chart kind*: what "leftmost", "tallest" or
"position 3" mean on a vertical bar chart, a horizontal bar chart (topmost, longest) or a
pie (segments read clockwise from twelve o'clock, largest by arc). The per-kind words and
reading order are data in ``GEOMETRIES``; adding a kind is one entry, not a branch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .charts import CHARTS
from .spec import ChartSpec
from .vocab import color_name

__all__ = ["GEOMETRIES", "VISUAL_MARGIN", "ChartView", "Geometry"]

VISUAL_MARGIN = 0.04
"""Two marks whose sizes differ by less than this fraction of the largest mark count as a
visual tie: comparisons that need them are degenerate and never emitted."""


@dataclass(frozen=True)
class Geometry:
    """Reading order and the words a question uses for one chart kind."""

    words: Mapping[str, str]
    reversed_order: bool = False
    """True if the visual reading order runs opposite to the data order."""


_BAR_WORDS = {"noun": "bar", "nouns": "bars", "first": "leftmost", "last": "rightmost", "first_mark": "leftmost bar",
              "last_mark": "rightmost bar",
              "big": "tallest", "small": "shortest", "size": "height", "sizes": "heights",
              "bigger": "taller", "along": "from left to right", "counting": "counting from the left",
              "above_avg": "taller than the average bar height",
              "axis_hint": "Ignore all text on the axes and judge only the bar heights.",
              "color_hint": "Ignore all text on the axes and judge only the bar colours."}

GEOMETRIES: dict[str, Geometry] = {
    "bar": Geometry(MappingProxyType(_BAR_WORDS)),
    # matplotlib's barh puts category 0 at the bottom; our hbar inverts the axis so data order
    # reads top to bottom, the way people read a ranked list.
    "hbar": Geometry(MappingProxyType({
        **_BAR_WORDS, "first": "topmost", "last": "bottommost", "first_mark": "topmost bar",
        "last_mark": "bottommost bar", "big": "longest",
        "small": "shortest", "size": "length", "sizes": "lengths", "bigger": "longer",
        "along": "from top to bottom", "counting": "counting from the top",
        "above_avg": "longer than the average bar length",
        "axis_hint": "Ignore all text on the axes and judge only the bar lengths."})),
    # Wedges start at twelve o'clock and run clockwise (startangle=90, counterclock=False).
    "pie": Geometry(MappingProxyType({
        "noun": "segment", "nouns": "segments", "first": "first (clockwise from twelve o'clock)",
        "last": "last (clockwise from twelve o'clock)",
        "first_mark": "first segment clockwise from twelve o'clock",
        "last_mark": "last segment clockwise from twelve o'clock", "big": "largest", "small": "smallest",
        "size": "size", "sizes": "sizes", "bigger": "larger", "along": "clockwise from twelve o'clock",
        "counting": "counting clockwise from twelve o'clock",
        # "above average" on a pie is a share of the whole: bigger than 1/n of the disc.
        "above_avg": "larger than an equal share of the pie",
        "axis_hint": "Ignore all text in the chart and judge only the segment sizes.",
        "color_hint": "Ignore all text in the chart and judge only the segment colours."})),
}


@dataclass(frozen=True)
class ChartView:
    """Labels, values, reading order, colours and boxes of a single-series chart."""

    spec: ChartSpec
    boxes: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)

    @property
    def geometry(self) -> Geometry:
        return GEOMETRIES[self.spec.kind]

    @property
    def words(self) -> Mapping[str, str]:
        return self.geometry.words

    @property
    def labels(self) -> tuple[str, ...]:
        return self.spec.data.categories

    @property
    def values(self) -> tuple[float, ...]:
        return self.spec.data.series[0].values

    @property
    def n(self) -> int:
        return len(self.labels)

    @property
    def order(self) -> tuple[int, ...]:
        """Data indices in visual reading order (position 1 first)."""
        idx = tuple(range(self.n))
        return idx[::-1] if self.geometry.reversed_order else idx

    @property
    def values_readable(self) -> bool:
        """True if absolute values can be read off the image (a value axis or value labels).

        A pie without value labels shows only shares, so "what is the value of X" has no
        visual answer there; templates that need absolute values check this.
        """
        return bool(self.spec.style.value_labels or CHARTS.get(self.spec.kind).value_axis)

    def index(self, label: str) -> int:
        """Data index of ``label`` (KeyError naming it if absent)."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(f"no category {label!r} in the chart") from None

    def value(self, label: str) -> float:
        return self.values[self.index(label)]

    def position(self, label: str) -> int:
        """1-based visual position of ``label``."""
        return self.order.index(self.index(label)) + 1

    def at_position(self, k: int) -> int:
        """Data index at 1-based visual position ``k`` (negative counts from the end)."""
        return self.order[k - 1 if k > 0 else k]

    def mark_colors(self) -> tuple[str, ...]:
        """Hex colour of every mark in data order (per-mark colours when the spec has them)."""
        if CHARTS.get(self.spec.kind).legend_items == "categories":  # pie: one encoding per wedge
            return tuple(e.color for e in self.spec.encodings)
        enc = self.spec.encodings[0]
        return tuple(enc.colors) if enc.colors else (enc.color,) * self.n

    def color_name(self, label: str) -> str | None:
        """Plain colour name of ``label``'s mark, or None if the colour has no unambiguous name."""
        return color_name(self.mark_colors()[self.index(label)])

    def box(self, label: str) -> tuple[float, float, float, float] | None:
        """Normalized box of ``label``'s mark from the renderer, if rendered."""
        return self.boxes.get(f"mark/0/{self.index(label)}")

    def visually_distinct(self, a: float, b: float) -> bool:
        """True if two sizes differ by at least VISUAL_MARGIN of the largest mark."""
        return abs(a - b) >= VISUAL_MARGIN * max(abs(v) for v in self.values)
