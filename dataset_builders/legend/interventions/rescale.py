"""Mapping-altering for colour bars: relabel the scale while every cell keeps its colour."""

from __future__ import annotations

from . import intervention
from ._base import Intervention

SCALES = ((2.0, 0.0), (0.5, 0.0), (1.0, 50.0), (10.0, 0.0), (1.0, 100.0))


@intervention("rescale")
class Rescale(Intervention):
    """The bar now maps the same colours to ``a*v + b``: value answers must update.

    Not applied when values are printed on the cells: the printed numbers are chart-side
    pixels and would contradict the new scale.
    """

    family = "altering"
    forms = ("colorbar",)
    description = "relabel the colour-bar scale (a*v + b)"

    def applies(self, st, probe):
        return super().applies(st, probe) and not st.add_labels

    def apply(self, st, probe, rng):
        return [st.legend.replace(scale=SCALES[int(i)]) for i in rng.permutation(len(SCALES))
                if SCALES[int(i)] != st.legend.scale]
