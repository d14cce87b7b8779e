"""Every validity line's status follows from the numbers it shows (issue 21, part 4).

The table used to print a point estimate above its threshold next to "pass" (``0.593 <= 0.50
pass``: the limit applied to a Wilson bound the table did not show), and the majority baseline
of a balanced Accept/Reject config read 0.000 (a leave-one-out artefact). These tests run every
check kind of every small release and re-derive each status from the line alone.
"""

from __future__ import annotations

import json

import pytest
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.eval_tasks.suites._checks import majority_baseline
from chartprobe.eval_tasks.suites._verdict import OPS, decide, verdict
from chartprobe.eval_tasks.validity.validate import read_validity, render_markdown, validate_release


@pytest.fixture(scope="module")
def reports(release_root):
    return {name: validate_release(release_root / f"chartprobe-{name}") for name in DATASETS.names()
            if (release_root / f"chartprobe-{name}").is_dir() and name != "smoke"}


@pytest.mark.parametrize("dataset", [n for n in DATASETS.names() if n != "smoke"])
def test_every_line_status_agrees_with_its_numbers(reports, dataset):
    kinds = set()
    for c in reports[dataset].checks:
        kinds.add(c.check)
        assert c.status in {"pass", "fail", "info", "n/a"}, c
        if c.status == "info":
            assert not c.op and c.threshold == "-", c
            continue
        assert c.op in OPS, c
        if c.statistic == "value":
            assert c.tested == c.value, c
        else:
            assert c.statistic in c.threshold, c  # the threshold names the number it is applied to
        assert c.status == decide(c.tested, c.op, c.limit), c
    assert kinds, dataset


def test_markdown_shows_the_tested_number_beside_the_value(reports):
    text = render_markdown(reports["judge"])
    assert "| value | tested | threshold |" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("| majority answer share"))
    assert "Wilson 95% lower bound <= 0.75" in line


@pytest.mark.parametrize(("op", "limit", "x", "want"), [
    ("<=", (0.05,), 0.05, "pass"), ("<=", (0.05,), 0.0501, "fail"), (">=", (0.95,), 0.95, "pass"),
    (">=", (0.95,), 0.9, "fail"), ("=", (1.0,), 1 - 1e-12, "pass"), ("=", (0.0,), 0.01, "fail"),
    ("in", (0.45, 0.55), 0.5, "pass"), ("in", (0.45, 0.55), 0.56, "fail"), ("<=", (0.05,), None, "n/a"),
])
def test_ops(op, limit, x, want):
    assert decide(x, op, limit) == want


def test_a_value_above_its_limit_passes_only_when_the_line_says_what_was_tested():
    """A gap of +0.10 over chance on 10 rows is not evidence: the line passes on its lower bound,
    and the table's threshold and tested cell say so."""
    c = verdict("metadata gap over chance", "crj/test", "metadata", 0.10, 10, op="<=", limit=0.05,
                signed=True, tested=-0.12, statistic="95% lower bound")
    assert c.status == "pass" and c.threshold == "95% lower bound <= +0.05" and c.tested == -0.12
    plain = verdict("oracle accuracy", "cpa/test", "oracle", 0.9, 10, op="=", limit=1.0)
    assert plain.status == "fail" and plain.tested == 0.9 and plain.threshold == "= 1"


class _Binary:
    """The suite calls majority_baseline needs: group, unit, score key, verdict (score, accuracy)."""

    def group_key(self, row):
        return row["template"]

    def unit_key(self, row):
        return row["unit"]

    def score(self, row, prediction):
        return {"correct": prediction == row["answer"]}

    def accuracy(self, record):
        return float(record["correct"])

    def score_key(self, row):
        return row["answer"]  # the verdict reads the gold alone

    def score_accuracy(self, row, prediction):
        return self.accuracy(self.score(row, prediction))


def test_majority_baseline_of_a_balanced_binary_config_is_one_half():
    rows = [{"template": "crj", "unit": f"u{i}", "answer": "Accept" if i % 2 else "Reject"} for i in range(20)]
    assert sum(majority_baseline(_Binary(), rows)) / 20 == 0.5
    skewed = [{**r, "answer": "Accept" if i < 14 else "Reject"} for i, r in enumerate(rows)]
    assert sum(majority_baseline(_Binary(), skewed)) / 20 == 0.7


def test_majority_baseline_needs_an_answer_that_recurs_across_units():
    """Values seen once (or only within one chart) are no prior: a constant guess cannot learn them."""
    rows = [{"template": "value", "unit": "c1", "answer": "3"}, {"template": "value", "unit": "c1", "answer": "3"},
            {"template": "value", "unit": "c2", "answer": "5"}]
    assert majority_baseline(_Binary(), rows) == [0.0, 0.0, 0.0]


def test_old_validity_files_without_the_tested_fields_still_read(tmp_path):
    old = {"release": "chartprobe-judge", "dataset": "judge", "passed": True,
           "checks": [{"check": "oracle accuracy", "scope": "cpa/test", "agent": "oracle", "value": 1.0,
                       "threshold": "= 1", "n": 4, "status": "pass"}]}
    path = tmp_path / "validity.json"
    path.write_text(json.dumps(old))
    assert read_validity([path])[0]["checks"][0]["status"] == "pass"
