"""Evidence stays visible: every legend row's chart has no text over more than 25% of a mark,
and every label is readable (no text over text, no legend over axis text: ``core.readability``).

A question is only fair if the marks it reads can be seen, and a legend drawn inside the
axes (or a value label, or the title) can sit on them. :class:`Renders` renders each
distinct legend state of one base item once and keeps what the checks need: its image, the
legend boxes stored with the row, the occlusions (``core.occlusion``) and the largest share
of a data mark any text covers (the ``occlusion_max`` column).

Builders enforce visibility by construction: :func:`fit_layout` moves a box legend that
hides marks to another position (outside the axes first, where it can cover none), and
:func:`visible_unit` resamples the base unit from a fresh local stream when no layout
clears it (value labels or the title are the culprit). Variants whose render hides a mark
are skipped (``groups.group_rows``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.occlusion import Occlusion, occlusions
from ..core.readability import legend_text_cover_max, readability_problems, text_overlap_max
from ..core.spec import ChartSpec
from .measure import render_chart
from .space import Unit
from .unit import LegendSide, compose

__all__ = ["MAX_ATTEMPTS", "OUTSIDE", "Hidden", "Renders", "Shot", "fit_layout", "occlusion_max", "relayouts",
           "visible_unit"]

OUTSIDE = ("outside right", "outside bottom")
"""Box-legend positions outside the axes (``core.render`` places them with the figure legend)."""
MAX_ATTEMPTS = 40
"""Fresh draws of a base unit before the builder gives up (loudly)."""
LEGEND_BOX = "legend/box"

Hidden = Callable[[Unit], list[Occlusion]]
"""The occlusions of every chart a unit will be rendered as (empty: all marks visible)."""


def occlusion_max(boxes: dict[str, Any]) -> float:
    """The largest share of any data mark covered by any text element (0.0 when none overlaps)."""
    return max((o.share for o in occlusions(boxes, limit=0.0)), default=0.0)


@dataclass(frozen=True)
class Shot:
    """One rendered legend state and what the rows and the checks read from it."""

    image: dict[str, Any]
    legend_boxes: str
    """JSON of the rendered ``legend/*`` boxes."""
    occlusions: tuple[Occlusion, ...]
    """What makes the render unfit: marks under text (``core.occlusion``) and unreadable text
    (``core.readability``: text over text, the legend over axis text)."""
    occlusion_max: float
    text_overlap_max: float = 0.0
    legend_text_cover_max: float = 0.0
    ticks: dict[str, tuple[float, ...]] = field(default_factory=dict)
    """The render's labelled tick values per guide (``Rendered.ticks``): numeric tolerances."""


@dataclass
class Renders:
    """Renders each distinct composed spec once (variants of many groups share images)."""

    _shots: dict[str, Shot] = field(default_factory=dict)
    style: Any = None
    """A :class:`~chartprobe.dataset_builders.core.style_axis.DrawStyle` every state is drawn in (None:
    the spec's own theme, matplotlib). One ``Renders`` per style: the cache is keyed by the spec."""

    def shot(self, chart: ChartSpec, legend: LegendSide) -> tuple[Shot, str]:
        """The render of ``(chart, legend)`` and the composed spec's JSON."""
        spec = compose(chart, legend)
        if self.style is not None:
            spec = self.style.apply(spec)
        key = spec.to_json()
        if key not in self._shots:
            rendered = render_chart(spec) if self.style is None else self.style.render(spec)
            boxes = {k: v for k, v in rendered.boxes.items() if k.startswith("legend/")}
            self._shots[key] = Shot(image={"bytes": rendered.png, "path": None},
                                    legend_boxes=json.dumps(boxes, sort_keys=True),
                                    occlusions=(*occlusions(rendered.boxes),
                                                *readability_problems(rendered.boxes, rendered.slanted)),
                                    occlusion_max=round(occlusion_max(rendered.boxes), 4),
                                    text_overlap_max=round(text_overlap_max(rendered.boxes, rendered.slanted), 4),
                                    legend_text_cover_max=round(legend_text_cover_max(rendered.boxes), 4),
                                    ticks=rendered.ticks)
        return self._shots[key], key

    def hidden(self, chart: ChartSpec, legend: LegendSide) -> list[Occlusion]:
        """The occlusions of ``(chart, legend)``'s render."""
        return list(self.shot(chart, legend)[0].occlusions)

    def first_hidden(self, states: Iterable[tuple[ChartSpec, LegendSide]]) -> list[Occlusion]:
        """The occlusions of the first of ``states`` that hides a mark (empty when none does)."""
        for chart, legend in states:
            hid = self.hidden(chart, legend)
            if hid:
                return hid
        return []


def relayouts(legend: LegendSide, allowed: Sequence[str]) -> list[LegendSide]:
    """``legend`` re-laid out, most preferred first: the allowed positions outside the axes,
    the other allowed positions, then outside positions the space does not list (a legend
    outside the axes covers no mark, so it is the layout of last resort)."""
    if legend.form != "box":
        return []
    order = [p for p in allowed if p in OUTSIDE] + list(allowed) + list(OUTSIDE)
    return [legend.replace(position=p) for p in dict.fromkeys(order) if p != legend.position]


def fit_layout(unit: Unit, allowed: Sequence[str], hidden: Hidden) -> Unit | None:
    """``unit`` as drawn if its marks are visible, else re-laid out so they are; None if no layout helps."""
    hid = hidden(unit)
    if not hid:
        return unit
    if all(o.text != LEGEND_BOX and o.mark.startswith("mark/") for o in hid):
        return None  # value labels or the title hide marks: moving the legend cannot fix it
    # The legend hides something, or text collides: a box legend elsewhere (it also resizes the
    # axes, which may part crowded tick labels) is tried before a redraw.
    for legend in relayouts(unit.legend, allowed):
        moved = dataclasses.replace(unit, legend=legend)
        if not hidden(moved):
            return moved
    return None


def visible_unit(draw: Callable[[np.random.Generator], Unit], stream: Callable[[int], np.random.Generator],
                 allowed: Sequence[str], hidden: Hidden) -> Unit:
    """The first draw (attempt ``a`` samples from ``stream(a)``) that some layout makes visible."""
    for attempt in range(MAX_ATTEMPTS):
        unit = fit_layout(draw(stream(attempt)), allowed, hidden)
        if unit is not None:
            return unit
    raise ValueError(f"no base chart with every mark visible in {MAX_ATTEMPTS} draws; widen the preset's ranges")
