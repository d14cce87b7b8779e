"""The prediction filters every dataset view offers: "only wrong" and "models disagree".

An item's verdicts are the item accuracies of the loaded models that have a prediction for
it (1 correct, 0 wrong, between: partial credit). **only wrong**: at least one model is not
fully right on it. **models disagree**: two models with a prediction score it differently
(one right, another wrong), so it needs two or more models loaded and is offered only then.
A unit (chart, family, group, pair) passes when one of its items does.
"""

from __future__ import annotations

from collections.abc import Iterable

from chartspace.html import Markup, esc
from chartspace.predictions import PredictionSet

__all__ = ["DISAGREE", "ONLY_WRONG", "filter_note", "item_passes", "unit_passes", "verdict_choices"]

ONLY_WRONG = "only wrong"
DISAGREE = "models disagree"
_EPS = 1e-9


def verdict_choices(preds: PredictionSet, all_label: str) -> list[str]:
    """The filter's options for what is loaded: everything; only wrong (one model or more);
    models disagree (two or more)."""
    n = len(preds.runs)
    return [all_label] + ([ONLY_WRONG] if n else []) + ([DISAGREE] if n >= 2 else [])


def item_passes(preds: PredictionSet, release: str, row_id: str, mode: str | None) -> bool:
    """Whether one item passes the filter ``mode`` (anything else than the two filters keeps it)."""
    if mode not in (ONLY_WRONG, DISAGREE):
        return True
    scores = [s for s, _ in preds.lookup(release, str(row_id)).values() if s is not None]
    if mode == ONLY_WRONG:
        return any(s < 1.0 - _EPS for s in scores)
    return len(scores) >= 2 and max(scores) - min(scores) > _EPS


def unit_passes(preds: PredictionSet, release: str, row_ids: Iterable[str], mode: str | None) -> bool:
    """Whether a unit passes: one of its items does (every unit passes without a filter)."""
    return mode not in (ONLY_WRONG, DISAGREE) or any(item_passes(preds, release, r, mode) for r in row_ids)


def filter_note(header: str, mode: str | None) -> Markup:
    """A view's status line (HTML built by the view) with the prediction filter in force, if any."""
    if mode not in (ONLY_WRONG, DISAGREE):
        return Markup(header)
    return Markup(f"{header} · filter: <b>{esc(mode)}</b>")
