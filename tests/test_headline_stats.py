"""Bootstrap draws priced from additive unit statistics give the numbers of recomputing on records (issue 47).

Every registered suite's ``headline_stats`` summed over units must give ``headline_of`` through
``headline_from_stats``, and the report's intervals, ``--compare``'s evaluator and the diagnosis'
findings must be the same with and without them, on the same draws. Records are the small
releases' test rows answered by a seeded mix of gold, refusals, other rows' golds, stale answers
and junk, scored by each suite.
"""

from __future__ import annotations

import math
from statistics import fmean

import numpy as np
import pytest
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.metrics.bootstrap import group_units, interval, relabel_fields
from chartprobe.eval_tasks.metrics.bootstrap_sums import draw_counts, mean_interval, sums_interval
from chartprobe.eval_tasks.report.compare import HeadlineEvaluator, headline_of
from chartprobe.eval_tasks.report.intervals import headline_intervals
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.suites import SUITES, suite_for_release
from chartprobe.eval_tasks.suites._task_index import task_index

SUITE_NAMES = sorted(SUITES.names())
DRAWS = 60
"""Fewer than the report's 400: the paths are compared draw for draw, not for coverage."""


def _answer(doc: dict, pool: list[str], rng: np.random.Generator) -> str:
    u = rng.random() * (0.6 if doc.get("chain_id") else 1)  # some whole chains right: chain accuracy above 0
    if u < 0.45:
        return str(doc.get("answer", ""))
    if u < 0.55:
        return "I don't know"
    if u < 0.65 and doc.get("role") == "variant":
        return str(doc.get("original_answer"))  # a stale answer: the original's
    return str(pool[int(rng.integers(len(pool)))]) if u < 0.9 else "7"


@pytest.fixture(scope="module")
def records(release_root) -> dict[str, list[dict]]:
    """Suite -> scored records of its test rows (each row once). One judge pair and one CRJ item are
    voted over a single sample, the rest over three: a draw without them votes over three."""
    gold, rng, out = ReleaseGold(release_root), np.random.default_rng(47), {}
    for name in SUITE_NAMES:
        suite, seen, recs = suite_for_release(name), set(), []
        for task in (t for t in task_index().values() if t.release == name and t.split == "test" and t.rescored):
            docs = [d for key, d in gold.documents(task).items() if (task.config, key) not in seen]
            seen.update((task.config, suite.doc_key(d)) for d in docs)
            pool = [str(d.get("answer", "")) for d in docs]
            for i, d in enumerate(docs):
                k = 1 if name != "judge" or i == 0 or (d.get("pair_id") and d["pair_id"] == docs[0].get("pair_id")) else 3
                rec = suite.score_votes(d, [_answer(d, pool, rng) for _ in range(k)]) if name == "judge" \
                    else suite.score(d, _answer(d, pool, rng))
                recs.append({**rec, "task": task.task})
        out[name] = recs
    return out


def _units(suite, recs: list[dict]) -> list[list[dict]]:
    per: dict[str, list] = {}
    for r in recs:
        per.setdefault(suite.unit_key(r), []).append(r)
    return [per[u] for u in sorted(per)]


