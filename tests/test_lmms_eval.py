"""lmms-eval twins of the lm-eval tasks (issue #21): generated, complete, and scoring exactly as lm-eval does.

The end-to-end tests run lmms-eval 0.7.3's ``llava_hf`` model (its chat class: the processor's chat
template over images + text) on the tiny test LLaVA, offline, beside lm-eval's ``hf-multimodal``
with ``--apply_chat_template`` on the same documents. Both then build the same context
(``<|im_start|>user\\n<image>...text<|im_end|>\\n<|im_start|>assistant\\n``), decode greedily in float32 at
batch size 1, and must give the same responses and the same scores. lmms-eval strips each
response before scoring (``ConfigurableTask.process_results``); lm-eval does not, so responses are
compared stripped. A random model's answers all score 0, so ``tests/lmms_compare.py`` also feeds
both harnesses the same scripted, partly right answers: every metric and stderr must match.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from chartprobe.eval_tasks.harness.lmms.cli import lmms_tasks_path
from chartprobe.eval_tasks.harness.lmms.convert import LMMS_TASKS_DIR, STUB, differences, render_tree
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.suites._task_index import task_index

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["chartprobe_probes_bar_perception", "chartprobe_judge_cpa"]  # the tiny VLM's, --limit 4
LIMIT = 4
# scripted answers, every document: also the family, legend-group and voting aggregations
SCRIPTED = [*TASKS, "chartprobe_judge_cpa_vote", "chartprobe_families_bars", "chartprobe_legend"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
# Just enough rows: 4 perception probes (charts 3 and 4 carry them), 2 CPA pairs (4 documents), one
# family (12 rows), one legend chart (9 rows: chains, a probe, interventions that alter, preserve, abstain).
PRESETS = {
    "probes": "dataset: probes\npreset: lmms\nseed: 0\nshard_size: 8\n"
              "configs:\n  bar: {splits: {test: 5}, params: {probes_per_skill: 2}}\n",
    "judge": "dataset: judge\npreset: lmms\nseed: 0\nshard_size: 4\n"
             "configs:\n  cpa:\n    splits: {test: 2}\n    params: {pairs: {color_consistency: 1, axis_scaling: 1}}\n",
    "families": "dataset: families\npreset: lmms\nseed: 0\nshard_size: 12\nconfigs:\n  bars: {splits: {test: 1}}\n",
    "legend": "dataset: legend\npreset: lmms\nseed: 0\nshard_size: 8\nconfigs:\n  snapshot:\n"
              "    splits: {test: 1}\n    params: {chains_per_chart: 1, extra_probes: 1, interventions_per_group: 2}\n",
}


def _lmms_eval():
    return pytest.importorskip("lmms_eval", reason="lmms-eval is not installed (scripts/install.sh installs it: "
                                                   "chartprobe[lmms] + lmms-eval==0.7.3 --no-deps)")


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> Path:
    _lmms_eval()  # only the lmms-eval tests use them
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("lmms_releases")
    for name, text in PRESETS.items():
        preset = root / f"{name}-lmms.yaml"
        preset.write_text(text)
        build_release(name, root, preset)
    return root


def _env(tmp: Path, releases: Path) -> dict[str, str]:
    return {**os.environ, **OFFLINE, data.ENV_VAR: str(releases), "HF_DATASETS_CACHE": str(tmp / "cache"),
            "TOKENIZERS_PARALLELISM": "false"}


# --- the tree ----------------------------------------------------------------------------------------


def test_the_lmms_tree_is_what_the_converter_generates_from_the_lm_eval_tree():
    assert differences() == [], "run: python -m chartprobe.eval_tasks.harness.lmms.convert"
    assert lmms_tasks_path() == str(LMMS_TASKS_DIR)


def test_every_lm_eval_task_has_an_lmms_twin_with_its_prompt_scoring_and_metrics():
    tree = render_tree()
    lm_tasks = {p.name for p in Path(tasks_path()).glob("*.yaml")}
    assert set(tree) == lm_tasks | {STUB}
    assert set(task_index()) <= {Path(name).stem for name in lm_tasks}
    text = (LMMS_TASKS_DIR / "chartprobe_judge_cpa.yaml").read_text()
    assert "process_results: !function chartprobe.eval_tasks.harness.tasks.judge_utils.process_cpa\n" in text
    assert "aggregation: !function chartprobe.eval_tasks.harness.tasks.judge_utils.two_pass_accuracy\n" in text
    assert "doc_to_text: '{{prompt}}'" in text and "max_new_tokens: 2048" in text


def test_the_wheel_ships_the_lmms_tree():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = {p for g in globs["chartprobe.eval_tasks"] for p in (ROOT / "eval_tasks").glob(g)}
    assert set(LMMS_TASKS_DIR.iterdir()) <= shipped


@pytest.mark.parametrize("model", ["qwen2_vl", "qwen2_5_vl"])
def test_lmms_eval_qwen_models_find_qwen_vl_utils(model):
    """Without qwen-vl-utils these models log an error and the run still exits 0: the lmms extra has it."""
    import importlib

    assert importlib.import_module(f"lmms_eval.models.simple.{model}")._has_qwen_vl


def test_lmms_tasks_path_command(capsys):
    from chartprobe.cli import main

    assert main(["lmms-tasks-path"]) == 0
    assert capsys.readouterr().out.strip() == str(LMMS_TASKS_DIR)
    assert main(["lmms-tasks-path", "extra"]) == 2
    assert "unrecognized arguments: extra" in capsys.readouterr().err


def test_every_lmms_task_config_loads_and_resolves_its_hooks():
    """lmms-eval's own YAML loader (``!function`` imports, stub data file) and ``TaskConfig`` on every task."""
    _lmms_eval()
    from lmms_eval.api.task import TaskConfig
    from lmms_eval.utils import load_yaml_config

    for name, task_data in task_index().items():
        config = load_yaml_config(str(LMMS_TASKS_DIR / f"{name}.yaml"), mode="full")
        TaskConfig(**config)  # no key lmms-eval does not know
        assert callable(config["process_docs"]) and callable(config["doc_to_visual"]), name
        assert callable(config["process_results"]) and all(callable(m["aggregation"]) or m["aggregation"] == "mean"
                                                            for m in config["metric_list"]), name
        assert config["dataset_kwargs"]["data_files"][task_data.split] == str(LMMS_TASKS_DIR / STUB)  # validation tasks too
        assert config["test_split"] == task_data.split


