"""The probes suite summary in one pass over the records: every group metric from cells.

:class:`~chartprobe.eval_tasks.suites.probes.ProbesSuite` summarises each model of a
``chartprobe score`` run (thousands of models at scale) with :func:`probe_summary`, per-skill,
per-template and per-domain macros and means, each a pass of its own over the records
(~3,000 record visits for a 318-record model). :func:`suite_summary` reads each record once
into cells keyed by (skill, domain, template) and derives every number from the cells. The
floats are the same: a mean is ``fsum(values) / len(values)``, correctly rounded and so
independent of the order values are gathered in (tests hold it to the record-wise functions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import fsum
from typing import Any

from .probes import CR_SKILL

__all__ = ["suite_summary"]

_VALUES = ("accuracy", "paper_accuracy", "fuzzy")


def _mean(values: Sequence[float]) -> float | None:
    return fsum(values) / len(values) if values else None


class _Cell:
    """The value lists of the records of one (skill, domain, template)."""

    __slots__ = ("accuracy", "fuzzy", "paper_accuracy", "template")

    def __init__(self, domain: Any, template_id: Any) -> None:
        self.accuracy: list[float] = []
        self.paper_accuracy: list[float] = []
        self.fuzzy: list[float] = []
        self.template = (str(domain or ""), str(template_id or ""))  # the macro's cell, as template_item spells it


def _macro(cells: Iterable[tuple[tuple[Any, Any, Any], _Cell]], value: str) -> float | None:
    """Template macro of ``value`` over ``cells`` (metrics.probes.template_macro's floats)."""
    merged: dict[tuple[str, str], list[float]] = {}
    for _, cell in cells:
        values = getattr(cell, value)
        if values:
            seen = merged.get(cell.template)  # two cells meet only when None and "" (or 7 and "7") do
            merged[cell.template] = values if seen is None else seen + values
    return _mean([fsum(v) / len(v) for v in merged.values()])


def _by(cells: Mapping[tuple[Any, Any, Any], _Cell], part: Any) -> dict[Any, list[tuple[Any, _Cell]]]:
    """Cells grouped by ``part(key)``, groups in sorted order (as the record-wise functions sort)."""
    groups: dict[Any, list[tuple[Any, _Cell]]] = {}
    for key, cell in cells.items():
        groups.setdefault(part(key), []).append((key, cell))
    return dict(sorted(groups.items()))


def _flat(cells: Iterable[tuple[Any, _Cell]], value: str = "accuracy") -> list[float]:
    return [v for _, cell in cells for v in getattr(cell, value)]


def suite_summary(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``probe_summary(records)`` plus ``per_domain_skill`` and ``per_domain_skill_micro``, as
    ProbesSuite.summarize returns them, in one pass over ``records``."""
    cells: dict[tuple[Any, Any, Any], _Cell] = {}
    lists: list[float] = []
    fails: list[float] = []
    for r in records:
        key = (r["skill"], r.get("domain"), r["template_id"])  # r[...] raises where the record-wise code does
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = _Cell(key[1], key[2])
        cell.accuracy.append(float(r["accuracy"]))
        if "paper_accuracy" in r:
            cell.paper_accuracy.append(float(r["paper_accuracy"]))
        if "fuzzy" in r:
            cell.fuzzy.append(float(r["fuzzy"]))
        if "list_f1" in r:
            lists.append(float(r["list_f1"]))
        fails.append(float(r["parse_failed"]))
    by_skill = _by(cells, lambda k: k[0])
    by_template = _by(cells, lambda k: k[2])
    by_domain = _by(cells, lambda k: k[1] or "?")
    everything = list(cells.items())
    return {
        "per_skill": {s: _macro(cs, "accuracy") for s, cs in by_skill.items()},
        "per_skill_micro": {s: _mean(_flat(cs)) for s, cs in by_skill.items()},
        "per_template": {t: _mean(_flat(cs)) for t, cs in by_template.items()},
        "per_skill_paper": {s: _macro(cs, "paper_accuracy") for s, cs in by_skill.items()},
        "list_f1": _mean(lists),
        "cr_fuzzy": _macro(everything, "fuzzy"),
        "cr_fuzzy_micro": _mean(_flat(everything, "fuzzy")),
        "parse_failure_rate": _mean(fails),
        "n": len(records),
        # ChartProbe's own rule as the paper scores it: items pooled per skill, lists by recall
        "paper_per_skill": {s: _mean(_flat(cs, "paper_accuracy")) for s, cs in by_skill.items()},
        "paper_cr": _mean(_flat(by_skill.get(CR_SKILL, []), "paper_accuracy")),
        "per_domain_skill": {d: {s: _macro(g, "accuracy") for s, g in _by(dict(cs), lambda k: k[0]).items()}
                             for d, cs in by_domain.items()},
        "per_domain_skill_micro": {d: {s: _mean(_flat(g)) for s, g in _by(dict(cs), lambda k: k[0]).items()}
                                   for d, cs in by_domain.items()},
        "paper_per_domain_skill": {d: {s: _mean(_flat(g, "paper_accuracy"))
                                       for s, g in _by(dict(cs), lambda k: k[0]).items()}
                                   for d, cs in by_domain.items()},
    }
