"""`chartprobe report --compare A B` (issue #18, acceptance 2): a known difference is significant,
identical runs are not; the fast headlines equal the suites' own."""

from __future__ import annotations

import json
import shutil

import pytest
from chartprobe.eval_tasks.report.compare import compare_models, headline_of
from chartprobe.eval_tasks.rescoring.predictions import PredictionsError, load_release_rows
from chartprobe.eval_tasks.suites import suite_for_release

from chartprobe.cli import main


def _line(doc_id, doc, text):
    """One lm-eval 0.4.13 --log_samples line (image serialized as a string)."""
    return {"doc_id": doc_id, "doc": {**doc, "image": "<PIL.PngImagePlugin.PngImageFile image mode=RGB>"},
            "target": doc["answer"], "resps": [[text]], "filtered_resps": [text], "filter": "none"}


def _samples(folder, rows, right):
    """A model folder whose samples answer the rows in ``right`` (by index) correctly, the rest not."""
    folder.mkdir(parents=True)
    lines = [_line(i, r, f"The answer is {r['answer']}." if i in right else "no idea") for i, r in enumerate(rows)]
    (folder / "samples_chartprobe_smoke_2026-03-01T00-00-00.000001.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines))


@pytest.fixture(scope="module")
def scored(smoke_release, tmp_path_factory):
    """results.json of models A (right on 4 of 20 rows), B (right on 18) and A2 (an exact copy of A)."""
    tmp = tmp_path_factory.mktemp("compare")
    rows = load_release_rows(smoke_release)[("default", "test")]
    _samples(tmp / "runs" / "A", rows, set(range(4)))
    _samples(tmp / "runs" / "B", rows, set(range(18)))
    shutil.copytree(tmp / "runs" / "A", tmp / "runs" / "A2")
    out = tmp / "results.json"
    assert main(["score", "--predictions", str(tmp / "runs"), "--out", str(out),
                 "--releases", str(smoke_release.parent)]) == 0
    return tmp, out


def test_compare_reports_a_known_difference_as_significant(scored, capsys):
    tmp, results = scored
    assert main(["report", str(results), "--out", str(tmp / "rep"), "--compare", "A", "B"]) == 0
    assert "compare\tsmoke\tsmoke acc\tB-A=+0.700" in capsys.readouterr().out
    comparison = json.loads((tmp / "rep" / "report.json").read_text())["compare"]
    acc = comparison["suites"]["smoke"]["metrics"]["smoke acc"]
    assert comparison["a"] == "A" and comparison["suites"]["smoke"]["units"] == 20
    assert acc["a"] == pytest.approx(0.2) and acc["b"] == pytest.approx(0.9)
    assert acc["diff"] == pytest.approx(0.7) and acc["significant"] and acc["p_value"] < 0.01
    lo, hi = acc["ci95"]
    assert 0.4 <= lo < 0.7 < hi <= 0.9 + 1e-9
    md = (tmp / "rep" / "report.md").read_text()
    assert "## Comparison: B − A" in md and "+0.700 *" in md


def test_compare_identical_runs_is_not_significant(scored):
    tmp, results = scored
    assert main(["report", str(results), "--out", str(tmp / "same"), "--compare", "A", "A2"]) == 0
    acc = json.loads((tmp / "same" / "report.json").read_text())["compare"]["suites"]["smoke"]["metrics"]["smoke acc"]
    assert acc["diff"] == 0.0 and acc["p_value"] == pytest.approx(1.0) and not acc["significant"]
    assert acc["ci95"] == [0.0, 0.0]


def test_compare_unknown_model_is_one_line(scored, capsys):
    tmp, results = scored
    assert main(["report", str(results), "--out", str(tmp / "bad"), "--compare", "A", "nobody"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error: --compare: no model 'nobody'")
    assert not (tmp / "bad").exists()


def _family_records(n_families, right):
    """Scored family records: original, reconstruction and three variants per family, all right or all wrong."""
    out = []
    for f in range(n_families):
        ok = f in right
        for role, k in (("original", 1), ("reconstruction", 1), ("variant", 3)):
            out += [{"family_id": f"fam{f}", "role": role, "correct": ok, "normalized": "x" if ok else "y",
                     "task": "chartprobe_families", "doc_id": 5 * f + i, "row_id": f"fam{f}-{role}-{i}",
                     "resolution": False, "parse_failed": False} for i in range(k)]
    return out


def test_compare_pairs_over_families_and_tests_ratio_metrics():
    """Families are the unit (5 records each); RVC and CVA are recomputed per resample, not averaged."""
    merged = {"A": {"families": _family_records(12, set())}, "B": {"families": _family_records(12, set(range(12)))}}
    suite = compare_models(merged, "A", "B", n_resamples=199)["suites"]["families"]
    assert suite["units"] == 12
    oa, cva = suite["metrics"]["OA"], suite["metrics"]["CVA"]
    assert oa["diff"] == 1.0 and oa["significant"] and oa["p_value"] <= 4 / 200  # 199 random flips
    assert cva["a"] is None and cva["diff"] is None  # A solves no original: CVA undefined, not tested
    assert set(suite["metrics"]) == set(suite_for_release("families").headline({}))
    small = {m: {"families": recs[:15]} for m, recs in (("A", _family_records(3, set())),
                                                        ("B", _family_records(3, {0, 1, 2})))}
    exact = compare_models(small, "A", "B")["suites"]["families"]["metrics"]["OA"]
    assert exact["exact"] and exact["p_value"] == pytest.approx(2 / 8)  # 3 families: 8 sign flips, never < 0.25


@pytest.mark.parametrize("name", ["families", "legend"])
def test_fast_headlines_equal_the_suites_own(name, release_root):
    suite = suite_for_release(name)
    rows = [r for rs in load_release_rows(release_root / f"chartprobe-{name}").values() for r in rs][:400]
    records = [{**suite.score(r, str(r.get("answer")) if i % 3 else "no idea"), "task": "t", "doc_id": i}
               for i, r in enumerate(rows)]
    assert headline_of(suite, records) == suite.headline(suite.summarize(records))


def test_compare_needs_a_shared_suite():
    with pytest.raises(PredictionsError, match="no suite in common"):
        compare_models({"A": {"smoke": []}, "B": {"judge": []}}, "A", "B")
