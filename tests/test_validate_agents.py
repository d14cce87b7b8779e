"""`validate --agents X` judges only the checks whose agents ran and names the ones it skipped."""

from __future__ import annotations

import json

import pytest
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.eval_tasks.suites._runs import Check
from chartprobe.eval_tasks.validity.validate import agents_judged, split_by_agents

from chartprobe.cli import main


def _check(agent: str, status: str = "fail") -> Check:
    return Check("c", "default/test", agent, 0.0, "> 0.9", 10, status)


def test_split_by_agents_keeps_only_checks_of_agents_that_ran():
    oracle, legend, pair, data = _check("oracle"), _check("legend_order"), _check("blind vs oracle"), _check("-")
    assert agents_judged(pair) == {"blind", "oracle"} and agents_judged(data) == set()
    evaluated, skipped = split_by_agents([oracle, legend, pair, data], ["oracle"])
    assert evaluated == [oracle, data] and skipped == [legend, pair]
    assert split_by_agents([oracle, legend], None) == ([oracle, legend], [])


@pytest.mark.parametrize("dataset", DATASETS.names())
def test_oracle_only_passes_every_small_release(dataset, release_root, tmp_path, capsys):
    out = tmp_path / "validity"
    code = main(["validate", str(release_root / f"chartprobe-{dataset}"), "--agents", "oracle", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    report = json.loads((out / "validity.json").read_text())[0]
    assert report["passed"]
    assert all(agents_judged(Check(**c)) <= {"oracle"} for c in report["checks"])
    ran_only_oracle = any(c["agent"] == "oracle" for c in report["checks"])
    assert ran_only_oracle
    assert report["agents_not_run"] and "blind" in report["agents_not_run"]  # named, not silently dropped
    assert "Agents not run (--agents)" in text
    if report["skipped"]:  # every other agent's check is named as skipped, none silently dropped
        assert "Skipped" in text and all(s["agent"] != "oracle" for s in report["skipped"])
