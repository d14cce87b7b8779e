"""Color Consistency (Visual Effects): indistinguishable, invisible, mismatched or
counter-intuitive colours (paper Appendix B.2.1, Dimension 1). Chart type and data never change.

Colours are verified on the pixels at the centres of the measured marks and legend handles.
"""

from __future__ import annotations

import colorsys
import dataclasses

import numpy as np

from ...core.spec import ChartSpec
from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy

# Kinds whose mark-box centres land on solid colour (bars, wedges, markers, line vertices).
_SOLID = ("bar", "hbar", "grouped_bar", "stacked_bar", "pie", "line", "scatter", "radar")
_LIGHT = ("#ffffe0", "#e0ffff", "#e6e6fa")  # lightyellow, lightcyan, lavender (the paper's)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{min(max(round(v * 255), 0), 255):02x}" for v in rgb)


def _items(spec: ChartSpec) -> int:
    return len(spec.encodings)


def _item_keys(r, spec: ChartSpec, item: int) -> list[str]:
    """Mark ids drawn in legend item ``item``'s colour."""
    if spec.kind == "pie":
        return [f"mark/0/{item}"]
    return ev.mark_keys(r, item)


def _colors(r, spec: ChartSpec) -> list[tuple | None]:
    return [ev.item_color(r, _item_keys(r, spec, i)) for i in range(_items(spec))]


def _recolor(spec: ChartSpec, colors: list[str]) -> ChartSpec:
    encs = tuple(dataclasses.replace(e, color=c, colors=None) for e, c in zip(spec.encodings, colors))
    return spec.replace(encodings=encs)


def _min_pair(colors: list[tuple]) -> float:
    return min(ev.color_distance(a, b) for i, a in enumerate(colors) for b in colors[i + 1:])


class Monochrome(Strategy):
    name = "indistinguishable_categories"
    description = ("Indistinguishable Categories: a monochromatic scheme where all elements use "
                   "extremely similar shades (e.g. 5 almost identical shades of blue).")
    kinds = _SOLID

    def applies(self, spec: ChartSpec) -> bool:
        return super().applies(spec) and _items(spec) >= 2 and not any(e.colors for e in spec.encodings)

    def apply(self, spec, rng):
        hue = float(rng.uniform(0, 1))
        n = _items(spec)
        colors = [_hex(colorsys.hls_to_rgb(hue, 0.42 + 0.025 * i, 0.65)) for i in range(n)]
        return _recolor(spec, colors)

    def verify(self, before, after, better, worse):
        cb, ca = _colors(before, better), _colors(after, worse)
        if None in cb or None in ca:
            return None
        gap_before, gap_after = _min_pair(cb), _min_pair(ca)
        if gap_before < 80 or gap_after > 35:
            return None
        return {"min_item_color_distance_before": round(gap_before, 1),
                "min_item_color_distance_after": round(gap_after, 1)}


class LowVisibility(Strategy):
    name = "low_visibility"
    whole_picture = True
    description = ("Low Visibility: data colours changed to 'lightyellow', 'lightcyan' or 'lavender', "
                   "barely visible against a white background.")
    kinds = _SOLID

    def applies(self, spec: ChartSpec) -> bool:
        return super().applies(spec) and spec.style.theme in ("default", "minimal", "classic")

    def apply(self, spec, rng):
        start = int(rng.integers(len(_LIGHT)))
        return _recolor(spec, [_LIGHT[(start + i) % len(_LIGHT)] for i in range(_items(spec))])

    def verify(self, before, after, better, worse):
        bg_b, bg_a = ev.background(before), ev.background(after)
        cb, ca = _colors(before, better), _colors(after, worse)
        if None in cb or None in ca:
            return None
        worst_before = min(ev.contrast_ratio(c, bg_b) for c in cb)
        best_after = max(ev.contrast_ratio(c, bg_a) for c in ca)
        if worst_before < 1.5 or best_after > 1.25:
            return None
        return {"min_contrast_before": round(worst_before, 2), "max_contrast_after": round(best_after, 2)}


class LegendMismatch(Strategy):
    name = "legend_mismatch"
    description = "Aesthetic Clashing: a Legend Mismatch (legend colors differ from data colors)."
    kinds = _SOLID

    def applies(self, spec: ChartSpec) -> bool:
        return super().applies(spec) and spec.legend.form == "box" and _items(spec) >= 2

    def apply(self, spec, rng):
        colors = [e.color for e in spec.encodings]
        shift = 1 + int(rng.integers(len(colors) - 1))  # a derangement: every handle is wrong
        return spec.replace(legend=dataclasses.replace(
            spec.legend, colors=tuple(colors[(i + shift) % len(colors)] for i in range(len(colors)))))

    def verify(self, before, after, better, worse):
        gaps_before, gaps_after = [], []
        for i in range(_items(worse)):
            handle = f"legend/handle/{i}"
            if handle not in before.boxes or handle not in after.boxes:
                continue
            for r, spec, out in ((before, better, gaps_before), (after, worse, gaps_after)):
                mark, legend = ev.item_color(r, _item_keys(r, spec, i)), ev.item_color(r, [handle])
                if mark is None:
                    return None
                out.append(ev.color_distance(mark, legend))
        if not gaps_after or max(gaps_before) > 40 or max(gaps_after) < 80:
            return None
        return {"max_handle_mark_distance_before": round(max(gaps_before), 1),
                "max_handle_mark_distance_after": round(max(gaps_after), 1)}


class CounterIntuitive(Strategy):
    name = "counter_intuitive_colors"
    description = "Counter-Intuitive Colors: cool colors (blue) for 'High' and warm colors (red) for 'Low'."
    kinds = ("bar", "hbar")

    @staticmethod
    def _ramp(values, high_warm: bool) -> tuple[str, ...]:
        lo, hi = min(values), max(values)
        out = []
        for v in values:
            t = (v - lo) / (hi - lo) if hi > lo else 0.5
            t = t if high_warm else 1 - t
            out.append(_hex((0.2 + 0.65 * t, 0.3, 0.85 - 0.65 * t)))  # blue (t=0) -> red (t=1)
        return tuple(out)

    def prepare(self, spec, rng):
        values = spec.data.series[0].values  # the better chart: red for high, blue for low
        return spec.replace(encodings=(dataclasses.replace(spec.encodings[0], colors=self._ramp(values, True)),))

    def apply(self, spec, rng):
        values = spec.data.series[0].values
        return spec.replace(encodings=(dataclasses.replace(spec.encodings[0], colors=self._ramp(values, False)),))

    def verify(self, before, after, better, worse):
        values = better.data.series[0].values
        top, low = f"mark/0/{int(np.argmax(values))}", f"mark/0/{int(np.argmin(values))}"

        def warmth(r, key):
            c = ev.item_color(r, [key])
            return None if c is None else c[0] - c[2]

        w = [warmth(before, top), warmth(before, low), warmth(after, top), warmth(after, low)]
        if None in w or not (w[0] > 60 and w[1] < -60 and w[2] < -60 and w[3] > 60):
            return None
        return {"highest_bar_warmth_before": w[0], "highest_bar_warmth_after": w[2],
                "lowest_bar_warmth_before": w[1], "lowest_bar_warmth_after": w[3]}


@flaw("color_consistency")
class ColorConsistency(Flaw):
    """Colours that hide the categories, vanish, contradict the legend or the meaning."""

    strategies = (Monochrome(), LowVisibility(), LegendMismatch(), CounterIntuitive())
