"""An Accept candidate must not show any flaw a verifier can see: the screen every CRJ Accept passes.

CRJ labels a faithful reproduction or an honest edit Accept. The paper's rubric rejects a
candidate that introduces a defect (a legend over the data, text collisions, a faint or
heavy style), so before an item is labelled Accept, every strategy's verifier of every CPA
flaw is run on (reference, candidate); a candidate any of them flags is redrawn. Measured
on 40 Accept candidates before the screen: 5 were flagged (visual_style/too_faint x2,
too_heavy, too_thin, component_positioning/legend_over_data).
"""

from __future__ import annotations

from typing import Any

from ..core.spec import ChartSpec
from .flaws import FLAWS

__all__ = ["flaws_shown"]


def flaws_shown(r_ref: Any, r_cand: Any, ref: ChartSpec, cand: ChartSpec) -> list[str]:
    """``<flaw>/<strategy>`` of every verifier that finds its flaw in the candidate."""
    shown = []
    for name, cls in FLAWS.items():
        for strategy in cls.strategies:
            if not strategy.applies(ref):
                continue
            try:
                found = strategy.verify(r_ref, r_cand, ref, cand)
            except (ValueError, KeyError, IndexError, StopIteration, TypeError, AttributeError):
                # A verifier reads the fields its own injection sets (the series it hid, the
                # label it moved); when the candidate has no such field, that flaw is absent.
                found = None
            if found:
                shown.append(f"{name}/{strategy.name}")
    return shown
