"""The probes suite summary in one pass over the records: every group metric from cells.

:class:`~chartprobe.eval_tasks.suites.probes.ProbesSuite` summarises each model of a
``chartprobe score`` run (thousands of models at scale) with :func:`probe_summary`, per-skill,
per-template and per-domain macros and means, each a pass of its own over the records
(~3,000 record visits for a 318-record model). :func:`suite_summary` reads each record once
into cells keyed by (skill, domain, template) and derives every number from the cells. The
floats are the same: a mean is ``fsum(values) / len(values)``, correctly rounded and so
independent of the order values are gathered in (tests hold it to the record-wise functions).
:func:`headline_sums` keeps the headline's cells as sums and counts instead, which add up over
units, so a bootstrap draw's headline is :func:`summary_from_sums` of summed unit statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import fsum
from typing import Any

from .probes import CR_SKILL

__all__ = ["headline_sums", "headline_sums_matrix", "suite_summary", "summary_from_sums"]

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


def headline_sums(records: Iterable[Mapping[str, Any]]) -> dict[tuple, float]:
    """Additive statistics of the probe headline (the keys :func:`summary_from_sums` reads): per
    (skill, domain, template) cell its accuracy sum and count, per (domain, template) its fuzzy sum and
    count, and the parse failures over the rows. Summed over units they give every headline number."""
    out: dict[tuple, float] = {}
    for r in records:
        template = (str(r.get("domain") or ""), str(r["template_id"] or ""))  # _Cell.template: the macro's cell
        for key, v in ((("acc", r["skill"], *template), float(r["accuracy"])), (("n", r["skill"], *template), 1.0),
                       (("fail",), float(r["parse_failed"])), (("rows",), 1.0)):
            out[key] = out.get(key, 0.0) + v
        if "fuzzy" in r:
            out[("fz", *template)] = out.get(("fz", *template), 0.0) + float(r["fuzzy"])
            out[("nfz", *template)] = out.get(("nfz", *template), 0.0) + 1.0
    return out


def headline_sums_matrix(units: Sequence[Sequence[Mapping[str, Any]]]) -> tuple[list[tuple], Any]:
    """:func:`headline_sums` of every unit as (keys, sparse units x keys matrix), in one pass over the
    records (1M records in ~600k units: a dict per unit cost seconds)."""
    from .bootstrap_sums import sparse_stats

    columns: dict[tuple, int] = {("fail",): 0, ("rows",): 1}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for i, unit in enumerate(units):
        for r in unit:
            template = (str(r.get("domain") or ""), str(r["template_id"] or ""))
            acc = columns.setdefault(("acc", r["skill"], *template), len(columns))
            n = columns.setdefault(("n", r["skill"], *template), len(columns))
            rows += (i, i, i, i)
            cols += (acc, n, 0, 1)
            vals += (float(r["accuracy"]), 1.0, float(r["parse_failed"]), 1.0)
            if "fuzzy" in r:
                rows += (i, i)
                cols += (columns.setdefault(("fz", *template), len(columns)),
                         columns.setdefault(("nfz", *template), len(columns)))
                vals += (float(r["fuzzy"]), 1.0)
    return list(columns), sparse_stats(rows, cols, vals, len(units), len(columns))


def summary_from_sums(totals: Mapping[tuple, float]) -> dict[str, dict[Any, float] | float | None]:
    """``per_skill``, ``per_skill_micro``, ``cr_fuzzy``, ``cr_fuzzy_micro`` and ``parse_failure_rate`` as
    :func:`suite_summary` gives them, from :func:`headline_sums` summed over units (cells with no rows,
    a unit drawn zero times, count as absent)."""
    cell_means: dict[Any, list[float]] = {}
    skill_sum: dict[Any, float] = {}
    skill_n: dict[Any, float] = {}
    fuzzy_means: list[float] = []
    fz_sum = fz_n = 0.0
    for key, n in totals.items():
        if not n:
            continue
        if key[0] == "n":
            skill, total = key[1], totals[("acc", *key[1:])]
            cell_means.setdefault(skill, []).append(total / n)
            skill_sum[skill] = skill_sum.get(skill, 0.0) + total
            skill_n[skill] = skill_n.get(skill, 0.0) + n
        elif key[0] == "nfz":
            total = totals[("fz", *key[1:])]
            fuzzy_means.append(total / n)
            fz_sum, fz_n = fz_sum + total, fz_n + n
    rows = totals.get(("rows",), 0.0)
    return {"per_skill": {s: _mean(m) for s, m in sorted(cell_means.items())},
            "per_skill_micro": {s: skill_sum[s] / skill_n[s] for s in sorted(skill_n)},
            "cr_fuzzy": _mean(fuzzy_means), "cr_fuzzy_micro": fz_sum / fz_n if fz_n else None,
            "parse_failure_rate": totals[("fail",)] / rows if rows else None}
