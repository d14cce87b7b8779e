"""Provenance (issue #18, acceptance 3): every results and report file names its release and run,
and models scored on different releases are refused side by side unless --allow-mixed-releases."""

from __future__ import annotations

import json
import os
import time

import pytest
import warm_python
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.eval_tasks.harness.runner import stamp_new_results
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, sample_files
from lm_eval_run import OFFLINE

from chartprobe.cli import main

RELEASE_FIELDS = {"release", "path", "revision", "preset", "seed", "generator_version", "content_hash", "source"}
STAMP = "2026-03-01T00-00-00.000001"
RUN = {"config": {"model": "hf-multimodal", "model_args": "pretrained=tiny,max_images=1",
                  "gen_kwargs": {"max_gen_toks": 16}, "limit": None, "batch_size": 8},
       "lm_eval_version": "0.4.13", "configs": {"chartprobe_smoke": {}}}


def _card(release):
    return read_card_metadata(release)["chartprobe"]


def _one_line(capsys, fragment):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error: ") and fragment in err[0], err


@pytest.fixture(scope="module")
def scored(smoke_release, tmp_path_factory):
    """results.json of model m1 (with lm-eval's results file next to its samples) on the smoke release."""
    tmp = tmp_path_factory.mktemp("prov")
    rows = load_release_rows(smoke_release)[("default", "test")]
    folder = tmp / "runs" / "m1"
    folder.mkdir(parents=True)
    lines = [{"doc_id": i, "doc": {**r, "release_hash": _card(smoke_release)["content_hash"]},
              "resps": [[r["answer"]]], "filtered_resps": [r["answer"]]} for i, r in enumerate(rows)]
    (folder / f"samples_chartprobe_smoke_{STAMP}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (folder / f"results_{STAMP}.json").write_text(json.dumps(RUN))
    out = tmp / "results.json"
    assert main(["score", "--predictions", str(tmp / "runs"), "--out", str(out),
                 "--releases", str(smoke_release.parent)]) == 0
    return tmp, out


def test_results_and_report_carry_provenance(scored, smoke_release):
    tmp, results = scored
    doc = json.loads(results.read_text())
    card = _card(smoke_release)
    rel = doc["releases"]["smoke"]
    assert set(rel) == RELEASE_FIELDS and rel["source"] == "local" and rel["path"] == str(smoke_release)
    assert (rel["content_hash"], rel["preset"], rel["generator_version"]) == (
        card["content_hash"], card["preset"], card["generator_version"])
    assert doc["provenance"]["chartprobe_version"] and doc["provenance"]["lm_eval_version"]
    (run,) = doc["models"]["m1"]["runs"]
    assert run["model_args"] == "pretrained=tiny,max_images=1" and run["gen_kwargs"] == {"max_gen_toks": 16}
    assert run["lm_eval_version"] == "0.4.13" and run["results_file"].endswith(f"results_{STAMP}.json")

    assert main(["report", str(results), "--out", str(tmp / "rep")]) == 0
    rep = json.loads((tmp / "rep" / "report.json").read_text())
    (release,) = rep["provenance"]["m1"]["releases"]["smoke"]
    assert set(release) == RELEASE_FIELDS and release["content_hash"] == card["content_hash"]
    assert rep["provenance"]["m1"]["runs"] == [run] and rep["mixed_releases"] == {}
    md = (tmp / "rep" / "report.md").read_text()
    assert "## Provenance" in md and card["content_hash"][:12] in md and "pretrained=tiny" in md


def _other_release(tmp, results, model):
    """The same results as another model scored on a release with another content hash."""
    doc = json.loads(results.read_text())
    doc["models"] = {model: doc["models"]["m1"]}
    doc["releases"]["smoke"]["content_hash"] = "f" * 64
    path = tmp / f"{model}.json"
    path.write_text(json.dumps(doc))
    return path


def test_report_refuses_models_on_different_releases(scored, capsys):
    tmp, results = scored
    other = _other_release(tmp, results, "m2")
    assert main(["report", str(results), str(other), "--out", str(tmp / "mixed")]) == 2
    _one_line(capsys, "suite smoke: m1 was scored on")
    assert not (tmp / "mixed").exists()
    # one model merged from files on two releases is refused the same way
    again = _other_release(tmp, results, "m1")
    assert main(["report", str(results), str(again), "--out", str(tmp / "merged")]) == 2
    _one_line(capsys, "--allow-mixed-releases")


def test_allow_mixed_releases_reports_them_as_mixed(scored, smoke_release, capsys):
    tmp, results = scored
    other = _other_release(tmp, results, "m2")
    assert main(["report", str(results), str(other), "--out", str(tmp / "allowed"), "--allow-mixed-releases"]) == 0
    assert "warning: suite smoke mixes 2 releases" in capsys.readouterr().out
    rep = json.loads((tmp / "allowed" / "report.json").read_text())
    assert rep["mixed_releases"] == {"smoke": sorted([_card(smoke_release)["content_hash"], "f" * 64])}
    assert "**Mixed releases:**" in (tmp / "allowed" / "report.md").read_text()


def test_score_refuses_samples_made_on_another_release(smoke_release, tmp_path, capsys):
    rows = load_release_rows(smoke_release)[("default", "test")]
    folder = tmp_path / "runs" / "m"
    folder.mkdir(parents=True)
    line = {"doc_id": 0, "doc": {**rows[0], "release_hash": "0" * 64}, "resps": [["1"]]}
    (folder / f"samples_chartprobe_smoke_{STAMP}.jsonl").write_text(json.dumps(line) + "\n")
    assert main(["score", "--predictions", str(folder), "--out", str(tmp_path / "r.json"),
                 "--releases", str(smoke_release.parent)]) == 2
    _one_line(capsys, "content hash 000000000000")


def test_documents_carry_the_release_hash(smoke_release, monkeypatch):
    monkeypatch.setenv(data.ENV_VAR, str(smoke_release.parent))
    docs = data.load_release("smoke")["test"]
    assert set(docs["release_hash"]) == {_card(smoke_release)["content_hash"]}


def test_stamp_adds_provenance_to_lm_eval_results(smoke_release, tmp_path, monkeypatch):
    monkeypatch.setenv(data.ENV_VAR, str(smoke_release.parent))
    since = time.time()
    (tmp_path / "out" / "model").mkdir(parents=True)
    path = tmp_path / "out" / "model" / f"results_{STAMP}.json"
    path.write_text(json.dumps(RUN))
    assert stamp_new_results(["run", "--output_path", str(tmp_path / "out")], since) == [path]
    doc = json.loads(path.read_text())
    block = doc["chartprobe_provenance"]
    assert doc["config"] == RUN["config"]  # lm-eval's own fields are kept
    assert block["releases"]["smoke"]["content_hash"] == _card(smoke_release)["content_hash"]
    assert block["run"]["model_args"] == RUN["config"]["model_args"] and block["lm_eval_version"]


def test_chartprobe_eval_stamps_results_and_samples(tiny_vlm, smoke_release, tmp_path):
    """A real `chartprobe eval` run: its results file and logged docs name the release, and `score` reads
    the model and generation arguments back."""
    out = tmp_path / "eval"
    argv = ["--model", "hf-multimodal", "--model_args", f"pretrained={tiny_vlm},max_images=1,dtype=float32",
            "--device", "cpu", "--tasks", "chartprobe_smoke", "--limit", "2", "--max-gen-toks", "8",
            "--output_path", str(out), "--log_samples"]
    code = f"import sys; from chartprobe.eval_tasks.harness.runner import run_eval; sys.exit(run_eval({argv!r}))"
    env = {**os.environ, **OFFLINE, data.ENV_VAR: str(smoke_release.parent),
           "HF_DATASETS_CACHE": str(tmp_path / "cache"), "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(["-c", code], env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    digest = _card(smoke_release)["content_hash"]
    (results,) = out.rglob("results_*.json")
    block = json.loads(results.read_text())["chartprobe_provenance"]
    assert block["releases"]["smoke"]["content_hash"] == digest
    assert block["run"]["gen_kwargs"] == {"max_gen_toks": 8} and str(tiny_vlm) in str(block["run"]["model_args"])
    (samples,) = sample_files([out])
    assert {json.loads(x)["doc"]["release_hash"] for x in samples.read_text().splitlines()} == {digest}
    assert main(["score", "--predictions", str(out), "--out", str(tmp_path / "r.json"), "--allow-partial",
                 "--releases", str(smoke_release.parent)]) == 0
    (model,) = json.loads((tmp_path / "r.json").read_text())["models"].values()
    assert model["runs"][0]["releases"]["smoke"]["content_hash"] == digest
