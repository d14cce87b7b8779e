"""Answerability, the answerable side: hide entries the question does not need.

The paper's four occlusion policies (``mask_full``, ``keep_target``, ``hide_target``,
``keep_distractor``) almost always leave a question unanswerable, so on their own "the legend is
incomplete" predicts "I don't know" (the ``incomplete_legend`` validity agent). This edit is the
matched control: part of the legend is gone, but every entry the question needs stays, so the
answer must not change. Groups pair each unanswerable occlusion with one of these (``groups``).
"""

from __future__ import annotations

import itertools

from . import intervention
from ._base import Intervention, unread_entries

MAX_CANDIDATES = 16
"""Hidden subsets offered, most preferred first (a group skips ones already asked)."""


@intervention("hide_distractor")
class HideDistractor(Intervention):
    """Hide a random non-empty set of entries the question does not read."""

    family = "answerability"
    forms = ("box", "direct")
    per_target = True
    description = "remove some non-target entries (the answer stays)"

    def applies(self, st, probe):
        return super().applies(st, probe) and bool(probe.evidence) and bool(unread_entries(st, probe))

    def apply(self, st, probe, rng):
        others = unread_entries(st, probe)
        subsets = [s for size in range(1, len(others) + 1) for s in itertools.combinations(others, size)]
        picked = [subsets[int(i)] for i in rng.permutation(len(subsets))[:MAX_CANDIDATES]]
        keep = set(range(st.legend.n_entries))
        return [self.with_visible(st, keep - set(hidden)) for hidden in picked]
