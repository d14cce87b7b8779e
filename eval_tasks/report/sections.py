"""Sections of ``report.md`` after the comparison and profile tables: the families' update
outcomes, per-type CVA and task groups, every suite's group averages, and the figures.

Every number is read from the profiles ``report.py`` builds (suite summaries and task metrics);
nothing is recomputed here. Units are in the headers: "(0–1)" for accuracies and shares, "(%)"
for relative changes (RVC), which are printed with a % sign and never share a column with a
0-1 number. Group averages are unweighted means of the group's columns that have a value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from ..suites._plots import FORMATS
from .markdown import markdown_table
from .style_shift import style_shift_section

__all__ = ["GROUPS", "families_section", "figures_section", "group_averages", "sections"]

Profiles = Mapping[str, Mapping[str, Any]]
Summary = Mapping[str, Any]
UNIT = " (0–1)"
FAMILY_TASK_EXCLUDED = ("all", "resolution")
"""Families configs that are not a task group: every family pooled, and the resolution ablation."""


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not math.isnan(v)


def _pct(v: Any) -> str:
    return f"{v:+.1f}%" if _finite(v) else "–"


def _mean(values: Sequence[Any]) -> float | None:
    nums = [float(v) for v in values if _finite(v)]
    return fmean(nums) if nums else None


def _p(v: Any) -> str:
    return "–" if not isinstance(v, (int, float)) else f"{v:.3g}"


def families_section(profiles: Profiles) -> list[str]:
    """Families: accuracies with RVC in %, update outcomes over D, OA/VA/CVA per reasoning type, and
    the task groups (bars, lines, ...) with their unweighted mean."""
    fams = {m: per["families"] for m, per in profiles.items() if "families" in per}
    if not fams:
        return []
    out = ["## Families: relative change, update outcomes and per-type CVA", ""]
    rows = [[m, *(p["summary"].get(k) for k in ("OA", "RA", "VA", "CVA", "CVA_R")),
             _pct(p["summary"].get("RVC")), _pct(p["summary"].get("RVC_R")),
             f"{_p(p['summary'].get('RVC_p'))}{p['summary'].get('RVC_stars') or ''}", p["summary"].get("families")]
            for m, p in fams.items()]
    out += [markdown_table(["model", *(f"{k}{UNIT}" for k in ("OA", "RA", "VA", "CVA", "CVA-R")), "RVC (%)",
                            "RVC-R (%)", "sign-flip p (OA→VA)", "families"], rows), ""]
    out += [("Update outcomes of the variants of families whose original is answered correctly "
             "(shares of those variants):"), ""]
    rows = [[m, *(p["summary"].get(k) for k in ("CU", "NU", "SP"))] for m, p in fams.items()]
    out += [markdown_table(["model", f"correct update CU{UNIT}", f"noisy update NU{UNIT}",
                            f"stale prediction SP{UNIT}"], rows), ""]
    out += ["Per reasoning type (CVA: variant accuracy over families whose original is correct):", ""]
    rows = [[m, t, v.get("OA"), v.get("VA"), v.get("CVA")] for m, p in fams.items()
            for t, v in (p["summary"].get("per_reasoning_type") or {}).items()]
    out += [markdown_table(["model", "reasoning type", f"OA{UNIT}", f"VA{UNIT}", f"CVA{UNIT}"], rows), ""]
    return out + _family_task_groups(fams)


def _family_task_groups(fams: Mapping[str, Mapping[str, Any]]) -> list[str]:
    from ..suites._task_index import task_index

    index = task_index()
    keys = ("oa", "va", "cva", "rvc", "cu", "nu", "sp")
    rows = []
    for m, p in fams.items():
        groups = {t: v for t, v in p.get("tasks", {}).items()
                  if t in index and index[t].config not in FAMILY_TASK_EXCLUDED}
        if not groups:
            continue
        rows += [[m, t, *(v.get(k) for k in keys[:3]), _pct(v.get("rvc")), *(v.get(k) for k in keys[4:])]
                 for t, v in groups.items()]
        means = [_mean([v.get(k) for v in groups.values()]) for k in keys]
        rows.append([m, "**mean over task groups**", *means[:3], _pct(means[3]), *means[4:]])
    if not rows:
        return []
    header = ["model", "task group", f"OA{UNIT}", f"VA{UNIT}", f"CVA{UNIT}", "RVC (%)", f"CU{UNIT}", f"NU{UNIT}",
              f"SP{UNIT}"]
    return ["Per task group (chart families), with their unweighted mean:", "", markdown_table(header, rows), ""]


def _legend_groups(s: Summary) -> dict[str, Mapping[str, Any]]:
    return {"legend: stage-wise accuracy": {k: s.get(k) for k in ("guide_read", "bind", "ve", "reason")}}


def _probes_groups(s: Summary) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {"probes: skills (mean over templates)": s.get("per_skill") or {}}
    out.update({f"probes: {d} skills": per for d, per in (s.get("per_domain_skill") or {}).items()})
    return out


def _judge_groups(s: Summary) -> dict[str, Mapping[str, Any]]:
    cpa = s.get("cpa") or {}
    return {"judge: CPA two-pass accuracy per dimension": cpa.get("per_dimension") or {},
            "judge: CPA two-pass accuracy per criterion": cpa.get("per_criterion") or {}}


def _families_groups(s: Summary) -> dict[str, Mapping[str, Any]]:
    return {"families: CVA per reasoning type": {t: v.get("CVA") for t, v in
                                                 (s.get("per_reasoning_type") or {}).items()}}


GROUPS: dict[str, Callable[[Summary], dict[str, Mapping[str, Any]]]] = {
    "families": _families_groups, "judge": _judge_groups, "legend": _legend_groups, "probes": _probes_groups}
"""Suite -> its groups (table title -> column -> 0-1 value) read from one model's summary."""


def group_averages(profiles: Profiles) -> list[str]:
    """One table per group (models x the group's columns) with the unweighted group mean."""
    tables: dict[str, dict[str, Mapping[str, Any]]] = {}
    for model, per in profiles.items():
        for suite, prof in per.items():
            for title, cols in GROUPS.get(suite, lambda s: {})(prof["summary"]).items():
                if cols:
                    tables.setdefault(title, {})[model] = cols
    if not tables:
        return []
    out = ["## Group averages", "", "All values are accuracies (0–1); the mean is over the columns with a value.", ""]
    for title, per_model in tables.items():
        cols = list(dict.fromkeys(c for v in per_model.values() for c in v))
        rows = [[m, *(v.get(c) for c in cols), _mean([v.get(c) for c in cols])] for m, v in per_model.items()]
        out += [f"### {title}", "", markdown_table(["model", *cols, "mean (0–1)"], rows), ""]
    return out


def figures_section(figures: Sequence[Path]) -> list[str]:
    """Each figure's PNG embedded, its PDF and SVG (same stem, same folder) linked under it."""
    names = {p.name for p in figures}
    out = ["## Figures", ""]
    for p in figures:
        if p.suffix != ".png":
            continue
        links = [f"[{fmt.upper()}]({p.stem}.{fmt})" for fmt in FORMATS[1:] if f"{p.stem}.{fmt}" in names]
        out += [f"![{p.stem}]({p.name})", "", " · ".join(links), ""] if links else [f"![{p.stem}]({p.name})", ""]
    return out


def sections(profiles: Profiles, figures: Sequence[Path]) -> list[str]:
    """Everything this module adds to ``report.md``, in order."""
    return [*families_section(profiles), *group_averages(profiles), *style_shift_section(profiles),
            *figures_section(figures)]
