"""``stale``: answers every family member with the original's answer (Chartographer's stale prediction).

A model that ignores the counterfactual edit keeps its original answer; it is right on a
variant only when the variant's answer did not change. Its CVA is therefore the share of
variants whose answer stayed the same, which a family dataset must keep low, and its
stale-prediction rate (SP) is what the CU/NU/SP breakdown must expose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]


@agent("stale")
class Stale(Agent):
    description = "every family member gets the original's answer"
    suites = ("families",)

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        originals = {r["family_id"]: str(r["answer"]) for r in rows
                     if r.get("role") == "original" and r.get("family_id") is not None}
        return [originals.get(r.get("family_id")) for r in rows]