def _same(a, b) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
    return bool(np.isclose(a, b, rtol=1e-9, atol=0))


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_every_suite_has_additive_headline_stats(records, name):
    """No suite falls back to recomputing on records: each headline is a function of unit sums."""
    suite = suite_for_release(name)
    assert records[name], name
    assert all(suite.headline_stats(u) is not None for u in _units(suite, records[name]))


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_stats_summed_over_units_give_the_headline(records, name):
    suite = suite_for_release(name)
    totals: dict = {}
    for unit in _units(suite, records[name]):
        for k, v in suite.headline_stats(unit).items():
            totals[k] = totals.get(k, 0.0) + v
    fast, slow = suite.headline_from_stats(totals), headline_of(suite, records[name])
    assert list(fast) == list(slow)
    assert all(_same(fast[k], slow[k]) for k in slow), (fast, slow)
    assert any(v is not None and not math.isnan(v) for v in slow.values())


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_intervals_from_stats_are_the_record_intervals(records, name):
    suite = suite_for_release(name)
    fast = headline_intervals(suite, records[name], DRAWS)
    slow = headline_intervals(suite, records[name], DRAWS, by_records=True)
    assert fast.keys() == slow.keys() and any(v is not None for v in slow.values())
    for k, ci in slow.items():
        assert (ci is None) == (fast[k] is None), k
        assert ci is None or all(_same(a, b) for a, b in zip(fast[k], ci)), (k, fast[k], ci)


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_compare_evaluator_from_stats_is_the_record_evaluator(records, name):
    """``--compare``'s resamples (any order, units repeated) price the same either way."""
    suite = suite_for_release(name)
    units = _units(suite, records[name])
    fast, slow = HeadlineEvaluator(suite, units), HeadlineEvaluator(suite, units, records=True)
    rng = np.random.default_rng(3)
    for idx in [np.arange(len(units))] + [rng.integers(0, len(units), len(units)) for _ in range(8)]:
        a, b = fast(idx), slow(idx)
        assert a.keys() == b.keys() and all(_same(a[k], b[k]) for k in b), (a, b)


def test_chunked_draws_continue_one_stream():
    """Counts drawn a chunk at a time are the bincounts of one (iters, n) draw, as interval() takes it."""
    bulk = np.random.default_rng(5).integers(0, 37, size=(50, 37))
    chunked = np.concatenate(list(draw_counts(np.random.default_rng(5), 37, 50, chunk_cells=37 * 7)))
    assert chunked.shape == (50, 37)
    assert (chunked == np.stack([np.bincount(row, minlength=37) for row in bulk])).all()


def test_diagnosis_intervals_from_sums_are_the_record_intervals(records):
    """The diagnosis' means and family shares (CVA, SP, RVC) bootstrapped from unit sums and counts."""
    probes = records["probes"]
    value = lambda r: float(r["accuracy"])
    fast = mean_interval(probes, value, lambda r: r["chart_id"], DRAWS)
    slow = interval(lambda rows: fmean(map(value, rows)), probes, lambda r: r["chart_id"], iters=DRAWS)
    assert fast.n_units == slow.n_units and fast.resamples == slow.resamples
    assert all(_same(a, b) for a, b in zip((fast.low, fast.high, fast.stderr), (slow.low, slow.high, slow.stderr)))
    fam = [r for r in records["families"] if r.get("role") in ("original", "variant")]
    units = group_units(fam, lambda r: r["family_id"])
    metrics = {"CVA": fm.conditional_variant_accuracy, "SP": lambda rows: fm.update_outcomes(rows)["SP"],
               "RVC": lambda rows: fm.relative_change(fm.accuracy(rows, "variant"), fm.accuracy(rows, "original"))}
    for key, metric in metrics.items():
        fast = sums_interval([fm.family_counts(u) for u in units], lambda t, key=key: fm.from_family_counts(t)[key],
                             DRAWS)
        slow = interval(metric, fam, lambda r: r["family_id"], iters=DRAWS, relabel=relabel_fields("family_id"))
        assert fast.resamples == slow.resamples and slow.resamples > DRAWS / 2, key
        assert all(_same(a, b) for a, b in zip((fast.low, fast.high), (slow.low, slow.high))), key


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_stats_matrix_holds_every_units_stats(records, name):
    """``headline_stats_matrix`` (a suite's one-pass build) row by row is ``headline_stats`` of each unit."""
    suite = suite_for_release(name)
    units = _units(suite, records[name])
    keys, matrix = suite.headline_stats_matrix(units)
    dense = matrix.toarray()
    for i, unit in enumerate(units):
        want = suite.headline_stats(unit)
        got = {k: v for k, v in zip(keys, dense[i]) if v}
        assert got == pytest.approx({k: v for k, v in want.items() if v}, rel=1e-12), i