def test_documents_are_lm_eval_s_without_the_placeholder_and_both_judge_images_in_order(releases, monkeypatch):
    _lmms_eval()
    from chartprobe.eval_tasks.harness.lmms import hooks as lmms_hooks
    from chartprobe.eval_tasks.harness.tasks.judge_utils import load_cpa

    monkeypatch.setenv(data.ENV_VAR, str(releases))
    docs = lmms_hooks.docs__chartprobe_judge_cpa(None)
    lm = load_cpa("judge", "cpa", chartprobe_image_token="")["test"]
    assert docs.to_dict() == lm.to_dict() and len(docs) == 4
    assert [d["order"] for d in docs] == ["better_first", "worse_first"] * 2
    images = lmms_hooks.visuals__chartprobe_judge_cpa(docs[1])
    assert [im.tobytes() for im in images] == [docs[1]["image_a"].tobytes(), docs[1]["image_b"].tobytes()]
    assert not docs[0]["prompt"].startswith("<image>")
    probe = lmms_hooks.docs__chartprobe_probes_bar_perception(None)
    assert set(probe["skill"]) == {"perception"} and len(probe) >= LIMIT


def test_the_system_turn_of_paper_tasks_reaches_lmms_eval_chat_models():
    _lmms_eval()
    from chartprobe.eval_tasks.harness.lmms import hooks as lmms_hooks

    doc = {"image_a": "A", "image_b": "B", "system": "You judge charts.", "prompt": "Which?"}
    messages = lmms_hooks.messages__chartprobe_judge_crj_repro_paper(doc)
    assert messages[0] == {"role": "system", "content": [{"type": "text", "text": "You judge charts."}]}
    assert messages[1]["content"] == [{"type": "image", "url": "A"}, {"type": "image", "url": "B"},
                                      {"type": "text", "text": "Which?"}]
    assert lmms_hooks.messages__chartprobe_judge_crj_repro_paper({**doc, "system": ""})[0]["role"] == "user"


