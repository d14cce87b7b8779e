"""Mapping-preserving: shrink the legend's text (and handles with it)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention

FACTOR = 0.65


@intervention("scale_down")
class ScaleDown(Intervention):
    """A smaller legend is harder to read but declares the same mapping."""

    family = "preserving"
    forms = ("box", "direct", "colorbar")
    description = f"legend font x{FACTOR}"

    def apply(self, st, probe, rng):
        return [st.legend.replace(font_scale=round(max(0.5, st.legend.font_scale * FACTOR), 3))]
