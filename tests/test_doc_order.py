"""Task document order (``eval_tasks/rescoring/doc_order.py``): any ``--limit`` covers every template.

lm-eval's ``--limit N`` evaluates a task's first N documents. Over the small releases, every
task's loader (its YAML ``custom_dataset``, called as lm-eval calls it) must put one document
of every template among the first 14 (14 distinct templates where a task has more), keep a
CPA pair's two orders adjacent, and number documents exactly as the gold of ``chartprobe
score`` does, so ``doc_id`` means one document everywhere.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.rescoring.doc_order import interleave
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.rescoring.predictions import write_samples
from chartprobe.eval_tasks.rescoring.rescore import score_samples
from chartprobe.eval_tasks.rescoring.results import from_columns
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._task_index import TASKS_DIR, _load, task_index

LIMIT = 14
TEMPLATE = {"probes": "template_id", "legend": "template", "families": "source", "smoke": "answer_type"}
"""What a template is, per release (judge: a CPA pair's criterion, a CRJ item's injected failure)."""


def _template(release: str, row: dict) -> str:
    if release == "judge":
        return str(row["criterion"] if "pair_id" in row else row["failure"])
    return str(row[TEMPLATE[release]])


def _loaders() -> dict[str, tuple[str, dict]]:
    """Task name -> (its ``custom_dataset`` function reference, its ``dataset_kwargs``)."""
    out = {}
    for path in sorted(Path(TASKS_DIR).glob("*.yaml")):
        body = _load(path)
        if "task" in body and "custom_dataset" in body:
            out[body["task"]] = (body["custom_dataset"].removeprefix("!function ").strip(), body["dataset_kwargs"])
    return out


def _lm_eval_docs(task: str) -> list[dict]:
    """The task's test documents as lm-eval reads them (image columns left out), in order."""
    ref, kwargs = _loaders()[task]
    module, name = ref.rsplit(".", 1)
    loader = getattr(importlib.import_module(f"chartprobe.eval_tasks.harness.tasks.{module}"), name)
    ds = loader(**kwargs, version=1.0)[task_index()[task].split]
    return ds.remove_columns([c for c in ds.column_names if c.startswith("image") and c != "image_token"]).to_list()


@pytest.fixture(scope="module")
def task_docs(release_root) -> dict[str, list[dict]]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(data.ENV_VAR, str(release_root))
        mp.setenv("HF_DATASETS_OFFLINE", "1")
        return {task: _lm_eval_docs(task) for task in task_index()}


def test_every_task_has_a_loader():
    assert set(_loaders()) == set(task_index())


def test_first_14_documents_cover_every_template(task_docs):
    for task, docs in task_docs.items():
        release = task_index()[task].release
        present = {_template(release, d) for d in docs}
        head = {_template(release, d) for d in docs[:LIMIT]}
        assert len(head) == min(len(present), LIMIT), (task, sorted(present - head))


def test_cpa_pairs_stay_whole_and_criteria_take_turns(task_docs):
    docs = task_docs["chartprobe_judge_cpa"]
    assert len(docs) >= LIMIT
    head = docs[:LIMIT]
    for first, second in zip(head[::2], head[1::2]):
        assert first["pair_id"] == second["pair_id"]
        assert (first["order"], second["order"]) == ("better_first", "worse_first")
    assert len({d["criterion"] for d in head}) == LIMIT // 2  # 7 criteria, one pair each


def test_lm_eval_order_is_the_gold_order(task_docs, release_root):
    """``chartprobe score`` positions (lm-eval's doc_id) follow the loader's order, task by task."""
    gold = ReleaseGold(release_root)
    for task, docs in task_docs.items():
        suite = suite_for_release(task_index()[task].release)
        keys = [suite.doc_key(d) for d in docs]
        assert keys == list(gold.documents(task_index()[task])), task
        assert [gold.position(task_index()[task], d) for d in docs] == list(range(len(docs)))


def test_order_is_deterministic(release_root, task_docs):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(data.ENV_VAR, str(release_root))
        again = _lm_eval_docs("chartprobe_probes_shapes_reasoning")
    assert [d["id"] for d in again] == [d["id"] for d in task_docs["chartprobe_probes_shapes_reasoning"]]
    assert interleave([("b",), ("a",), ("b",), ("a",), ("c",)]) == [0, 1, 4, 2, 3]
    # nested keys: a template asked about two attributes takes one turn per round
    assert interleave([("t", "x"), ("t", "x"), ("t", "y"), ("u",)]) == [0, 3, 2, 1]
    # units travel whole, at their first member's place
    assert interleave([("a",), ("a",), ("b",), ("b",)], ["p", "p", "q", "q"]) == [0, 1, 2, 3]


