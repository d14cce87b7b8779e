"""Elimination-answerable abstain rows: a hidden legend entry the visible ones give away.

LegendBench's strict rule (``templates._base.LegendTemplate.gold``, paper §4.3/§6.3) makes the gold
"I don't know" whenever a legend entry the question needs is not displayed: "a guess by
elimination is not evidence". Some of those rows can still be answered by elimination. On a
2-series chart under ``hide_target`` or ``keep_distractor`` the one visible entry names one
series, so the other marks must be the target the question names. The same holds whenever
the target's entry is the *only* hidden one, e.g. ``hide_target`` on 3 or more series, where
one mark style is left over once the visible entries are read. The
``elimination_answerable`` row column flags these rows so metrics can report abstention with
and without them (``eval_tasks/metrics/legend.py``). The gold stays the paper's.

A row is elimination-answerable when all of these hold:

1. some entry the question needs (``evidence``) is hidden, i.e. its gold is "I don't know";
2. the template is label-anchored (``anchor == "label"``): the question names each label it
   asks about. An item-anchored question ("which label is assigned to the red line?") asks
   for the hidden label itself, and no other part of the chart shows it;
3. every hidden needed entry is a box or direct-label entry (a hidden colour bar's scale cannot
   be worked out from the marks);
4. in every *entry group* holding a hidden needed entry, that entry is the only hidden one. A
   plain legend is one group (one entry per series or wedge). A compositional legend has one
   group per factor (its levels): each level value on the marks that no visible entry of the
   factor explains belongs to the single hidden level.

So ``mask_full`` (every entry hidden) is elimination-answerable only on a 1-entry legend,
``keep_distractor`` only on 2 series, and ``keep_target`` only when the question's other label
is the single hidden entry (2 series).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .unit import LegendSide, side_from_json

__all__ = ["elimination_answerable", "entry_groups", "hidden_entries", "row_elimination_answerable"]

_ENTRY_PREFIXES = ("legend/entry/", "legend/direct/")


def hidden_entries(legend: LegendSide) -> set[int]:
    """Indices of the legend entries the render does not display (all of them with no legend)."""
    n = legend.n_entries
    if legend.form == "none":
        return set(range(n))
    if legend.visible is None:
        return set()
    return {k for k, on in enumerate(legend.visible) if not on}


def entry_groups(legend: LegendSide) -> list[range]:
    """Entry indices grouped by what one mark style is told apart by: the factors' levels of a
    compositional legend, else every entry in one group."""
    if not legend.factors:
        return [range(legend.n_entries)]
    out, offset = [], 0
    for f in legend.factors:
        out.append(range(offset, offset + len(f.levels)))
        offset += len(f.levels)
    return out


def elimination_answerable(legend: LegendSide, evidence: Sequence[str], anchor: str) -> bool:
    """Whether a question needing ``evidence`` (legend box ids) on ``legend`` is unanswerable under
    the strict rule but answerable by elimination (the module docstring's four conditions)."""
    if anchor != "label" or legend.form == "colorbar":
        return False
    hidden = hidden_entries(legend)
    needed: set[int] = set()
    for box in evidence:
        if not box.startswith(_ENTRY_PREFIXES):
            if legend.form == "none":
                return False  # a needed colour bar (or other non-entry evidence) was removed
            continue
        k = int(box.rsplit("/", 1)[1])
        if k in hidden:
            needed.add(k)
    if not needed:
        return False  # the evidence is visible: the row is answerable outright
    for group in entry_groups(legend):
        if needed & set(group) and len(hidden & set(group)) != 1:
            return False
    return True


def row_elimination_answerable(row: Mapping[str, Any]) -> bool:
    """:func:`elimination_answerable` from a row's own columns (``legend_spec``, ``evidence``,
    ``template``): the check re-run on any published row."""
    from .templates import LEGEND_TEMPLATES

    legend = side_from_json(str(row["legend_spec"]))
    evidence = json.loads(str(row.get("evidence") or "[]"))
    anchor = LEGEND_TEMPLATES.get(str(row["template"])).anchor
    return elimination_answerable(legend, evidence, anchor)
