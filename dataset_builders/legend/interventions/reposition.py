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
        return [st.legend.replace(position=options[int(rng.integers(len(options)))])]
