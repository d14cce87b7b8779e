"""`chartprobe score` streamed one model at a time (issue #18, item 6): same document, flat memory, atomic."""

from __future__ import annotations

import json
import shutil
import tracemalloc

import pytest
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.rescoring.predictions import PredictionsError, write_samples
from chartprobe.eval_tasks.rescoring.rescore import score_samples, write_scored
from chartprobe.eval_tasks.suites._task_index import task_index

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


def test_worker_processes_write_the_same_file_byte_for_byte(one_model, release_root, tmp_path):
    # Models are scored independently and come back in model order: any --num-proc, one file.
    runs = _models(one_model, tmp_path / "runs", 5)
    files = {}
    for n in (1, 2, 3):
        lines: list = []
        write_scored([runs], tmp_path / f"w{n}.json", releases=release_root, progress=False, num_proc=n,
                     on_model=lambda model, tasks, lines=lines: lines.append((model, tasks)))
        files[n] = ((tmp_path / f"w{n}.json").read_bytes(), lines)
    assert files[1] == files[2] == files[3]
    assert [m for m, _ in files[2][1]] == [f"model-{k}" for k in range(5)]
    assert score_samples([runs], releases=release_root, num_proc=2) == score_samples([runs], releases=release_root)


def test_a_worker_failure_is_the_first_bad_model_s_own_error(one_model, release_root, tmp_path):
    runs = _models(one_model, tmp_path / "runs", 4)
    for k in (1, 3):
        bad = min((runs / f"model-{k}").glob("samples_*.jsonl"))
        bad.write_text(bad.read_text() + "[1, 2]\n")
    out = tmp_path / "results.json"
    with pytest.raises(PredictionsError, match=r"model-1/samples_.*expected a JSON object"):
        write_scored([runs], out, releases=release_root, progress=False, num_proc=2)
    assert not out.exists()


def test_the_memo_returns_fresh_records_equal_to_scoring_anew(release_root):
    from chartprobe.eval_tasks.rescoring.rescore import ScoreMemo
    from chartprobe.eval_tasks.suites import suite_for_task

    task = next(t for t in task_index().values() if t.release == "probes")
    suite = suite_for_task(task.task)
    docs = list(ReleaseGold(release_root).documents(task).items())[:3]
    memo = ScoreMemo(size=2)
    for _ in range(2):
        for position, (key, doc) in enumerate(docs):
            for answer in (str(doc["answer"]), "I don't know"):
                fresh = {**suite.score(doc, answer), "task": task.task, "doc_id": position, "row_id": doc["id"]}
                rec = memo.score(suite, task.task, key, doc, answer, position)
                assert rec == fresh
                rec["task"] = "changed"  # a caller's edit never reaches the next caller
                assert memo.score(suite, task.task, key, doc, answer, position) == fresh
    assert len(memo._seen) <= 2 and memo.hits and memo.misses
    key, doc = docs[0]
    long_answer = "Let me think. " * 100 + str(doc["answer"])
    fresh = {**suite.score(doc, long_answer), "task": task.task, "doc_id": 0, "row_id": doc["id"]}
    assert memo.score(suite, task.task, key, doc, long_answer, 0) == fresh
    assert all(long_answer not in k for k in memo._seen)  # long responses are never held


def test_lines_json_writes_but_orjson_refuses_still_score(one_model, release_root, tmp_path):
    # json.dumps writes NaN metric values and big integers; the fast reader falls back to json.
    runs = _models(one_model, tmp_path / "runs", 1)
    path = min((runs / "model-0").glob("samples_*.jsonl"))
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["metrics"], first["filter_hash"] = [float("nan")], 2 ** 70
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n\n")  # and a blank line at the end
    plain = score_samples([one_model], releases=release_root)["models"]["model-a"]["tasks"]
    assert score_samples([runs], releases=release_root)["models"]["model-0"]["tasks"] == plain


def test_sample_files_lists_what_rglob_finds_in_path_order(tmp_path):
    from chartprobe.eval_tasks.rescoring.predictions import sample_files

    for folder in ("a", "a-b", "a/x", "a.b/c", "B"):
        for name in ("samples_t_2026-01-01T00-00-00.1.jsonl", "samples_u_2026-01-01T00-00-00.1.jsonl", "notes.txt"):
            (tmp_path / folder).mkdir(parents=True, exist_ok=True)
            (tmp_path / folder / name).write_text("")
    newer = tmp_path / "a" / "samples_t_2026-02-01T00-00-00.1.jsonl"
    newer.write_text("")
    expected = [p for p in sorted(tmp_path.rglob("samples_*.jsonl")) if p != newer.with_name(
        "samples_t_2026-01-01T00-00-00.1.jsonl")]
    assert sample_files([tmp_path]) == expected
