"""How ``chartprobe report --num-proc N`` deals models to its workers (:mod:`chartprobe.eval_tasks.report.per_model`);
tests/test_report.py holds the reports of 1 and N processes equal byte for byte."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.report.per_model import deal
from chartprobe.eval_tasks.rescoring.results import model_record_counts


def test_models_are_dealt_largest_first_to_the_least_loaded_worker():
    assert deal({"a": 5, "b": 3, "c": 3, "d": 1}, 2) == [["a", "d"], ["b", "c"]]
    assert deal({"m": 7}, 4) == [["m"]]  # no empty group: one worker for one model
    assert deal({}, 2) == []


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_every_model_goes_to_exactly_one_worker_in_model_order(workers):
    counts = {f"model-{i:02d}": (i * 37) % 11 + 1 for i in range(20)}
    groups = deal(counts, workers)
    assert len(groups) == min(workers, len(counts))
    assert sorted(m for g in groups for m in g) == sorted(counts)
    assert all(g == sorted(g) for g in groups)
    loads = [sum(counts[m] for m in g) for g in groups]
    assert max(loads) - min(loads) <= max(counts.values())  # greedy: within one model of even


def test_record_counts_name_every_model_with_records_across_files():
    cols = {"task": ["t"] * 3, "correct": [1, 0, 1]}
    docs = [{"models": {"a": {"records": {"smoke": cols}}, "b": {"records": {}}}},
            {"models": {"a": {"records": {"smoke": {"task": ["t"]}}}, "c": {"records": {"smoke": {}}}}}]
    assert model_record_counts(docs) == {"a": 4, "c": 0}  # c has a suite (no rows), as merge_results gives it