# --- end to end --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compare(tiny_vlm, releases, tmp_path_factory) -> dict:
    """``tests/lmms_compare.py``: both task indexes, lm-eval on the tiny VLM, both harnesses on scripted answers."""
    _lmms_eval()
    tmp = tmp_path_factory.mktemp("lmms_compare")
    run = subprocess.run([sys.executable, str(Path(__file__).parent / "lmms_compare.py"), str(tiny_vlm),
                          "--tiny", ",".join(TASKS), "--limit", str(LIMIT), "--scripted", ",".join(SCRIPTED)],
                         env=_env(tmp, releases), capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    (line,) = [ln for ln in run.stdout.splitlines() if ln.startswith("CHARTPROBE_RESULTS ")]
    return json.loads(line.split(" ", 1)[1])


@pytest.fixture(scope="module")
def lmms_run(tiny_vlm, releases, tmp_path_factory) -> Path:
    """lmms-eval's own command line on the tiny VLM (``llava_hf``, its chat class); returns its output folder."""
    _lmms_eval()
    out = tmp_path_factory.mktemp("lmms_run")
    run = subprocess.run(
        [sys.executable, "-m", "lmms_eval", "eval", "--model", "llava_hf",
         "--model_args", f"pretrained={tiny_vlm},device=cpu,device_map=cpu,dtype=float32",
         "--tasks", ",".join(TASKS), "--limit", str(LIMIT), "--batch_size", "1",
         "--gen_kwargs", "max_new_tokens=16", "--include_path", lmms_tasks_path(),
         "--output_path", str(out / "results"), "--log_samples"],
        env=_env(out, releases), capture_output=True, text=True, timeout=600, check=False)
    # lmms-eval logs an evaluation error and still exits 0
    assert run.returncode == 0 and "Error during evaluation" not in run.stdout, run.stdout[-4000:] + run.stderr[-4000:]
    return out / "results"


def _only(pattern: Path) -> Path:
    (path,) = glob.glob(str(pattern), recursive=True)
    return Path(path)


def _same(lm: dict, lmms: dict) -> bool:
    """Every ``metric,filter`` value (stderr included) lm-eval reports equals lmms-eval's."""
    keys = [k for k in lm if "," in k]
    return bool(keys) and all(k in lmms for k in keys) and {k: lmms[k] for k in keys} == pytest.approx(
        {k: lm[k] for k in keys}, nan_ok=True)


@pytest.mark.slow
def test_lmms_eval_indexes_every_task_group_and_tag_lm_eval_does(compare):
    index = compare["index"]
    assert index["lmms_eval"] == index["lm_eval"] and set(task_index()) <= set(index["lmms_eval"])


@pytest.mark.slow
def test_lmms_eval_on_the_tiny_vlm_gives_lm_eval_s_contexts_responses_and_scores(compare, lmms_run, tiny_vlm):
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(tiny_vlm)
    lmms_scores = json.loads(_only(lmms_run / "**" / "*_results.json").read_text())["results"]
    for task in TASKS:
        rows = map(json.loads, _only(lmms_run / "**" / f"*_samples_{task}.jsonl").read_text().splitlines())
        ours = {str(r["doc_id"]): r for r in rows}
        theirs = compare["tiny"]["samples"][task]
        assert sorted(ours) == sorted(theirs) == [str(i) for i in range(LIMIT)]
        images = [{"type": "image"}] * (2 if "judge" in task else 1)  # both judge images, then the text
        for doc_id, lm in theirs.items():
            chat = [{"role": "user", "content": [*images, {"type": "text", "text": ours[doc_id]["input"]}]}]
            assert lm["context"] == processor.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
            assert ours[doc_id]["filtered_resps"].strip() == lm["response"].strip()  # lmms-eval strips
            assert ours[doc_id]["target"] == lm["target"]
        assert _same(compare["tiny"]["results"][task], lmms_scores[task]), task


@pytest.mark.slow
def test_scripted_answers_get_the_same_metrics_and_stderr_from_both_harnesses(compare):
    both = compare["scripted"]
    for task in SCRIPTED:
        assert _same(both["lm_eval"][task], both["lmms_eval"][task]), task
    got = both["lmms_eval"]  # what the scripted answers must give (none trivially 0 or 1)
    cpa = got["chartprobe_judge_cpa"]  # one pair always "A", one pair right
    assert (cpa["two_pass_accuracy,none"], cpa["bias_a_rate,none"], cpa["one_pass_accuracy,none"]) == (0.5, 0.5, 0.75)
    assert cpa["two_pass_accuracy_stderr,none"] > 0  # the cluster bootstrap over pairs, not lmms-eval's N/A
    assert got["chartprobe_judge_cpa_vote"]["two_pass_accuracy_k9,vote"] == 0.5  # 9 repeats, the vote filter
    probes = got["chartprobe_probes_bar_perception"]
    assert 0 < probes["accuracy,none"] < 1 and probes["accuracy,none"] != probes["accuracy_micro,none"]
    family = got["chartprobe_families_bars"]  # half the variants stale
    assert (family["variant_accuracy,none"], family["stale_prediction_rate,none"]) == (0.5, 0.5)
    legend = got["chartprobe_legend"]
    assert 0 < legend["qa_accuracy,none"] < 1 and 0 < legend["abstention_recall,none"] < 1
