"""Binding a LegendBench question's labels to legend entries without reading them.

What the ``first_entry`` validity agent answers (the labels bound to the first displayed entries)
and its chance (:func:`random_binding_accuracy`: every injective binding of the named labels to
the displayed entries, equally likely), on answerable rows whose question names labels.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from statistics import fmean
from typing import Any

__all__ = ["first_entry_answer", "random_binding_accuracy"]

Row = Mapping[str, Any]


def _bindable(row: Row) -> tuple[Any, dict[str, Any], Any, list[str]] | None:
    """(state, params, template, displayed labels) of an answerable row whose question names labels."""
    from chartprobe.dataset_builders.legend.program import state_of_row
    from chartprobe.dataset_builders.legend.templates._base import ABSTAIN

    if not row.get("program") or str(row.get("answer")) == ABSTAIN:
        return None
    try:
        st, params, tpl = state_of_row(row)
    except (KeyError, TypeError, ValueError):
        return None
    lg = st.legend
    # A compositional legend's entries are factor levels, not items: no "first item" to bind to.
    if tpl.anchor != "label" or not params.get("labels") or lg.form not in ("box", "direct") or lg.factors:
        return None
    order = lg.order if lg.order is not None else tuple(range(lg.n_entries))
    shown = [st.labels[k] for k in order if (lg.visible is None or lg.visible[k]) and k < len(st.labels)]
    if len(shown) < len(params["labels"]):
        return None
    return st, params, tpl, shown


def _answer_bound(st: Any, params: dict[str, Any], tpl: Any, labels: tuple[str, ...]) -> str | None:
    """The template's answer with the question's labels bound to ``labels`` (None: ill-posed)."""
    try:
        return tpl.answer(st, {**params, "labels": list(labels)})
    except (KeyError, IndexError, ValueError, ZeroDivisionError):
        return None


def random_binding_accuracy(suite: Any, row: Row) -> float | None:
    """Mean score over every injective binding of the row's labels to displayed entries (None: not bindable)."""
    found = _bindable(row)
    if found is None:
        return None
    st, params, tpl, shown = found
    scores = [suite.accuracy(suite.score(row, ans))
              for labels in itertools.permutations(shown, len(params["labels"]))
              if (ans := _answer_bound(st, params, tpl, labels)) is not None]
    return fmean(scores) if scores else None


def first_entry_answer(row: Row) -> str | None:
    """The row's answer with its k-th named label bound to the k-th displayed entry (None: not bindable)."""
    found = _bindable(row)
    if found is None:
        return None
    st, params, tpl, shown = found
    return _answer_bound(st, params, tpl, tuple(shown[: len(params["labels"])]))
