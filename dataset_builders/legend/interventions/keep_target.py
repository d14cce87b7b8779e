"""Answerability: show only the target's entry (paper §6.3 Keep_Target)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention, entry_index


@intervention("keep_target")
class KeepTarget(Intervention):
    """Answerable only if the target's entry is all the question needs."""

    family = "answerability"
    forms = ("box", "direct")
    per_target = True
    description = "show only the target entry"

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.primary) and st.legend.n_entries >= 2

    def apply(self, st, probe, rng):
        return [self.with_visible(st, {entry_index(b) for b in probe.primary})]
