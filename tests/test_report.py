"""`chartprobe score` on lm-eval samples files and `chartprobe report` folders."""

from __future__ import annotations

import argparse
import json

import pytest
from chartprobe.eval_tasks.commands import add_parsers
from chartprobe.eval_tasks.rescoring.predictions import (
    iter_samples,
    load_release_rows,
    sample_files,
    write_samples,
)
from chartprobe.eval_tasks.rescoring.rescore import score_samples
from chartprobe.eval_tasks.rescoring.results import from_columns, to_columns
from chartprobe.eval_tasks.validity.validate import run_agents, write_agent_samples


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
    results = score_samples([tmp_path / "out"], releases=smoke_release.parent)
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


def test_score_then_report_writes_profiles_tables_and_plots(agent_samples, probes_release, tmp_path, capsys):
    gold = ["--releases", str(probes_release.parent), "--allow-partial"]  # agents answer what they apply to
    assert _cli(["score", "--predictions", str(agent_samples / "oracle"), str(agent_samples / "blind"),
                 "--out", str(tmp_path / "a.json"), *gold]) == 0
    assert _cli(["score", "--predictions", str(agent_samples / "random"), "--out", str(tmp_path / "b.json"), *gold]) == 0
    assert _cli(["report", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(tmp_path / "rep")]) == 0
    assert "report.md" in capsys.readouterr().out
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert sorted(rep["models"]) == ["blind", "oracle", "random"]
    oracle = rep["models"]["oracle"]["probes"]["summary"]
    assert set(oracle["per_skill"]) == {"perception", "grounding", "reasoning", "complex"}
    assert set(oracle["per_skill"].values()) == {1.0} and oracle["cr_fuzzy"] == 1.0
    assert rep["models"]["blind"]["probes"]["summary"]["per_skill"]["grounding"] < 0.5
    pngs = sorted(p.name for p in (tmp_path / "rep").glob("*.png"))
    assert len(pngs) >= 3 and pngs == sorted(p for p in rep["plots"] if p.endswith(".png"))
    assert sorted(rep["plots"]) == pngs  # PNG only by default (--formats png,pdf,svg adds vector copies)
    assert all((tmp_path / "rep" / p).read_bytes()[:4] == b"\x89PNG" for p in pngs)
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Comparison: probes" in md and "## Capability profile: oracle" in md and "![probes_per_skill]" in md
    assert md.index("## Model: blind") < md.index("## Comparison: probes") < md.index("## Provenance and validity")
    # each model's part made in worker processes (two groups: 2 models and 1) is the same report, byte for byte
    assert _cli(["report", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(tmp_path / "rep2"),
                 "--num-proc", "2"]) == 0
    for name in ("report.md", "report.json", *pngs):
        assert (tmp_path / "rep2" / name).read_bytes() == (tmp_path / "rep" / name).read_bytes(), name
    assert _cli(["report", str(tmp_path / "a.json"), "--out", str(tmp_path / "vec"), "--formats", "png,svg"]) == 0
    vec = json.loads((tmp_path / "vec" / "report.json").read_text())["plots"]
    assert {p.rsplit(".", 1)[1] for p in vec} == {"png", "svg"} and len(vec) == 2 * len([p for p in vec if p.endswith(".png")])


def test_report_merges_files_and_a_rerun_replaces_records(agent_samples, probes_release, tmp_path):
    from chartprobe.eval_tasks.rescoring.results import load_results

    doc = score_samples([agent_samples / "oracle"], releases=probes_release.parent, allow_partial=True)
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


