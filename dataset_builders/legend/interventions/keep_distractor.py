"""Answerability: show only one non-target entry (paper §6.3 Keep_Distractor)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention, unread_entries


@intervention("keep_distractor")
class KeepDistractor(Intervention):
    """Only irrelevant evidence remains visible."""

    family = "answerability"
    forms = ("box", "direct")
    per_target = True
    description = "show only a random non-target entry"

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.evidence) and bool(unread_entries(st, probe))

    def apply(self, st, probe, rng):
        others = unread_entries(st, probe)
        return [self.with_visible(st, {others[int(rng.integers(len(others)))]})]
