"""`chartprobe score` streamed one model at a time (issue #18, item 6): same document, flat memory, atomic."""

from __future__ import annotations

import json
import shutil
import tracemalloc

import pytest
from chartprobe.eval_tasks.gold import ReleaseGold
from chartprobe.eval_tasks.predictions import PredictionsError, write_samples
from chartprobe.eval_tasks.rescore import score_samples, write_scored
from chartprobe.eval_tasks.task_index import task_index

STAMP = "2026-01-01T00-00-00.000001"


@pytest.fixture(scope="module")
def one_model(release_root, tmp_path_factory):
    """Samples of one model over every probes task: right, wrong and sentence answers mixed."""
    folder = tmp_path_factory.mktemp("rescore") / "model-a"
    gold = ReleaseGold(release_root)
    for t in task_index().values():
        if t.release == "probes":
            docs = list(gold.documents(t).values())
            answers = [str(d["answer"]) if i % 3 == 0 else f"It is {d['answer']}." if i % 3 == 1 else "7"
                       for i, d in enumerate(docs)]
            write_samples(folder, t.task, docs, answers, STAMP)
    return folder


def _models(one_model, root, n):
    for k in range(n):
        shutil.copytree(one_model, root / f"model-{k}")
    return root


def test_the_streamed_file_is_the_document_score_samples_returns(one_model, release_root, tmp_path):
    runs = _models(one_model, tmp_path / "runs", 3)
    out = tmp_path / "results.json"
    tasks = {}
    skipped = write_scored([runs], out, releases=release_root, progress=False, on_model=tasks.__setitem__)
    doc = score_samples([runs], releases=release_root)
    assert json.loads(out.read_text()) == json.loads(json.dumps(doc, default=str))
    assert sorted(tasks) == ["model-0", "model-1", "model-2"] and skipped == {}
    assert tasks["model-1"] == doc["models"]["model-1"]["tasks"]


def test_a_bad_file_in_a_later_model_leaves_the_old_results_and_no_temp_file(one_model, release_root, tmp_path):
    runs = _models(one_model, tmp_path / "runs", 2)
    bad = next((runs / "model-1").glob("samples_*.jsonl"))
    bad.write_text(bad.read_text() + "{not json\n")
    out = tmp_path / "results.json"
    out.write_text('{"old": true}')
    with pytest.raises(PredictionsError, match="invalid JSON"):
        write_scored([runs], out, releases=release_root, progress=False)
    assert out.read_text() == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json", "runs"]


def _peak(runs, release_root, out):
    tracemalloc.start()
    try:
        write_scored([runs], out, releases=release_root, progress=False)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_peak_memory_does_not_grow_with_the_number_of_models(one_model, release_root, tmp_path):
    # Each model is written out before the next is read: 4x the records, about the same peak.
    _peak(_models(one_model, tmp_path / "warm", 1), release_root, tmp_path / "warm.json")  # caches, imports
    two = _peak(_models(one_model, tmp_path / "two", 2), release_root, tmp_path / "two.json")
    eight = _peak(_models(one_model, tmp_path / "eight", 8), release_root, tmp_path / "eight.json")
    assert eight < 1.5 * two, (two, eight)
