"""The cluster bootstrap (eval_tasks/metrics/bootstrap.py): known cases, NaN-safety, relabeling, determinism."""

from __future__ import annotations

import math
import random
from statistics import fmean

import pytest
from chartprobe.eval_tasks.metrics import bootstrap as bs


def _mean(items):
    return fmean(v for _, v in items) if items else None


def _unit(item):
    return item[0]


def _clustered_items(units: int = 40, per_unit: int = 10):
    """Half the units all correct, half all wrong: the rows of a unit are perfectly correlated."""
    return [(f"u{u}", float(u % 2)) for u in range(units) for _ in range(per_unit)]


def test_clustered_stderr_matches_the_unit_level_formula_and_exceeds_the_row_level_one():
    items = _clustered_items()
    clustered = bs.interval(_mean, items, _unit, seed=0)
    rows = bs.interval(_mean, items, lambda item: id(item), seed=0)  # every row its own unit
    # bootstrap stderr of a mean of n i.i.d. values: sd * sqrt((n - 1) / n) / sqrt(n), sd = 0.5 here
    assert clustered.n_units == 40 and rows.n_units == 400
    assert clustered.stderr == pytest.approx(0.5 * math.sqrt(39 / 40) / math.sqrt(40), rel=0.1)
    assert rows.stderr == pytest.approx(0.5 * math.sqrt(399 / 400) / math.sqrt(400), rel=0.1)
    assert clustered.stderr > 2.5 * rows.stderr  # sqrt(10): ten correlated rows are one observation
    assert clustered.low < 0.5 < clustered.high and clustered.high - clustered.low > 3 * clustered.stderr


def test_identical_units_give_zero_stderr():
    items = [(f"u{u}", v) for u in range(12) for v in (1.0, 0.0, 1.0)]
    iv = bs.interval(_mean, items, _unit)
    assert iv.stderr == pytest.approx(0, abs=1e-12)  # float rounding of a mean in another order
    assert iv.low == pytest.approx(2 / 3) and iv.high == pytest.approx(2 / 3)
    assert iv.resamples == bs.RESAMPLES and iv.n_units == 12


def test_the_seed_fixes_the_result_and_the_item_order_does_not_matter():
    items = [(f"u{u}", random.Random(u).random()) for u in range(30) for _ in range(3)]
    a = bs.interval(_mean, items, _unit, iters=300, seed=7)
    shuffled = items[:]
    random.Random(1).shuffle(shuffled)
    assert bs.interval(_mean, shuffled, _unit, iters=300, seed=7) == a
    assert bs.interval(_mean, items, _unit, iters=300, seed=8) != a


def test_undefined_resamples_are_skipped():
    # the metric is defined only when the resample holds a unit of kind "x" (1 unit in 5)
    items = [(f"u{u}", "x" if u == 0 else "y", float(u % 3 == 0)) for u in range(5) for _ in range(2)]

    def share_of_x(resample):
        xs = [v for _, kind, v in resample if kind == "x"]
        return fmean(xs) if xs else math.nan

    iv = bs.interval(share_of_x, items, _unit, iters=400, seed=0)
    # P(no draw of unit 0 among 5) = 0.8^5 ≈ 0.33: about a third of the draws are undefined
    assert 200 < iv.resamples < 330 and iv.stderr == 0.0  # unit 0's value is always 1.0


def test_a_unit_drawn_twice_is_two_units_with_relabel():
    items = [{"family_id": f"f{u}", "chain_id": "", "v": 1.0} for u in range(8) for _ in range(2)]

    def families(records):
        return len({r["family_id"] for r in records})

    unit = lambda r: r["family_id"]
    merged = bs.interval(families, items, unit, iters=200)
    relabeled = bs.interval(families, items, unit, iters=200, relabel=bs.relabel_fields("family_id", "chain_id"))
    assert merged.stderr > 0 and merged.high < 8  # duplicates collapse into one family
    assert relabeled.stderr == 0.0 and relabeled.low == relabeled.high == 8
    copy = bs.relabel_fields("family_id", "chain_id", "missing")(items[0], 2)
    assert copy == {"family_id": "f0#2", "chain_id": "", "v": 1.0}  # "" means "no chain": kept


def test_degenerate_inputs_give_no_interval():
    one_unit = [("u", 1.0), ("u", 0.0)]
    assert bs.interval(_mean, one_unit, _unit).stderr is None  # one unit resampled is always itself
    assert bs.interval(_mean, [], _unit) == bs.Interval(None, None, None, 0, 0)
    assert bs.interval(_mean, _clustered_items(), _unit, iters=0).stderr is None
    assert bs.interval(lambda _: None, _clustered_items(), _unit, iters=50) == bs.Interval(None, None, None, 40, 0)
    with pytest.raises(ValueError, match="confidence"):
        bs.interval(_mean, _clustered_items(), _unit, confidence=1.5)


def test_one_pass_of_resamples_serves_several_metrics():
    items = _clustered_items(units=20, per_unit=3)
    units = bs.group_units(items, _unit)
    summaries = [{"mean": _mean(r), "max": max(v for _, v in r)} for r in bs.resamples(units, 500, seed=3)]
    assert bs.from_replicates((s["mean"] for s in summaries), len(units)) == bs.interval(_mean, items, _unit, 500, 3)
    assert bs.from_replicates((s["max"] for s in summaries), len(units)).stderr == 0.0