def test_report_scale_benchmark_runs_small(release_root, capsys):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("report_scale", Path(__file__).parents[1] / "benchmarks" / "report_scale.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["--records", "3000", "--releases", str(release_root)])  # a few models of the small release
    out = capsys.readouterr().out
    # score runs on a tenth and on all of the records (whole models: each answers every probes task once)
    import re

    scored = re.findall(r"score on ([\d,]+) records: [\d.]+ s.*peak RSS (\d+) MB", out)
    assert len(scored) == 2 and int(scored[1][0].replace(",", "")) >= 3000 > int(scored[0][0].replace(",", "")), out
    assert "report on 3,000 scored records" in out and "byte-identical" in out, out


def _crj_docs(release_root):
    rows = load_release_rows(release_root / "chartprobe-judge")[("crj_reproduction", "test")]
    assert len(rows) == 10  # the small release: 10 CRJ reproduction items
    return rows


def test_a_run_missing_2_of_10_items_scores_0_8_with_its_coverage(release_root, tmp_path):
    rows = _crj_docs(release_root)
    kept = rows[:8]  # the last two documents were never answered
    write_samples(tmp_path / "m", "chartprobe_judge_crj_repro", kept,
                  [f"[Answer]: {r['label'].capitalize()}" for r in kept])
    full = score_samples([tmp_path / "m"], releases=release_root)["models"]["m"]["tasks"]["chartprobe_judge_crj_repro"]
    assert full["metrics"]["accuracy"] == pytest.approx(0.8) and full["coverage"] == pytest.approx(0.8)
    assert full["n"] == 10 and full["partial"] is False
    part = score_samples([tmp_path / "m"], releases=release_root, allow_partial=True)
    task = part["models"]["m"]["tasks"]["chartprobe_judge_crj_repro"]
    assert task["metrics"]["accuracy"] == 1.0 and task["coverage"] == pytest.approx(0.8) and task["partial"]
    assert part["gold"] == "release" and part["releases"]["judge"]["content_hash"]
    (tmp_path / "part.json").write_text(json.dumps(part))
    assert _cli(["report", str(tmp_path / "part.json"), "--out", str(tmp_path / "rep")]) == 0
    assert "| chartprobe_judge_crj_repro (partial) |" in (tmp_path / "rep" / "report.md").read_text()


def test_a_forged_gold_in_the_samples_is_ignored(smoke_release, tmp_path):
    rows = load_release_rows(smoke_release)[("default", "test")]
    forged = [{**r, "answer": "999"} for r in rows]  # the samples claim the model's answer is the gold
    write_samples(tmp_path / "m", "chartprobe_smoke", forged, ["999"] * len(rows))
    task = score_samples([tmp_path / "m"], releases=smoke_release.parent)["models"]["m"]["tasks"]["chartprobe_smoke"]
    assert task["metrics"]["accuracy"] == 0.0 and task["coverage"] == 1.0


def test_samples_from_another_release_are_refused_with_one_line(smoke_release, tmp_path, capsys):
    from chartprobe.cli import main

    rows = load_release_rows(smoke_release)[("default", "test")]
    other = [{**r, "question": r["question"] + " (edited)"} for r in rows[:3]] + \
        [{**r, "id": "not-a-row"} for r in rows[3:4]]
    write_samples(tmp_path / "m", "chartprobe_smoke", other, ["1"] * len(other))
    code = main(["score", "--predictions", str(tmp_path / "m"), "--releases", str(smoke_release.parent),
                 "--out", str(tmp_path / "r.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "made on another release" in err[0] and "content hash" in err[0]
    assert not (tmp_path / "r.json").exists()
    empty = tmp_path / "no-releases"
    empty.mkdir()
    assert main(["score", "--predictions", str(tmp_path / "m"), "--releases", str(empty),
                 "--out", str(tmp_path / "r.json")]) == 2
    assert "is not a release folder" in capsys.readouterr().err


def test_cpa_samples_as_lm_eval_logs_them_find_their_gold(release_root, tmp_path):
    """lm-eval's CPA documents carry pair_id + order, no row id (what the loader builds)."""
    rows = load_release_rows(release_root / "chartprobe-judge")[("cpa", "test")]
    docs, answers = [], []
    for r in rows:
        for order, gold in (("better_first", "A"), ("worse_first", "B")):
            docs.append({k: r[k] for k in ("pair_id", "criterion", "dimension", "strategy", "chart_kind")}
                        | {"order": order, "answer": gold})
            answers.append(f"[Answer]: Image {gold}")
    write_samples(tmp_path / "m", "chartprobe_judge_cpa", docs, answers)
    task = score_samples([tmp_path / "m"], releases=release_root)["models"]["m"]["tasks"]["chartprobe_judge_cpa"]
    assert task["coverage"] == 1.0 and task["metrics"]["two_pass_accuracy"] == 1.0


def test_report_formats_refuses_an_unknown_format_in_one_line(tmp_path, capsys):
    from chartprobe.cli import main

    assert main(["report", str(tmp_path / "r.json"), "--out", str(tmp_path / "bad"), "--formats", "png,jpg"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["chartprobe: error: --formats: unknown figure format 'jpg' (choose from png,pdf,svg)"]
    assert not (tmp_path / "bad").exists()
