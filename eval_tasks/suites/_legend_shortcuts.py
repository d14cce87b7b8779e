"""LegendBench shortcut checks held to their own chance: a first-entry binding and legend completeness.

- ``first_entry`` (binding without reading) against a random binding of the same labels on the
  same rows (``_legend_binding.random_binding_accuracy``): a study that always targets the
  first entry lets it score 100% where a random binding scores ~1/n.
- ``incomplete_legend`` (abstain iff some entry is hidden) against the best question-only
  abstention policy: per template, always answer (with the gold) or always abstain, whichever
  scores more on the rows. Where partial legends are rarely answerable, legend completeness
  alone predicts "I don't know" and the agent wins.

Each config (pooled over its splits) fails when the paired gap's one-sided 95% lower bound,
cluster-robust over base charts, exceeds 5 points; the worst template of a config is checked
the same way with a Bonferroni-corrected bound, since one template's leak is diluted in a config.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist, fmean
from typing import Any

from ._checks import Z, _gap_bound
from ._runs import Check, RunSet
from ._verdict import verdict

__all__ = ["LEGEND_SHORTCUT_MARGIN", "legend_shortcut_checks"]

LEGEND_SHORTCUT_MARGIN = 0.05
Row = Mapping[str, Any]
Chance = Callable[[Any, Sequence[Row]], list[float | None]]


def _binding_chance(suite: Any, rows: Sequence[Row]) -> list[float | None]:
    from ._legend_binding import random_binding_accuracy

    return [random_binding_accuracy(suite, r) for r in rows]


def _abstention_chance(suite: Any, rows: Sequence[Row]) -> list[float | None]:
    """Per row, the score of its template's best constant decision (answer with the gold, or abstain)."""
    answerable: dict[str, list[bool]] = defaultdict(list)
    for r in rows:
        answerable[suite.group_key(r)].append(suite.answerable(r))
    answer_all = {g: fmean(v) >= 0.5 for g, v in answerable.items()}
    return [float(suite.answerable(r) == answer_all[suite.group_key(r)]) for r in rows]


CHANCE: dict[str, tuple[str, Chance]] = {
    "first_entry": ("random binding", _binding_chance),
    "incomplete_legend": ("question-only abstention", _abstention_chance),
}
"""Agent -> (what its chance is, per-row chance on the rows it answered)."""


def _pooled(suite: Any, runs: RunSet, agent: str, chance: Chance) -> dict[str, list[tuple[Row, float, float]]]:
    """config -> (row, agent score, chance score) over its splits, rows with a chance only."""
    out: dict[str, list[tuple[Row, float, float]]] = defaultdict(list)
    for run in runs.by_agent(agent):
        for row, rec, c in zip(run.rows, run.records, chance(suite, run.rows)):
            if c is not None:
                out[run.config].append((row, suite.accuracy(rec), c))
    return out


def legend_shortcut_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Each agent of :data:`CHANCE` at most its chance + 5 points per config and on its worst template."""
    out: list[Check] = []
    for agent, (label, chance) in CHANCE.items():
        for config, cells in sorted(_pooled(suite, runs, agent, chance).items()):
            acc, base = [a for _, a, _ in cells], [c for _, _, c in cells]
            units = [suite.unit_key(r) for r, _, _ in cells]
            gap, bound = _gap_bound(acc, base, units, Z)
            out.append(verdict(f"{agent} gap over {label}", config, agent, gap, len(acc), op="<=",
                               limit=LEGEND_SHORTCUT_MARGIN, signed=True, tested=bound, statistic="95% lower bound",
                               note=f"{label} {fmean(base):.3f}, acc {fmean(acc):.3f}"))
            by_template: dict[str, tuple[list, list, list]] = defaultdict(lambda: ([], [], []))
            for (row, a, c), u in zip(cells, units):
                cell = by_template[suite.group_key(row)]
                cell[0].append(a)
                cell[1].append(c)
                cell[2].append(u)
            z = NormalDist().inv_cdf(1 - 0.05 / len(by_template))
            key, (a, c, u) = max(by_template.items(), key=lambda kv: (*_gap_bound(*kv[1], z=z)[::-1], len(kv[1][0])))
            gap, bound = _gap_bound(a, c, u, z=z)
            out.append(verdict(f"{agent} gap over {label}, worst template", f"{config}:{key}", agent, gap, len(a),
                               op="<=", limit=LEGEND_SHORTCUT_MARGIN, signed=True, tested=bound,
                               statistic="Bonferroni 95% lower bound", note=f"{len(by_template)} templates"))
    return out