def test_scoring_a_limit_14_run_matches_the_gold(task_docs, release_root, tmp_path):
    """Samples of a ``--limit 14`` run, in lm-eval order and numbering, score against the gold rows
    they name, each keeping its doc_id; the oracle answers of CPA score every whole pair right."""
    folder = tmp_path / "run"
    logged: dict[str, dict[str, int]] = {}
    for task, docs in task_docs.items():
        head = docs[:LIMIT]
        suite = suite_for_release(task_index()[task].release)
        answers = [f"<answer>{d['answer']}</answer>" for d in head]
        write_samples(folder, task, head, answers, "2026-01-01T00-00-00.1", list(range(len(head))))
        logged[task] = {suite.doc_key(d): i for i, d in enumerate(head)}
    results = score_samples([folder], releases=release_root, allow_partial=True)
    (model,) = results["models"].values()
    for columns in model["records"].values():
        for rec in from_columns(columns):  # row_id: the gold document's id, its doc_key
            assert logged[rec["task"]][rec["row_id"]] == rec["doc_id"], (rec["task"], rec["row_id"])
    # *_paper tasks read the same rows under the released rules: scored by the released protocol's suite,
    # whose records never pool with ours
    assert set(model["tasks"]) == set(task_docs) and not results["skipped_tasks"]
    paper = {t for t in task_docs if not task_index()[t].rescored}
    assert {model["tasks"][t]["suite"] for t in paper} == {"judge_paper", "families_paper"}
    assert not {r["task"] for r in from_columns(model["records"]["judge"])} & paper
    cpa = model["tasks"]["chartprobe_judge_cpa"]["metrics"]
    assert cpa["two_pass_accuracy"] == 1.0 and cpa["parse_fail_rate"] == 0.0


def test_half_a_pair_is_no_parse_failure(task_docs):
    """An odd --limit on CPA ends between a pair's two orders: that half pair is left out."""
    docs = task_docs["chartprobe_judge_cpa"][:LIMIT - 1]
    records = [jm.cpa_record(d, [d["answer"]]) for d in docs]
    summary = jm.cpa_summary(records)
    assert summary["n_pairs"] == (LIMIT - 1) // 2
    assert summary["parse_fail_rate"] == 0.0 and summary["two_pass_accuracy"] == 1.0
    assert summary["one_pass_accuracy"] == 1.0  # the single document still counts as a document


def test_paper_tasks_are_rescored_by_the_released_rules(task_docs, release_root, tmp_path):
    """``score`` reads ``*_paper`` samples with the released parsers into the ``judge_paper`` suite: a boxed
    choice and a bare ``Reject`` parse; an answer neither rule reads is a CRJ parse failure that the released
    precision leaves out."""
    folder = tmp_path / "run"
    cpa = task_docs["chartprobe_judge_cpa_paper"][:4]
    write_samples(folder, "chartprobe_judge_cpa_paper", cpa, [f"\\boxed{{Image {d['answer']}}}" for d in cpa],
                  "2026-01-01T00-00-00.1", list(range(len(cpa))))
    crj = task_docs["chartprobe_judge_crj_edit_paper"][:4]
    answers = ["[Answer]: Accept" if d["label"] == "Accept" else "I would Reject it." for d in crj[:3]] + ["unsure"]
    write_samples(folder, "chartprobe_judge_crj_edit_paper", crj, answers, "2026-01-01T00-00-00.1",
                  list(range(len(crj))))
    results = score_samples([folder], releases=release_root, allow_partial=True)
    (model,) = results["models"].values()
    assert set(model["records"]) == {"judge_paper"} and model["suites"]["judge_paper"]["protocol"] == "paper"
    assert model["tasks"]["chartprobe_judge_cpa_paper"]["metrics"]["two_pass_accuracy"] == 1.0
    edit = model["tasks"]["chartprobe_judge_crj_edit_paper"]["metrics"]
    assert edit["accuracy"] == 0.75 and edit["parse_fail_rate"] == 0.25
    parsed = [d for d in crj[:3]]
    accepts = sum(d["label"] == "Accept" for d in parsed)
    assert edit["precision"] == (1.0 if accepts else 0.0)  # over parsed verdicts only, all of them right
