"""Text Occlusion (Layout Structure): colliding tick labels, axis labels pressed into the
ticks, value labels centred on their points (paper Appendix B.2.1, Dimension 7). Never alpha=0.

Verified on boxes: text boxes that did not overlap now do; centred labels sit on their marks.
"""

from __future__ import annotations

import dataclasses

from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy


def _axes(spec, **changes):
    return spec.replace(axes=dataclasses.replace(spec.axes, **changes))


class TickCollision(Strategy):
    name = "tick_collision"
    description = "Strategy A (The Tick Collision): rotation=0 for long x-axis labels that clearly need rotation."
    kinds = ("bar", "grouped_bar", "stacked_bar", "line", "area", "heatmap")

    def applies(self, spec):
        return super().applies(spec) and spec.data.x_values is None

    def apply(self, spec, rng):
        return _axes(spec, x_tick_rotation=0.0)

    def verify(self, before, after, better, worse):
        new = sorted(p for p in ev.text_collisions(after) - ev.text_collisions(before)
                     if p[0].startswith("tick/x/") and p[1].startswith("tick/x/"))
        return {"colliding_tick_labels": [list(p) for p in new]} if new else None


class SuffocatingLabel(Strategy):
    name = "suffocating_label"
    description = "Strategy B (The Suffocating Label): labelpad set to 0 or a small negative number."
    kinds = ("bar", "hbar", "grouped_bar", "stacked_bar", "line", "scatter", "area")

    def applies(self, spec):
        return super().applies(spec) and bool(spec.axes.x_label or spec.axes.y_label)

    def apply(self, spec, rng):
        return _axes(spec, label_pad=round(float(rng.uniform(-14.0, -8.0)), 1))

    def verify(self, before, after, better, worse):
        new = sorted(p for p in ev.text_collisions(after) - ev.text_collisions(before)
                     if any(k.startswith("axis/") for k in p))
        return {"label_pad": worse.axes.label_pad, "colliding": [list(p) for p in new]} if new else None


class LazyAnnotation(Strategy):
    name = "lazy_annotation"
    description = "Strategy C (The Lazy Annotation): text at the EXACT (x, y) of the data point with ha='center', va='center'."
    kinds = ("bar", "hbar", "grouped_bar", "line", "scatter")

    def prepare(self, spec, rng):
        return spec.replace(style=dataclasses.replace(spec.style, value_labels=True))

    def apply(self, spec, rng):
        return spec.replace(style=dataclasses.replace(spec.style, value_label_anchor="center"))

    @staticmethod
    def _on_mark(r) -> list[str]:
        out = []
        for key in (k for k in r.boxes if k.startswith("value_label/")):
            mark = "mark/" + key.split("/", 1)[1]
            if mark not in r.boxes:
                continue
            lx0, ly0, lx1, ly1 = ev.px_box(r, key)
            mx0, my0, mx1, my1 = ev.px_box(r, mark)
            cx, cy = (lx0 + lx1) / 2, (ly0 + ly1) / 2
            if mx0 - 2 <= cx <= mx1 + 2 and my0 - 2 <= cy <= my1 + 2:
                out.append(key)
        return sorted(out)

    def verify(self, before, after, better, worse):
        labels = [k for k in after.boxes if k.startswith("value_label/")]
        on_b, on_a = self._on_mark(before), self._on_mark(after)
        if not labels or on_b or len(on_a) < 0.8 * len(labels):
            return None
        return {"labels_on_marks": len(on_a), "labels": len(labels), "example": on_a[0]}


@flaw("text_occlusion")
class TextOcclusion(Flaw):
    """Text that overlaps other text or the data it labels."""

    strategies = (TickCollision(), SuffocatingLabel(), LazyAnnotation())
