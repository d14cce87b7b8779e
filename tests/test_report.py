"""`chartprobe score` on lm-eval samples files and `chartprobe report` folders."""

from __future__ import annotations

import argparse
import json

import pytest
from chartprobe.eval_tasks.commands import add_parsers
from chartprobe.eval_tasks.predictions import iter_samples, load_release_rows, sample_files, write_samples
from chartprobe.eval_tasks.results import from_columns, score_samples, to_columns
from chartprobe.eval_tasks.validate import run_agents, write_agent_samples


def _cli(argv):
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def _lm_eval_line(doc_id, doc, text):
    """A line exactly as lm-eval 0.4.13 --log_samples writes it (image serialized as a string)."""
    return {"doc_id": doc_id, "doc": {**doc, "image": "<PIL.PngImagePlugin.PngImageFile image mode=RGB>",
                                      "image_token": "<image>"},
            "target": doc["answer"], "arguments": {"gen_args_0": {"arg_0": "..."}}, "resps": [[text]],
            "filtered_resps": [text], "filter": "none", "metrics": ["accuracy", "relaxed_score", "parse_fail_rate"],
            "doc_hash": "x", "prompt_hash": "y", "target_hash": "z", "accuracy": 1.0}


def test_score_reads_lm_eval_samples_and_keeps_only_the_latest_run(smoke_release, tmp_path):
    rows = load_release_rows(smoke_release)[("default", "test")]
    folder = tmp_path / "out" / "__models__tiny"
    folder.mkdir(parents=True)
    old = folder / "samples_chartprobe_smoke_2026-01-01T00-00-00.000001.jsonl"
    new = folder / "samples_chartprobe_smoke_2026-02-01T00-00-00.000001.jsonl"
    old.write_text("".join(json.dumps(_lm_eval_line(i, r, "no idea")) + "\n" for i, r in enumerate(rows)))
    new.write_text("".join(json.dumps(_lm_eval_line(i, r, f"The answer is {r['answer']}.")) + "\n"
                           for i, r in enumerate(rows)))
    (folder / "samples_some_other_task_2026-02-01T00-00-00.000001.jsonl").write_text(
        json.dumps(_lm_eval_line(0, rows[0], "1")) + "\n")
    assert sample_files([tmp_path / "out"]) == sorted([new, folder / "samples_some_other_task_2026-02-01T00-00-00.000001.jsonl"])
    results = score_samples([tmp_path / "out"])
    task = results["models"]["__models__tiny"]["tasks"]["chartprobe_smoke"]
    assert task["n"] == len(rows) and task["metrics"]["accuracy"] == 1.0
    assert results["skipped_tasks"] == {"some_other_task": 1}


def test_columns_round_trip_drops_padding():
    recs = [{"a": 1, "fuzzy": 0.5}, {"a": 2}]
    assert from_columns(to_columns(recs)) == recs


@pytest.fixture(scope="module")
def agent_samples(probes_release, smoke_release, tmp_path_factory):
    folder = tmp_path_factory.mktemp("agents")
    for name, release in (("probes", probes_release), ("smoke", smoke_release)):
        runs = run_agents(name, load_release_rows(release), ["oracle", "blind", "random"])
        write_agent_samples(runs, folder)
    return folder


def test_agent_samples_look_like_lm_eval_output(agent_samples):
    files = sample_files([agent_samples / "oracle"])
    assert any(f.name.startswith("samples_chartprobe_probes_pie_grounding_") for f in files)
    sample = next(iter_samples(files[0]))
    assert sample.model == "oracle" and sample.doc["answer"] == sample.prediction


def test_score_then_report_writes_profiles_tables_and_plots(agent_samples, tmp_path, capsys):
    assert _cli(["score", "--samples", str(agent_samples / "oracle"), str(agent_samples / "blind"),
                 "--out", str(tmp_path / "a.json")]) == 0
    assert _cli(["score", "--samples", str(agent_samples / "random"), "--out", str(tmp_path / "b.json")]) == 0
    assert _cli(["report", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(tmp_path / "rep")]) == 0
    assert "report.md" in capsys.readouterr().out
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert sorted(rep["models"]) == ["blind", "oracle", "random"]
    oracle = rep["models"]["oracle"]["probes"]["summary"]
    assert set(oracle["per_skill"]) == {"perception", "grounding", "reasoning", "complex"}
    assert set(oracle["per_skill"].values()) == {1.0} and oracle["cr_fuzzy"] == 1.0
    assert rep["models"]["blind"]["probes"]["summary"]["per_skill"]["grounding"] < 0.5
    pngs = sorted(p.name for p in (tmp_path / "rep").glob("*.png"))
    assert len(pngs) >= 3 and pngs == sorted(rep["plots"])
    assert all((tmp_path / "rep" / p).read_bytes()[:4] == b"\x89PNG" for p in pngs)
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Comparison: probes" in md and "## Capability profile: oracle" in md and "![probes_per_skill]" in md


def test_report_merges_files_and_a_rerun_replaces_records(agent_samples, tmp_path):
    from chartprobe.eval_tasks.results import load_results

    doc = score_samples([agent_samples / "oracle"])
    (tmp_path / "one.json").write_text(json.dumps(doc))
    (tmp_path / "two.json").write_text(json.dumps(doc))
    merged = load_results([tmp_path / "one.json", tmp_path / "two.json"])
    n = sum(len(cols["task"]) for cols in doc["models"]["oracle"]["records"].values())
    assert sum(len(v) for v in merged["oracle"].values()) == n  # same rows twice count once


def test_write_samples_round_trips(tmp_path):
    rows = [{"id": "a", "question": "q", "answer": "1", "answer_type": "integer", "image": b"png"}]
    path = write_samples(tmp_path / "m", "chartprobe_smoke", rows, ["1"], "2026-01-01T00-00-00.1")
    (s,) = list(iter_samples(path))
    assert (s.task, s.doc_id, s.prediction, "image" in s.doc) == ("chartprobe_smoke", 0, "1", False)


def test_report_scale_benchmark_runs_small():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("report_scale", Path(__file__).parents[1] / "benchmarks" / "report_scale.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(5_000) < 30
