"""Shortcut agents may not beat chance: the check every image-side and answer-set agent must pass.

For each shortcut agent (position prior, file metadata, anti-stale, answer-everything, text
reader) and each config/split, its accuracy on the rows it answers is compared with
*chance on those same rows*: per template, the higher of the majority rate (the
template's best constant answer on the rows, as the blind check's baseline) and the
uniform rate (the mean score of every candidate in the row's answer space). A split fails
when the paired gap's one-sided 95% lower bound, cluster-robust over units, exceeds
5 points; the worst template of each config (pooled over splits) is checked the same way
with a Bonferroni-corrected bound, since one leaking template is diluted in a split. The
learned image-statistics agent, fit per config, is judged per config with an AUC line besides
(``_image_stats``, which reuses this module's chance).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import NormalDist, fmean
from typing import Any

from ._checks import _gap_bound, majority_baseline
from ._runs import Check, RunSet
from ._verdict import verdict

__all__ = ["SHORTCUT_AGENTS", "SHORTCUT_MARGIN", "chance_levels", "shortcut_checks"]

SHORTCUT_AGENTS = ("position_prior", "metadata", "anti_stale", "answer_everything", "text_reader")
SHORTCUT_MARGIN = 0.05
MAX_SPACE = 64
"""Answer spaces larger than this are scored as 1/size (an open answer is not guessed)."""

Row = Mapping[str, Any]


def _uniform(suite: Any, row: Row, pool: Sequence[str], memo: dict | None = None) -> float:
    """Mean score of every candidate in the row's answer space; ``memo`` keeps each (score key,
    candidate) score, so rows that score alike (``Suite.score_key``) score a candidate once."""
    space = list(suite.answer_space(row, pool))
    if not space:
        return 0.0
    if len(space) > MAX_SPACE:
        return 1.0 / len(space)
    key = suite.score_key(row) if memo is not None else None
    if key is None:
        return sum(suite.score_accuracy(row, c) for c in space) / len(space)
    total = 0.0
    for c in space:
        hit = memo.get((key, c))
        if hit is None:
            hit = memo[(key, c)] = suite.score_accuracy(row, c)
        total += hit
    return total / len(space)


def chance_levels(suite: Any, runs: RunSet, config: str, split: str) -> tuple[dict[int, float], dict[int, float]]:
    """(majority score, uniform score) per document of ``config/split``, keyed by ``id(doc)``;
    computed once per config/split of ``runs`` (the shortcut and image-statistics checks both read it)."""
    key = ("chance_levels", config, split)
    if key not in runs.derived:
        # one memo of candidate scores for the whole run: a score key (gold, type, vocabulary,
        # tolerance) recurs across splits and configs, and scores a candidate alike wherever it does
        memo = runs.derived.setdefault(("candidate_scores",), {})
        runs.derived[key] = _chance_levels(suite, runs.rows[(config, split)], memo)
    return runs.derived[key]


def _chance_levels(suite: Any, rows: Sequence[Row], memo: dict | None = None,
                   ) -> tuple[dict[int, float], dict[int, float]]:
    majority = majority_baseline(suite, rows)
    pools: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        pools[suite.group_key(r)][str(r["answer"])].add(suite.unit_key(r))
    # A row's pool: its template's golds but those only its own unit has (or all, if none is left).
    everything = {g: sorted(answers) for g, answers in pools.items()}
    own: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for g, answers in pools.items():
        for a, units in answers.items():
            if len(units) == 1:
                own[g][next(iter(units))].add(a)
    maj, uni = {}, {}
    memo = {} if memo is None else memo
    for r, score in zip(rows, majority):
        maj[id(r)] = score
        g = suite.group_key(r)
        mine = own[g].get(suite.unit_key(r))
        pool = [a for a in everything[g] if a not in mine] if mine else everything[g]
        uni[id(r)] = _uniform(suite, r, pool or everything[g], memo)
    return maj, uni


def _chance(suite: Any, rows: Sequence[Row], maj: dict[int, float], uni: dict[int, float]) -> list[float]:
    """Per row, the majority or the uniform score: whichever rate is higher on its template."""
    by_group: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_group[suite.group_key(r)].append(r)
    use_majority = {g: fmean(maj[id(r)] for r in rs) >= fmean(uni[id(r)] for r in rs) for g, rs in by_group.items()}
    return [maj[id(r)] if use_majority[suite.group_key(r)] else uni[id(r)] for r in rows]


def shortcut_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Every shortcut agent at most chance + 5 points per split and on its worst template."""
    out: list[Check] = []
    for agent in SHORTCUT_AGENTS:
        cells: dict[str, dict[str, tuple[list, list, list]]] = defaultdict(
            lambda: defaultdict(lambda: ([], [], [])))
        for run in runs.by_agent(agent):
            if not run.records:
                continue
            chance = _chance(suite, run.rows, *chance_levels(suite, runs, run.config, run.split))
            acc = [suite.accuracy(r) for r in run.records]
            units = [suite.unit_key(r) for r in run.rows]
            for row, a, c, u in zip(run.rows, acc, chance, units):
                cell = cells[run.config][suite.group_key(row)]
                cell[0].append(a)
                cell[1].append(c)
                cell[2].append(u)
            gap, bound = _gap_bound(acc, chance, units)
            out.append(verdict(f"{agent} gap over chance", f"{run.config}/{run.split}", agent, gap, len(acc),
                               op="<=", limit=SHORTCUT_MARGIN, signed=True, tested=bound,
                               statistic="95% lower bound", note=f"chance {fmean(chance):.3f}, acc {fmean(acc):.3f}"))
        for config, groups in sorted(cells.items()):
            z = NormalDist().inv_cdf(1 - 0.05 / len(groups))
            key, (acc, chance, units) = max(groups.items(),
                                            key=lambda kv: (*_gap_bound(*kv[1], z=z)[::-1], len(kv[1][0])))
            gap, bound = _gap_bound(acc, chance, units, z=z)
            out.append(verdict(f"{agent} gap over chance, worst template", f"{config}:{key}", agent, gap, len(acc),
                               op="<=", limit=SHORTCUT_MARGIN, signed=True, tested=bound,
                               statistic="Bonferroni 95% lower bound",
                               note=f"{len(groups)} templates, chance {fmean(chance):.3f}"))
    return out
