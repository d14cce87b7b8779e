"""Visual Style (Visual Effects): marks too heavy, or too thin/faint but never invisible
(paper Appendix B.2.1, Dimension 2: "the 'Not Extreme' rule").

Verified on pixels: the share of the plotting area covered by visible ink grows (heavy) or
shrinks (thin), and faint marks lose contrast against the background yet keep some.
"""

from __future__ import annotations

import dataclasses

from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy

_KINDS = ("bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "radar", "area")


def _style(spec, **changes):
    return spec.replace(style=dataclasses.replace(spec.style, **changes))


class Heavy(Strategy):
    name = "too_heavy"
    whole_picture = True
    description = ("Strategy A: increase the size/width of elements significantly beyond standard "
                   "defaults: heavy and clumsy, but not so huge that they obscure the plot.")
    kinds = _KINDS

    def apply(self, spec, rng):
        return _style(spec, mark_scale=round(float(rng.uniform(2.6, 3.4)), 2))

    def verify(self, before, after, better, worse):
        ink_b, ink_a = ev.ink_fraction(before), ev.ink_fraction(after)
        if ink_b <= 0 or not (1.15 <= ink_a / ink_b) or ink_a > 0.85:
            return None
        return {"mark_scale": worse.style.mark_scale, "ink_before": round(ink_b, 4), "ink_after": round(ink_a, 4)}


class Thin(Strategy):
    name = "too_thin"
    whole_picture = True
    description = "Strategy B: decrease the size/width of elements so they appear frail, but NOT invisible."
    kinds = _KINDS

    def apply(self, spec, rng):
        return _style(spec, mark_scale=round(float(rng.uniform(0.25, 0.4)), 2))

    def verify(self, before, after, better, worse):
        ink_b, ink_a = ev.ink_fraction(before), ev.ink_fraction(after)
        if ink_b <= 0 or not (0.1 <= ink_a / ink_b <= 0.8):
            return None
        return {"mark_scale": worse.style.mark_scale, "ink_before": round(ink_b, 4), "ink_after": round(ink_a, 4)}


class Faint(Strategy):
    name = "too_faint"
    whole_picture = True
    description = "Strategy B: lower the alpha (transparency) so elements are hard to see, but NOT invisible."
    kinds = _KINDS

    def apply(self, spec, rng):
        return _style(spec, alpha=round(float(rng.uniform(0.15, 0.25)), 2))

    def verify(self, before, after, better, worse):
        keys = [k for k in ev.mark_keys(before) if k in after.boxes]
        bg_b, bg_a = ev.background(before), ev.background(after)
        cb, ca = ev.item_color(before, keys), ev.item_color(after, keys)
        if cb is None or ca is None:
            return None
        d_b, d_a = ev.color_distance(cb, bg_b), ev.color_distance(ca, bg_a)
        if d_b < 60 or not (12 <= d_a <= 0.45 * d_b):
            return None
        return {"alpha": worse.style.alpha, "mark_background_distance_before": round(d_b, 1),
                "mark_background_distance_after": round(d_a, 1)}


@flaw("visual_style")
class VisualStyle(Flaw):
    """Mark sizes and opacity that make a chart look amateurish."""

    strategies = (Heavy(), Thin(), Faint())
