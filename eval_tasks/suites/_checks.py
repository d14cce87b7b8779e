"""Validity checks shared by the suites: each proves a metric catches the shortcut it targets.

Thresholds (issue 7): the oracle must score 100%; the blind agent (question text only) may
not beat the per-template majority rate by more than 5 points; abstaining never scores on an
answerable item (and answering never scores on an unanswerable one); no categorical
template's majority answer may exceed 1.5x the uniform share. Share thresholds on small
releases use the one-sided 95% Wilson lower bound, so that a template asked 5 times cannot
fail by chance while a truly skewed template (all "yes") fails at any realistic size. Each
line names the number its limit is applied to (:mod:`._verdict`), so its status always agrees
with what the table shows.

The majority baseline is the score of each template's best constant answer on the rows it is
compared on, counting only answers that recur in two or more units (:func:`majority_baseline`).
Fitting it out of sample (leave-one-out, or cross-fitted halves) is biased on balanced
answers: dropping a row's own answer tips the majority to the other label, so a 50/50
Accept/Reject config read a majority of 0.000 (leave-one-out) or 0.300 (halves).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import NormalDist, fmean
from typing import Any

from ._runs import Check, RunSet
from ._verdict import info, verdict

__all__ = ["common_checks", "majority_answers", "majority_baseline", "mean_accuracy", "status", "wilson_lower"]

Z = 1.645  # one-sided 95%
BLIND_MARGIN = 0.05
MAJORITY_FACTOR = 1.5


def wilson_lower(k: int, n: int, z: float = Z) -> float:
    """Lower Wilson score bound of a proportion k/n (0 when n == 0)."""
    if n == 0:
        return 0.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def majority_tests(k: int) -> int:
    """How many answers of a ``k``-answer set can sit at the majority limit (1.5x uniform) at once:
    the multiplicity the majority's bound is corrected for (1 for yes/no, 7 for 11 colours)."""
    return max(1, math.floor(k / MAJORITY_FACTOR + 1e-9))


def majority_lower(top: int, n: int, k: int) -> float:
    """Lower bound on the majority answer's share, ``top`` of ``n`` rows with ``k`` possible answers.

    The majority is the largest of ``k`` counts, so one-sided 95% is taken at level 0.05/m
    (Bonferroni over the m = ``majority_tests(k)`` answers that could all be at the limit):
    with 11 colours and 9 rows, one colour reaching 3, or a single row, is what a uniform draw
    gives, not a shortcut. An answer given once is no majority (0): Wilson's bound at n = 1 is
    1/(1 + z^2), which would fail any answer set larger than ~10 on one row.
    """
    from statistics import NormalDist

    if top < 2:
        return 0.0
    return wilson_lower(top, n, NormalDist().inv_cdf(1 - 0.05 / majority_tests(k)))


def status(ok: bool) -> str:
    return "pass" if ok else "fail"


def mean_accuracy(suite: Any, records: Iterable[Mapping[str, Any]]) -> float | None:
    vals = [suite.accuracy(r) for r in records]
    return fmean(vals) if vals else None


