"""Mapping-preserving: shuffle the order of the legend entries."""

from __future__ import annotations

from . import intervention
from ._base import Intervention


@intervention("reorder")
class Reorder(Intervention):
    """A new entry order; every label keeps its encoding, so the answer must not change."""

    family = "preserving"
    description = "shuffle legend entries"

    def applies(self, st, probe):
        return super().applies(st, probe) and st.legend.n_entries >= 2

    def apply(self, st, probe, rng):
        n = st.legend.n_entries
        current = tuple(st.legend.order or range(n))
        for _ in range(20):
            order = tuple(int(i) for i in rng.permutation(n))
            if order != current:
                return [st.legend.replace(order=order)]
        return [st.legend.replace(order=current[1:] + current[:1])]
