"""Answerability: show only one non-target entry (paper §6.3 Keep_Distractor)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention, entry_index


@intervention("keep_distractor")
class KeepDistractor(Intervention):
    """Only irrelevant evidence remains visible."""

    family = "answerability"
    forms = ("box", "direct")
    per_target = True
    description = "show only a random non-target entry"

    def _others(self, st, probe):
        needed = {entry_index(b) for b in probe.evidence}
        return [k for k in range(st.legend.n_entries) if k not in needed]

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.evidence) and bool(self._others(st, probe))

    def apply(self, st, probe, rng):
        others = self._others(st, probe)
        return [self.with_visible(st, {others[int(rng.integers(len(others)))]})]