def majority_answers(suite: Any, rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Most common gold answer per group key (ties broken by the answer's sort order)."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        counts[suite.group_key(r)][str(r["answer"])] += 1
    return {k: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for k, c in counts.items()}


def majority_baseline(suite: Any, rows: Sequence[Mapping[str, Any]]) -> list[float]:
    """Per row, the score of its template's most common answer among ``rows`` (ties: sort order).

    Only an answer given in at least two units (charts, families, pairs) can be a template's
    prior; a template whose answers never recur (values, labels of one chart) has no majority
    and its rows score the empty answer. In sample by design: see the module docstring.
    """
    rows_of: dict[str, Counter] = defaultdict(Counter)
    units_of: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        group, answer = suite.group_key(r), str(r["answer"])
        rows_of[group][answer] += 1
        units_of[group][answer].add(suite.unit_key(r))
    guess = {g: min(((a, k) for a, k in c.items() if len(units_of[g][a]) > 1),
                    key=lambda kv: (-kv[1], kv[0]), default=("", 0))[0] for g, c in rows_of.items()}
    memo: dict[tuple, float] = {}  # rows with one score key (Suite.score_key) score one guess alike

    def score(r: Mapping[str, Any], answer: str) -> float:
        key = suite.score_key(r)
        if key is None:
            return suite.score_accuracy(r, answer)
        if (key, answer) not in memo:
            memo[(key, answer)] = suite.score_accuracy(r, answer)
        return memo[(key, answer)]

    return [score(r, guess[suite.group_key(r)]) for r in rows]


def _pooled(runs: RunSet, agent: str) -> dict[str, list]:
    """config -> (row, record) pairs of ``agent`` pooled over the config's splits."""
    out: dict[str, list] = defaultdict(list)
    for run in runs.by_agent(agent):
        out[run.config] += list(zip(run.rows, run.records))
    return out


def oracle_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Oracle accuracy == 100% on every config/split (a row it cannot answer counts as wrong)."""
    out = []
    for (config, split), rows in sorted(runs.rows.items()):
        run = runs.get("oracle", config, split)
        recs = run.records if run else []
        value = sum(map(suite.accuracy, recs)) / len(rows) if rows else None
        out.append(verdict("oracle accuracy", f"{config}/{split}", "oracle", value, len(rows), op="=", limit=1.0))
    return out


def _gap_bound(blind: list[float], base: list[float], units: list[str], z: float = Z) -> tuple[float, float]:
    """Paired gap and its one-sided lower bound at ``z``.

    The SE is cluster-robust over units (charts, families, pairs): rows of one unit share
    their question and answers, so treating them as independent would overstate certainty.
    With one row per unit it is the plain paired SE.
    """
    n = len(blind)
    gap = (sum(blind) - sum(base)) / n
    per_unit: dict[str, float] = defaultdict(float)
    for a, b, u in zip(blind, base, units):
        per_unit[u] += a - b
    return gap, gap - z * math.sqrt(sum(d * d for d in per_unit.values())) / n


def blind_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Blind (question text) minus the per-template majority baseline, at most +5 points.

    The blind agent is fit out of sample (other splits, else cross-fitted halves); the baseline
    is the best constant answer per template on the same rows (:func:`majority_baseline`), so
    the gap measures what the question text adds beyond the answer prior. A split fails when
    the gap's one-sided 95% lower bound exceeds 5 points; since one leaking template is
    diluted in a whole split, the worst template of each config (pooled over splits) is
    checked the same way.
    """
    out = []
    per_template: dict[str, dict[str, tuple[list, list, list]]] = defaultdict(
        lambda: defaultdict(lambda: ([], [], [])))
    for (config, split), rows in sorted(runs.rows.items()):
        run = runs.get("blind", config, split)
        if not rows or run is None or not run.records:
            continue
        base = majority_baseline(suite, run.rows)
        blind = [suite.accuracy(r) for r in run.records]
        units = [suite.unit_key(r) for r in run.rows]
        for row, b, m, u in zip(run.rows, blind, base, units):
            cell = per_template[config][suite.group_key(row)]
            cell[0].append(b)
            cell[1].append(m)
            cell[2].append(u)
        gap, bound = _gap_bound(blind, base, units)
        out.append(verdict("blind gap over majority", f"{config}/{split}", "blind", gap, len(blind),
                           op="<=", limit=BLIND_MARGIN, signed=True, tested=bound, statistic="95% lower bound",
                           note=f"majority {fmean(base):.3f}, blind {fmean(blind):.3f}"))
    for config, cells in sorted(per_template.items()):
        # The worst of k templates is picked after looking: Bonferroni keeps the family-wise
        # false-alarm rate at 5% instead of 1 - 0.95^k.
        z = NormalDist().inv_cdf(1 - 0.05 / len(cells))
        key, (blind, base, units) = max(cells.items(),
                                        key=lambda kv: (*_gap_bound(*kv[1], z=z)[::-1], len(kv[1][0])))
        gap, bound = _gap_bound(blind, base, units, z=z)
        out.append(verdict("blind gap, worst template", f"{config}:{key}", "blind", gap, len(blind),
                           op="<=", limit=BLIND_MARGIN, signed=True, tested=bound,
                           statistic="Bonferroni 95% lower bound", note=f"{len(cells)} templates"))
    return out


def abstention_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Abstaining never scores on answerable items; answering never scores on unanswerable ones."""
    out = []
    for agent, want, label in (("always_abstain", True, "answerable"), ("never_abstain", False, "unanswerable")):
        for config, pairs in sorted(_pooled(runs, agent).items()):
            recs = [rec for row, rec in pairs if suite.answerable(row) == want]
            value = mean_accuracy(suite, recs)
            out.append(verdict(f"{agent} accuracy on {label} items", config, agent, value, len(recs),
                               op="=", limit=0.0))
    return out


def majority_share_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Per template (pooled over splits): majority share <= 1.5x uniform (Wilson lower bound at
    95% corrected for the answer set's size: the majority is the largest of k counts).

    Uniform is 1/|answers| per row over the row's closed set (``suite.closed_answers``): yes/no,
    A/B, a declared vocabulary (positive/negative), a crossing count 0-2, the ranks 1..n of the
    chart's n items. A crossing count that is "0" on 60% of rows fails. Open labels, numbers and
    counts without a declared set (objects in a scene) have no uniform to compare with and are
    guarded, like any quantity, by the blind and shortcut agents.
    """
    out = []
    for config in sorted({c for c, _ in runs.rows}):
        groups: dict[str, list] = defaultdict(list)
        seen: set[str] = set()
        for (c, _), rows in runs.rows.items():
            for r in rows if c == config else ():
                closed = suite.closed_answers(r)
                unit = suite.answer_unit(r)
                if closed and (unit is None or unit not in seen):  # a question once, however often drawn
                    seen.add(unit)
                    groups[suite.group_key(r)].append((str(r["answer"]), len(closed)))
        for key, items in sorted(groups.items()):
            counts = Counter(a for a, _ in items)
            answer, top = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            uniform = fmean(1 / k for _, k in items)
            m = majority_tests(round(1 / uniform))
            out.append(verdict("majority answer share", f"{config}:{key}", "-", top / len(items), len(items),
                               op="<=", limit=MAJORITY_FACTOR * uniform,
                               tested=majority_lower(top, len(items), round(1 / uniform)),
                               statistic="Wilson 95% lower bound" + (f" over {m} answers" if m > 1 else ""),
                               note=f"majority {answer!r}"))
    return out


def info_checks(suite: Any, runs: RunSet, agent: str, label: str) -> list[Check]:
    """Accuracy of ``agent`` per config, reported without a threshold."""
    return [info(label, config, agent, mean_accuracy(suite, [rec for _, rec in pairs]), len(pairs))
            for config, pairs in sorted(_pooled(runs, agent).items())]


def share_check(name: str, scope: str, agent: str, hits: float, n: int, limit: float) -> Check:
    """A 'share of rows must stay below ``limit``' check with the Wilson guard (``hits`` may be a
    sum of per-question means, a question drawn several ways counting once)."""
    return verdict(name, scope, agent, hits / n if n else None, n, op="<=", limit=limit,
                   tested=wilson_lower(hits, n) if n else None, statistic="Wilson 95% lower bound")


COMMON: tuple[Callable[[Any, RunSet], list[Check]], ...] = (
    oracle_checks, blind_checks, abstention_checks, majority_share_checks)


def common_checks(suite: Any, runs: RunSet) -> list[Check]:
    """Every shared check, plus the random agent's chance level for reference."""
    out = [c for fn in COMMON for c in fn(suite, runs)]
    return out + info_checks(suite, runs, "random", "random-guess accuracy")
