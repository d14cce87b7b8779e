"""Coverage is its own number (issue 41, point 2): a document the model never saw is missing, not a
parse failure. A run answering half of ``chartprobe_legend`` shows coverage 0.50 and the parse-failure
rate over the answered documents in ``results.json``, the profile and ``report.md``, scored with
missing documents as wrong (the default) and with ``--allow-partial`` (the run labelled partial)."""

from __future__ import annotations

import json

import pytest
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.rescoring.predictions import write_samples
from chartprobe.eval_tasks.rescoring.rescore import write_scored
from chartprobe.eval_tasks.suites._task_index import task_index

STAMP = "2026-01-01T00-00-00.000001"
TASK = "chartprobe_legend"


@pytest.fixture(scope="module")
def half_run(release_root, tmp_path_factory):
    """The first half of the task's documents answered, every fourth of them with nothing parseable;
    returns (samples folder, parse-failure rate over the answered documents counted here, coverage:
    0.5, or just under it when the task has an odd number of documents)."""
    root = tmp_path_factory.mktemp("coverage")
    docs = list(ReleaseGold(release_root).documents(task_index()[TASK]).values())
    answered = docs[: len(docs) // 2]
    answers = ["" if i % 4 == 0 else str(d["answer"]) for i, d in enumerate(answered)]
    write_samples(root / "samples" / "half-model", TASK, answered, answers, STAMP)
    return root / "samples", sum(a == "" for a in answers) / len(answered), len(answered) / len(docs)


@pytest.mark.parametrize("allow_partial", [False, True], ids=["missing-as-wrong", "allow-partial"])
def test_half_coverage_is_reported_apart_from_parse_failures(half_run, release_root, tmp_path, allow_partial):
    from chartprobe.eval_tasks.report.build import build_report
    from chartprobe.training.profile_sources import profile_from_results_file

    samples, fail_rate, coverage = half_run
    assert 0 < fail_rate < 0.5 and 0.49 < coverage <= 0.5
    out = tmp_path / "results.json"
    write_scored([samples], out, releases=release_root, progress=False, allow_partial=allow_partial)
    entry = json.loads(out.read_text())["models"]["half-model"]
    # results.json: coverage beside the score, parse failures over the covered documents only
    assert entry["tasks"][TASK]["coverage"] == pytest.approx(coverage)
    assert entry["tasks"][TASK]["partial"] is allow_partial
    assert entry["suite_coverage"]["legend"]["test"] == pytest.approx(coverage)
    assert entry["suites"]["legend"]["parse_fail_rate"] == pytest.approx(fail_rate)
    assert entry["tasks"][TASK]["metrics"]["parse_fail_rate"] == pytest.approx(fail_rate)
    # profile
    legend = profile_from_results_file(out)["benchmarks"]["legend"]
    assert legend["coverage"] == pytest.approx(coverage)
    assert legend["parse_failure_rate"] == pytest.approx(fail_rate)
    assert legend["legendbench"]["parse_fail_rate"] == pytest.approx(fail_rate)
    # report.json and the coverage column of report.md's comparison table
    report = build_report([out], tmp_path / "report")
    prof = report["models"]["half-model"]["legend"]
    assert prof["coverage"]["test"] == pytest.approx(coverage)
    assert prof["summary"]["parse_fail_rate"] == pytest.approx(fail_rate)
    md = (tmp_path / "report" / "report.md").read_text()
    table = md[md.index("## Comparison: legend"):].split("\n\n")[1].splitlines()
    header = [c.strip() for c in table[0].strip("|").split("|")]
    row = [c.strip() for c in table[2].strip("|").split("|")]
    assert row[header.index("coverage")] == f"{coverage:.3f}"
    assert row[header.index("split")] == "test"
    if allow_partial:  # a partial run is labelled where its task is listed
        assert f"{TASK} (partial)" in md
