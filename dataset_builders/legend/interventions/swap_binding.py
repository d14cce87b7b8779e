"""Mapping-altering: swap the label <-> encoding bindings of the target and another entry."""

from __future__ import annotations

import dataclasses

from ..unit import item_labels
from . import intervention
from ._base import Intervention


@intervention("swap_binding")
class SwapBinding(Intervention):
    """The marks stay put; the legend now names them differently, so answers must follow.

    Plain legends swap two labels; compositional legends swap two levels of one factor
    (the target's colour level, else its other level).
    """

    family = "altering"
    forms = ("box", "direct")
    per_target = True
    description = "swap the target's label with another entry's"

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.target) and len(st.labels) >= 2

    def apply(self, st, probe, rng):
        lg = st.legend
        if lg.factors:
            item = st.item_of(probe.target)
            out = []
            for f_index, f in enumerate(lg.factors):
                levels = list(f.levels)
                mine = f.item_levels[item]
                for other in rng.permutation(len(levels)):
                    if int(other) != mine:
                        levels[mine], levels[int(other)] = levels[int(other)], levels[mine]
                        factors = list(lg.factors)
                        factors[f_index] = dataclasses.replace(f, levels=tuple(levels))
                        new = lg.replace(factors=tuple(factors))
                        out.append(new.replace(labels=item_labels(new)))
                        break
            return out
        labels = list(lg.labels)
        mine = labels.index(probe.target)
        out = []
        for other in rng.permutation(len(labels)):
            if int(other) != mine:
                swapped = list(labels)
                swapped[mine], swapped[int(other)] = swapped[int(other)], swapped[mine]
                out.append(lg.replace(labels=tuple(swapped)))
        return out

