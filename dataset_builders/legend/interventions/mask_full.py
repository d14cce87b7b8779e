"""Answerability: remove the whole legend (paper §6.3 Mask_Full)."""

from __future__ import annotations

from . import intervention
from ._base import Intervention


@intervention("mask_full")
class MaskFull(Intervention):
    """No legend region at all: questions that need it become unanswerable."""

    family = "answerability"
    forms = ("box", "direct", "colorbar")
    description = "remove the entire legend"

    def apply(self, st, probe, rng):
        return [st.legend.replace(form="none")]
