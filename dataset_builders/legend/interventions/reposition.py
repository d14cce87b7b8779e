"""Mapping-preserving: move the legend to another (possibly atypical) place."""

from __future__ import annotations

from . import intervention
from ._base import Intervention

POSITIONS = ("upper left", "lower left", "lower right", "upper right", "center left", "upper center",
             "outside right", "outside bottom")


@intervention("reposition")
class Reposition(Intervention):
    """Same entries, same mapping, another location."""

    family = "preserving"
    description = "move the legend box"

    def apply(self, st, probe, rng):
        options = [p for p in POSITIONS if p != st.legend.position]
        drawn = options[int(rng.integers(len(options)))]
        # Fallbacks for a drawn place that would cover marks: outside the axes first (no mark there).
        rest = sorted((p for p in options if p != drawn), key=lambda p: not p.startswith("outside"))
        return [st.legend.replace(position=p) for p in (drawn, *rest)]
