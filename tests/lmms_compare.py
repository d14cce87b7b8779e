"""The lm-eval side of ``tests/test_lmms_eval.py`` plus both harnesses on scripted answers, in one process.

    CHARTPROBE_DATA=DIR python tests/lmms_compare.py TINY_VLM --tiny TASK,... --limit N --scripted TASK,...

Prints one line ``CHARTPROBE_RESULTS <json>`` with

- ``index``: every ``chartprobe*`` task, group and tag name each harness's task manager finds
  (lm-eval on ``chartprobe tasks-path``, lmms-eval on ``chartprobe lmms-tasks-path``);
- ``tiny``: lm-eval's ``hf-multimodal`` on the tiny VLM with the chat template, greedy, float32, batch
  size 1 (what lmms-eval's ``llava_hf`` does) on the ``--tiny`` tasks with ``--limit``: per document its
  context and response, and the results;
- ``scripted``: both harnesses' results on every document of the ``--scripted`` tasks when a scripted
  model (:func:`reply`) answers each document from the document itself, some right and some wrong. A
  random tiny VLM's answers all score 0, so equal scores say little; these must come out equal
  through lm-eval's and lmms-eval's plumbing: cross-document aggregations (CPA pairs, families, legend
  groups, the probe template macro), ``repeats`` with voting, and cluster-bootstrap stderr included.

One process, so lm-eval and torch are imported once (the test's time budget). It is a subprocess of
the test because importing lmms-eval's evaluator patches ``filelock`` process-wide
(``evaluator._enable_reentrant_filelocks``).
"""

from __future__ import annotations

import json
from typing import Any

BOOTSTRAP_ITERS = 50
MAX_NEW_TOKENS = 16


def _gold(doc: dict[str, Any]) -> str:
    return ", ".join(json.loads(doc["answer"])) if doc["answer_type"] == "list" else doc["answer"]


def reply(doc: dict[str, Any]) -> str:
    """A deterministic, partly wrong answer from the document alone (no image, no model)."""
    if "pair_id" in doc:  # CPA: axis-scaling pairs always say A (position bias), the others the better image
        return "[Answer]: Image A" if doc["criterion"] == "axis_scaling" else f"[Answer]: Image {doc['answer']}"
    if "family_id" in doc:  # families: odd-seeded variants keep the original's answer (stale predictions)
        stale = doc["role"] == "variant" and int(doc["variant_seed"]) % 2
        return f"<answer>{doc['original_answer'] if stale else doc['answer']}</answer>"
    if "group_id" in doc:  # legend: right on base and preserved items, wrong on altered ones, and on hidden
        # evidence abstains for parsing questions only (abstention recall strictly between 0 and 1)
        answers = {"base": _gold(doc), "preserve": _gold(doc), "alter": "0"}
        return answers.get(doc["expected"], "I don't know" if doc["template"].startswith("t1_") else "1")
    return f"<answer>{doc['answer']}</answer>" if doc["template_id"].endswith("-POS") else "I cannot tell."


def _lm_manager():
    from chartprobe.eval_tasks.harness.runner import tasks_path
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=tasks_path(), include_defaults=False)


def _lmms_manager():
    from chartprobe.eval_tasks.harness.lmms.cli import lmms_tasks_path
    from lmms_eval.tasks import TaskManager

    return TaskManager(include_path=lmms_tasks_path(), include_defaults=False)


def lm_eval_tiny(model: str, tasks: list[str], limit: int) -> dict[str, Any]:
    import lm_eval

    out = lm_eval.simple_evaluate(
        model="hf-multimodal", model_args=f"pretrained={model},max_images=2,dtype=float32", device="cpu",
        batch_size=1, apply_chat_template=True, tasks=tasks, limit=limit, task_manager=_lm_manager(),
        gen_kwargs=f"max_gen_toks={MAX_NEW_TOKENS}", log_samples=True)
    samples = {task: {str(s["doc_id"]): {"context": s["arguments"][0][0], "response": s["filtered_resps"][0],
                                         "target": s["target"]} for s in out["samples"][task]} for task in tasks}
    return {"results": out["results"], "samples": samples}


def lm_eval_scripted(tasks: list[str], limit: int | None) -> dict[str, Any]:
    import lm_eval
    from lm_eval.api.model import LM

    class Scripted(LM):
        MULTIMODAL = True

        def generate_until(self, requests):
            return [reply(r.doc) for r in requests]

        def loglikelihood(self, requests):
            raise NotImplementedError

        loglikelihood_rolling = loglikelihood

    return lm_eval.simple_evaluate(model=Scripted(), tasks=tasks, limit=limit, bootstrap_iters=BOOTSTRAP_ITERS,
                                   task_manager=_lm_manager())["results"]


def lmms_eval_scripted(tasks: list[str], limit: int | None) -> dict[str, Any]:
    from lmms_eval.api.model import lmms
    from lmms_eval.evaluator import simple_evaluate

    class Scripted(lmms):  # a "simple" model: requests carry (context, gen_kwargs, doc_to_visual, doc_id, task, split)
        def generate_until(self, requests):
            out = []
            for r in requests:
                _, _, _, doc_id, task, split = r.args
                out.append(reply(self.task_dict[task][split][doc_id]))
            return out

        def loglikelihood(self, requests):
            raise NotImplementedError

        generate_until_multi_round = loglikelihood

    return simple_evaluate(model=Scripted(), tasks=tasks, limit=limit, bootstrap_iters=BOOTSTRAP_ITERS,
                           task_manager=_lmms_manager(), log_samples=False)["results"]


def _plain(value: Any) -> Any:
    """JSON-safe (NaN stays NaN: Python's json writes and reads it, as lmms-eval's results file has it)."""
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def _results(results: dict[str, Any], tasks: list[str]) -> dict[str, Any]:
    return {t: {k: _plain(v) for k, v in results[t].items()} for t in tasks}


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("tiny_vlm")
    p.add_argument("--tiny", required=True, help="tasks for the tiny VLM")
    p.add_argument("--limit", type=int, required=True, help="--limit of the tiny VLM run")
    p.add_argument("--scripted", required=True, help="tasks for the scripted answers (every document)")
    args = p.parse_args()
    tiny_tasks, scripted_tasks = args.tiny.split(","), args.scripted.split(",")
    index = {"lm_eval": sorted(x for x in _lm_manager().all_tasks if x.startswith("chartprobe")),
             "lmms_eval": sorted(x for x in _lmms_manager().all_tasks if x.startswith("chartprobe"))}
    tiny = lm_eval_tiny(args.tiny_vlm, tiny_tasks, args.limit)
    report = {
        "index": index,
        "tiny": {"results": _results(tiny["results"], tiny_tasks), "samples": tiny["samples"]},
        "scripted": {"lm_eval": _results(lm_eval_scripted(scripted_tasks, None), scripted_tasks),
                     "lmms_eval": _results(lmms_eval_scripted(scripted_tasks, None), scripted_tasks)},
    }
    print("CHARTPROBE_RESULTS " + json.dumps(report))
