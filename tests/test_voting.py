"""Repeats and majority voting (issue #16, part 2): through lm-eval and through ``chartprobe score``.

A scripted model answers every judge document three times, wrong first and right twice. Voting
over the three must score right in lm-eval's table (``accuracy``/``two_pass_accuracy``, and the
curve's ``*_k3``) while the first sample alone (``*_k1``) scores wrong; ``chartprobe score``,
reading the samples file lm-eval's own tracker writes, must agree.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.rescoring.predictions import iter_samples
from chartprobe.eval_tasks.scoring.voting import majority_record, responses, votes
from chartprobe.eval_tasks.suites import suite_for_release

from chartprobe.cli import main

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
REPEATS = 3
WRONG = {"A": "B", "B": "A", "accept": "reject", "reject": "accept"}


def test_responses_flatten_both_shapes_lm_eval_hands_over():
    assert responses(["one"]) == ["one"]
    assert responses([["r1", "r2", None]]) == ["r1", "r2", ""]
    assert votes([{"verdicts": [1, 2, 3]}, {"verdicts": [1, 2]}], "verdicts") == 2
    assert votes([], "verdicts") == 1


def test_majority_record_takes_the_most_given_answer_and_the_first_on_a_tie():
    wrong, right = {"normalized": "12", "correct": False}, {"normalized": "40", "correct": True}
    rec = majority_record([wrong, right, dict(right)])
    assert rec["correct"] and rec["votes"] == 3 and rec["vote_share"] == pytest.approx(2 / 3)
    assert rec["responses_correct"] == [False, True, True]
    assert not majority_record([wrong, right])["correct"]  # a tie: the answer given first
    with pytest.raises(ValueError):
        majority_record([])


@pytest.mark.parametrize("responses_, expected", [
    (["[Answer]: Reject", "[Answer]: Accept", "[Answer]: Accept"], True),
    (["[Answer]: Reject", "[Answer]: Accept"], False),  # a tie is no verdict (§4.5)
    (["[Answer]: Reject"], False),
])
def test_the_judge_suite_votes_over_parsed_verdicts(responses_, expected):
    suite = suite_for_release("judge")
    row = {"item_id": "i0", "label": "Accept", "task": "reproduction"}
    assert suite.score_votes(row, responses_)["correct"] is expected


class _Scripted:
    """An lm-eval model whose first sample of every document is wrong and whose others are right."""

    def __new__(cls):
        from lm_eval.api.model import LM

        class Scripted(LM):
            MULTIMODAL = True

            def generate_until(self, requests, disable_tqdm: bool = False):
                seen: Counter = Counter()
                out = []
                for req in requests:  # lm-eval hands each document's request `repeats` times in a row
                    seen[id(req)] += 1
                    gold = req.doc["answer"] if "pair_id" in req.doc else str(req.doc["label"]).lower()
                    label = WRONG[gold] if seen[id(req)] == 1 else gold
                    out.append(f"<think>Looking at both charts.</think>\n[Answer]: {label.capitalize()}\n"
                               "[Reason]: scripted.")
                return out

            def loglikelihood(self, requests, disable_tqdm: bool = False):
                raise NotImplementedError

            def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
                raise NotImplementedError

        return Scripted()


def _vote_config(task: str, repeats: int) -> dict:
    """The task's own YAML (lm-eval's loader) with ``repeats`` and the keep-all filter set to ``repeats``."""
    from lm_eval.tasks._yaml_loader import load_yaml

    cfg = load_yaml(Path(tasks_path()) / f"{task}.yaml", resolve_func=True)
    assert cfg["repeats"] == 9 and cfg["filter_list"][0]["filter"] == [{"function": "take_first_k", "k": 9}]
    cfg.update(repeats=repeats, filter_list=[{"name": "vote", "filter": [{"function": "take_first_k", "k": repeats}]}])
    return cfg


@pytest.mark.slow
def test_voting_over_three_repeats_scores_right_in_lm_eval_and_in_score(release_root, tmp_path, monkeypatch):
    import lm_eval
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    for key, value in {**OFFLINE, data.ENV_VAR: str(release_root), "HF_DATASETS_CACHE": str(tmp_path / "cache")}.items():
        monkeypatch.setenv(key, value)
    tasks = ["chartprobe_judge_cpa_vote", "chartprobe_judge_crj_repro_vote"]
    out = lm_eval.simple_evaluate(model=_Scripted(), tasks=[_vote_config(t, REPEATS) for t in tasks],
                                  task_manager=TaskManager(include_path=tasks_path(), include_defaults=False), limit=6, log_samples=True,
                                  bootstrap_iters=0)
    cpa, crj = (out["results"][t] for t in tasks)
    assert (cpa["two_pass_accuracy,vote"], cpa["two_pass_accuracy_k3,vote"], cpa["two_pass_accuracy_k1,vote"]) == (1, 1, 0)
    assert cpa["bias_a_rate,vote"] == 0 and cpa["parse_fail_rate,vote"] == 0
    assert (crj["accuracy,vote"], crj["accuracy_k3,vote"], crj["accuracy_k1,vote"]) == (1, 1, 0)
    assert crj["accuracy_k5,vote"] != crj["accuracy_k5,vote"]  # NaN: three samples cannot vote over five

    # What `lm_eval --log_samples --output_path` does with a finished run (lm_eval/_cli/run.py).
    tracker = EvaluationTracker(output_path=str(tmp_path / "run"))
    tracker.general_config_tracker.model_name_sanitized = "scripted"
    samples = out.pop("samples")
    # A transfer task of the same run (as `--tasks chartprobe_vote,chartqa` would give): score carries
    # lm-eval's own numbers for it and the report shows them.
    out["results"]["chartqa"] = {"alias": "chartqa", "relaxed_accuracy,none": 0.25, "relaxed_accuracy_stderr,none": 0.1}
    tracker.save_results_aggregated(results=out, samples=samples)
    for task in tasks:
        tracker.save_results_samples(task_name=task, samples=samples[task])
    files = sorted((tmp_path / "run").rglob("samples_*.jsonl"))
    assert len(files) == 2
    logged = [s for f in files for s in iter_samples(f, "scripted")]
    assert logged and all(len(s.responses) == REPEATS for s in logged)

    results = tmp_path / "scored.json"
    assert main(["score", "--predictions", str(tmp_path / "run"), "--out", str(results), "--releases", str(release_root),
                 "--allow-partial", "--quiet"]) == 0
    (model,) = json.loads(results.read_text())["models"].values()
    cpa_scored, crj_scored = (model["tasks"][t]["metrics"] for t in tasks)
    assert (cpa_scored["two_pass_accuracy"], cpa_scored["two_pass_accuracy_k3"], cpa_scored["two_pass_accuracy_k1"]) == (1, 1, 0)
    assert (crj_scored["accuracy"], crj_scored["accuracy_k3"], crj_scored["accuracy_k1"]) == (1, 1, 0)
    judge = model["suites"]["judge"]
    assert judge["cpa"]["voting"]["1"]["two_pass_accuracy"] == 0 and judge["cpa"]["voting"]["3"]["two_pass_accuracy"] == 1
    assert model["lm_eval_tasks"] == {"chartqa": {"relaxed_accuracy": 0.25}}
    assert main(["report", str(results), "--out", str(tmp_path / "report")]) == 0
    md = (tmp_path / "report" / "report.md").read_text()
    assert "## Tasks scored by lm-eval only" in md and "| chartqa | relaxed_accuracy | 0.2500 |" in md


def test_the_families_hook_and_suite_vote_over_normalised_answers():
    """A families run that kept every sample scores the majority answer, in lm-eval's hook and in ``score``."""
    import importlib.util

    from chartprobe.eval_tasks.metrics import families as fm

    spec = importlib.util.spec_from_file_location("families_utils", Path(tasks_path()) / "families_utils.py")
    fu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fu)
    doc = {"family_id": "f0", "role": "variant", "answer": "40", "answer_type": "number", "question": "q"}
    samples = ["<answer>12</answer>", "<answer>40</answer>", "<answer>40.0</answer>"]

    def correct(out: dict) -> bool:
        return fm.from_items([out[next(iter(out))]])[0]["correct"]

    assert not correct(fu.process_results(doc, [samples[0]]))
    assert correct(fu.process_results(doc, [samples]))
    rec = suite_for_release("families").score_votes(doc, samples)
    assert rec["correct"] and rec["votes"] == 3 and rec["responses_correct"] == [False, True, True]
