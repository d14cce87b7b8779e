"""Answerability: remove only the target's entry (paper §6.3 Hide_Target)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention, entry_index


@intervention("hide_target")
class HideTarget(Intervention):
    """The other entries stay: a guess by elimination is not evidence, so the answer is "I don't know"."""

    family = "answerability"
    forms = ("box", "direct")
    per_target = True
    description = "remove only the target entry"

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.primary) and st.legend.n_entries >= 2

    def apply(self, st, probe, rng):
        hidden = {entry_index(b) for b in probe.primary}
        return [self.with_visible(st, set(range(st.legend.n_entries)) - hidden)]
