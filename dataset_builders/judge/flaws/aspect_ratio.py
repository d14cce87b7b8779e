"""Aspect Ratio (Visual Effects): one figure dimension moderately compressed, the other kept
(paper Appendix B.2.1, Dimension 3: "One Dimension Only", "Noticeable but Safe").

Verified on the PNG size: exactly one side shrinks, by a factor in [0.45, 0.8].
"""

from __future__ import annotations

import dataclasses

from . import flaw
from ._base import Flaw, Strategy


class _Squash(Strategy):
    side: str

    def apply(self, spec, rng):
        factor = float(rng.uniform(0.5, 0.65))
        value = round(max(getattr(spec.style, self.side) * factor, 1.5), 2)
        return spec.replace(style=dataclasses.replace(spec.style, **{self.side: value}))

    def verify(self, before, after, better, worse):
        kept = "width" if self.side == "height" else "height"
        if getattr(before, kept) != getattr(after, kept):
            return None
        ratio = getattr(after, self.side) / getattr(before, self.side)
        if not 0.45 <= ratio <= 0.8:
            return None
        return {"compressed": self.side, "ratio": round(ratio, 3),
                "size_before": [before.width, before.height], "size_after": [after.width, after.height]}


class Vertical(_Squash):
    name = "vertical_squash"
    description = "Strategy A (Vertical Squashing): keep the width, make the height noticeably short."
    side = "height"


class Horizontal(_Squash):
    name = "horizontal_squeeze"
    description = "Strategy B (Horizontal Squeezing): keep the height, make the width noticeably narrow."
    side = "width"


@flaw("aspect_ratio")
class AspectRatio(Flaw):
    """A flattened or crowded figure."""

    strategies = (Vertical(), Horizontal())
