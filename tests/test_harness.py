"""The lm-eval side of chartprobe: task discovery, data switch, scoring hook, end-to-end runs.

The two ``slow`` tests run real lm-eval processes on the tiny VLM: once in-process
(``hf-multimodal``) and once against ``transformers serve`` (``local-chat-completions``).
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import warm_python
from chartprobe.eval_tasks.harness.runner import lm_eval_argv, tasks_path
from chartprobe.eval_tasks.rescoring import data
from lm_eval_run import read_results
from serve_tiny import served_model
from tiny_vlm import build_tiny_vlm

# Every task and tag lm-eval must see in the include path. A YAML that fails to parse is
# skipped silently by lm-eval, so this list is the only guard against losing a task.
PROBE_LEAVES = [f"chartprobe_probes_{d}_{s}" for d in ("bar", "hbar", "pie", "shapes")
                for s in ("perception", "grounding", "reasoning")]
CR_LEAVES = [f"chartprobe_cr_{d}" for d in ("bar", "pie", "shapes")]
CR_OOD_LEAVES = [f"chartprobe_cr_ood_{d}" for d in ("bar", "pie", "shapes")]  # out-of-template CR
VAL_LEAVES = [f"chartprobe_probes_val_{d}" for d in ("bar", "hbar", "pie", "shapes")] + ["chartprobe_legend_val"]
TAGS = ["chartprobe_complex", "chartprobe_complex_ood", "chartprobe_val", "chartprobe_grounding", "chartprobe_perception", "chartprobe_reasoning",
        *(f"chartprobe_probes_{d}" for d in ("bar", "hbar", "pie", "shapes"))]
FAMILY_LEAVES = ["chartprobe_families", *(f"chartprobe_families_{g}" for g in
                  ("bars", "lines", "shares", "distributions", "timelines", "resolution"))]
JUDGE_LEAVES = ["chartprobe_judge_cpa", "chartprobe_judge_crj_repro", "chartprobe_judge_crj_edit"]
PAPER_LEAVES = [f"{t}_paper" for t in JUDGE_LEAVES] + ["chartprobe_families_paper"]  # released protocols, tag chartprobe_paper
VOTE_LEAVES = [f"{t}_vote" for t in JUDGE_LEAVES]  # majority voting over 9 samples, tag chartprobe_vote
STYLE_LEAVES = [*(f"chartprobe_probes_{d}_style_shift" for d in ("bar", "hbar", "pie")),
                "chartprobe_legend_style_shift"]  # tag chartprobe_style_shift
REAL_LEAVES = [*(f"chartprobe_probes_{d}_real" for d in ("bar", "hbar", "pie")),
               "chartprobe_legend_real"]  # tag chartprobe_real
LEGEND_LEAVES = ["chartprobe_legend", *(f"chartprobe_legend_{s}" for s in ("channel", "order", "visibility"))]
TAGS += ["chartprobe_families_groups", "chartprobe_judge", "chartprobe_legend_studies"]
PAPER_GROUPS = ["chartprobe", "chartographer", "legendbench", "chartjudgebench"]  # one per paper
UMBRELLA = "chartprobe-all"
EXPECTED_NAMES = sorted([*PAPER_GROUPS, UMBRELLA, "chartprobe_smoke", *PROBE_LEAVES, *CR_LEAVES, *CR_OOD_LEAVES, *VAL_LEAVES,
                         *FAMILY_LEAVES, *JUDGE_LEAVES,
                         *PAPER_LEAVES, "chartprobe_paper", *VOTE_LEAVES, "chartprobe_vote", *LEGEND_LEAVES,
                         *STYLE_LEAVES, "chartprobe_style_shift", *REAL_LEAVES, "chartprobe_real",
                         *TAGS])
LEAF_TASKS = ["chartprobe_smoke"]
METRICS = {"accuracy": True, "relaxed_score": True, "parse_fail_rate": False}  # name -> higher is better
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
SMOKE_ROWS = 20


def _task_manager():
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=tasks_path(), include_defaults=False)


def _utils_module():
    spec = importlib.util.spec_from_file_location("chartprobe_smoke_utils", Path(tasks_path()) / "smoke_utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _eval_env(smoke_release: Path, tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        **OFFLINE,
        data.ENV_VAR: str(smoke_release.parent),
        "HF_DATASETS_CACHE": str(tmp_path / "datasets-cache"),
        "TOKENIZERS_PARALLELISM": "false",
    }


def _results(output_dir: Path) -> dict:
    (path,) = glob.glob(str(output_dir / "**" / "results_*.json"), recursive=True)
    return json.loads(Path(path).read_text())


def _samples(output_dir: Path, task: str) -> list[dict]:
    (path,) = glob.glob(str(output_dir / "**" / f"samples_{task}_*.jsonl"), recursive=True)
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def _assert_metric_structure(output_dir: Path, task: str) -> None:
    results = _results(output_dir)
    assert results["n-samples"][task]["effective"] == SMOKE_ROWS
    assert results["higher_is_better"][task] == METRICS
    task_results = results["results"][task]
    for metric in METRICS:
        assert 0.0 <= task_results[f"{metric},none"] <= 1.0
        assert f"{metric}_stderr,none" in task_results
    samples = _samples(output_dir, task)
    assert len(samples) == SMOKE_ROWS
    assert all(isinstance(s["filtered_resps"][0], str) for s in samples)


# ---------------------------------------------------------------- task discovery


def test_include_path_lists_exactly_the_expected_tasks_and_tags():
    names = _task_manager().all_tasks
    assert sorted(names) == EXPECTED_NAMES
    assert all(n.startswith("chartprobe_") or n in (*PAPER_GROUPS, UMBRELLA) for n in names)
    # The umbrella group aggregates exactly the benchmark leaves (and never matches 'chartprobe_*').
    group = _task_manager().task_index["chartprobe"].cfg
    assert sorted(group["task"]) == sorted(PROBE_LEAVES + CR_LEAVES + CR_OOD_LEAVES)  # never the validation tasks


@pytest.mark.parametrize("metadata,tokens", [
    ({"pretrained": "some/vlm"}, 1),                     # hf-multimodal: the model needs <image>
    ({"base_url": "http://127.0.0.1:1/v1", "model": "m"}, 0),  # API: the image is a message part
    ({"base_url": "http://x", "chartprobe_image_token": "<image>"}, 1),  # explicit override wins
], ids=["local-model", "api-model", "override"])
def test_every_leaf_task_builds_on_the_local_release(smoke_release, monkeypatch, metadata, tokens):
    # Indexing never imports utils.py, so only building a task proves its !function hooks resolve.
    from lm_eval.tasks import TaskManager

    monkeypatch.setenv(data.ENV_VAR, str(smoke_release.parent))
    manager = TaskManager(include_path=tasks_path(), include_defaults=False, metadata=metadata)
    tasks = manager.load(LEAF_TASKS)["tasks"]
    for name in LEAF_TASKS:
        task = tasks[name]
        docs = task.test_docs()
        assert len(docs) == SMOKE_ROWS
        doc = docs[0]
        prompt = task.doc_to_text(doc)
        assert doc["question"] in prompt
        assert task.doc_to_target(doc) == doc["answer"]
        assert len(task.doc_to_image(doc)) == 1
        # API servers count a literal <image> as an extra image; local VLMs need exactly one.
        assert prompt.count("<image>") == tokens


# ---------------------------------------------------------------- data switch


def test_without_env_var_tasks_use_the_pinned_hub_revision(monkeypatch):
    import datasets

    calls = []
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    fake = datasets.DatasetDict({"test": datasets.Dataset.from_dict({"question": ["q"]})})
    monkeypatch.setattr(datasets, "load_dataset", lambda **kwargs: calls.append(kwargs) or fake)
    from chartprobe.eval_tasks.rescoring import provenance

    # the card's hash would be read from the Hub: unreachable here (retries cost ~20 s before giving up)
    monkeypatch.setattr(provenance, "release_hash", lambda release, where: calls.append(("hash", release)) or "")
    loaded = data.load_release("smoke", "default", pretrained="ignored", version=0.1)
    assert loaded["test"]["image_token"][0] == "<image>"
    assert calls == [("hash", "smoke"), {"path": "chartprobe/chartprobe-smoke", "revision": "v0.1.0", "name": "default"}]


def test_env_var_points_tasks_at_the_local_release(smoke_release, monkeypatch):
    monkeypatch.setenv(data.ENV_VAR, str(smoke_release.parent))
    assert data.resolve_release("smoke") == {"path": str(smoke_release)}
    # Extra keyword arguments are lm-eval metadata and model args, which must be ignored.
    loaded = data.load_release(chartprobe_release="smoke", pretrained="x", base_url="y", version=0.1)
    assert list(loaded) == ["test"]
    assert loaded["test"].num_rows == SMOKE_ROWS


def test_a_release_rebuilt_in_place_is_read_anew(tmp_path, monkeypatch):
    """Same card sizes, other rows and content hash (a rebuild): the tasks read the new rows, not
    ``datasets``' cached copy of the old build (its cache key is the card's YAML, not the files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.hub import build_release
    from chartprobe.eval_tasks.rescoring import provenance

    monkeypatch.setenv(data.ENV_VAR, str(tmp_path))
    folder = build_release("smoke", tmp_path, "small").path
    before = data.load_release("smoke")["test"]
    file = next(folder.glob("default/test-*.parquet"))
    table = pq.read_table(file)
    answers = [f"z{a[1:]}" for a in table.column("answer").to_pylist()]  # same lengths
    pq.write_table(table.set_column(table.schema.get_field_index("answer"), "answer", pa.array(answers)), file)
    card = folder / "README.md"
    old_hash = provenance.release_hash("smoke", {"path": str(folder)})
    assert old_hash
    card.write_text(card.read_text().replace(old_hash, "f" * len(old_hash)))
    after = data.load_release("smoke")["test"]
    assert sorted(after["answer"]) == sorted(answers) != sorted(before["answer"])


def test_env_var_naming_a_folder_without_the_release_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path))
    with pytest.raises(data.ReleaseNotFoundError, match=str(tmp_path / "chartprobe-smoke")):
        data.load_release("smoke")


def test_unknown_release_without_env_var_names_the_known_ones(monkeypatch):
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    with pytest.raises(KeyError, match="smoke"):
        data.resolve_release("nonexistent")


# ---------------------------------------------------------------- scoring hook


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("42", {"accuracy": 1.0, "relaxed_score": 1.0, "parse_fail_rate": 0.0}),
        ("The answer is 17", {"accuracy": 0.0, "relaxed_score": 0.0, "parse_fail_rate": 0.0}),
        ("", {"accuracy": 0.0, "relaxed_score": 0.0, "parse_fail_rate": 1.0}),
    ],
)
def test_process_results_maps_the_score_to_the_three_metrics(output, expected):
    doc = {"answer": "42", "answer_type": "number"}
    assert _utils_module().process_results(doc, [output]) == expected


@pytest.mark.parametrize("output", ["\x00\ufffd", "<answer></answer>", "42" * 500, "Final Answer:", "\n\n\n"])
def test_process_results_never_raises_and_stays_in_range(output):
    values = _utils_module().process_results({"answer": "42", "answer_type": "number"}, [output])
    assert set(values) == set(METRICS)
    assert all(0.0 <= v <= 1.0 for v in values.values())


# ---------------------------------------------------------------- runner


def test_runner_adds_the_include_path_to_every_command_form():
    path = tasks_path()
    assert lm_eval_argv(["--model", "hf", "--tasks", "t"]) == [
        "run",
        "--model",
        "hf",
        "--tasks",
        "t",
        "--include_path",
        path,
    ]
    assert lm_eval_argv(["ls", "tasks"]) == ["ls", "tasks", "--include_path", path]
    assert lm_eval_argv(["--help"]) == ["--help"]
    with pytest.raises(ValueError, match="include_path"):
        lm_eval_argv(["run", "--include_path", "/elsewhere"])
    assert (Path(path) / "chartprobe_smoke.yaml").is_file()


# ---------------------------------------------------------------- tiny VLM fixture


def test_tiny_vlm_loads_with_auto_classes_and_is_reproducible(tiny_vlm, tmp_path):
    from transformers import AutoModelForImageTextToText, AutoProcessor

    processor = AutoProcessor.from_pretrained(tiny_vlm)
    model = AutoModelForImageTextToText.from_pretrained(tiny_vlm)
    assert type(model).__name__ == "LlavaForConditionalGeneration"
    assert processor.chat_template and processor.tokenizer.chat_template
    assert model.generation_config.eos_token_id == processor.tokenizer.eos_token_id
    assert model.generation_config.pad_token_id == processor.tokenizer.pad_token_id
    assert sum(p.numel() for p in model.parameters()) < 500_000
    rebuilt = build_tiny_vlm(tmp_path / "again")
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        assert (rebuilt / name).read_bytes() == (tiny_vlm / name).read_bytes(), name


# ---------------------------------------------------------------- end to end


@pytest.mark.slow
def test_lm_eval_hf_multimodal_end_to_end(tiny_vlm, smoke_release, tmp_path):
    out = tmp_path / "results"
    cmd = [
        sys.executable,
        "-m",
        "lm_eval",
        "--model",
        "hf-multimodal",
        "--model_args",
        f"pretrained={tiny_vlm},max_images=1,dtype=float32",
        "--device",
        "cpu",
        "--batch_size",
        "8",
        "--tasks",
        "chartprobe_smoke",
        "--gen_kwargs",
        "max_gen_toks=16",  # the YAML's reasoning budget (2048) would take minutes on a random model
        "--include_path",
        tasks_path(),
        "--output_path",
        str(out),
        "--log_samples",
    ]
    run = subprocess.run(
        cmd, env=_eval_env(smoke_release, tmp_path), capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr[-4000:]
    _assert_metric_structure(out, "chartprobe_smoke")


@pytest.mark.slow
def test_lm_eval_chat_completions_against_served_tiny_vlm(tiny_vlm, smoke_release, tmp_path):
    out = tmp_path / "results"
    with served_model(tiny_vlm, log_path=tmp_path / "serve.log") as server:
        model_args = (
            f"model={server.model},base_url={server.base_url}/chat/completions,"
            "max_images=1,tokenizer_backend=None,num_concurrent=1,max_retries=1"
        )
        # Through chartprobe.eval_tasks.harness.runner, as `chartprobe eval` runs it: the include path is added for us.
        argv = [
            "--model",
            "local-chat-completions",
            "--apply_chat_template",
            "--model_args",
            model_args,
            "--tasks",
            "chartprobe_smoke",
            "--max-gen-toks",  # chartprobe's flag: becomes --gen_kwargs max_gen_toks=16 (YAML budget 2048)
            "16",
            "--output_path",
            str(out),
            "--log_samples",
        ]
        code = f"import sys; from chartprobe.eval_tasks.harness.runner import run_eval; sys.exit(run_eval({argv!r}))"
        run = warm_python.run(["-c", code], env=_eval_env(smoke_release, tmp_path), timeout=300)
        assert run.returncode == 0, run.stderr[-4000:]
        # lm-eval always sends a non-empty `stop`; the launcher's other fix is for `stop: []`.
        body = {
            "model": server.model,
            "max_tokens": 4,
            "stop": [],
            "messages": [{"role": "user", "content": "What is the value of Canada?"}],
        }
        request = urllib.request.Request(
            f"{server.base_url}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
            assert json.load(response)["choices"][0]["message"]["role"] == "assistant"
    _assert_metric_structure(out, "chartprobe_smoke")
    # base_url in --model_args made the task drop the placeholder for the API model.
    assert all("<image>" not in s["arguments"]["gen_args_0"]["arg_0"] for s in _samples(out, "chartprobe_smoke"))


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["qwen2_5_vl", "gemma3"])
def test_lm_eval_chat_completions_against_served_qwen_and_gemma3(arch, tiny_qwen2_5_vl, tiny_gemma3, release_root,
                                                                 tmp_path):
    """The API path for the families whose image string is not ``<image>``: a tiny Qwen2.5-VL and a tiny
    Gemma 3 behind ``transformers serve`` on 127.0.0.1, scored on a one-image and a two-image task."""
    model = {"qwen2_5_vl": tiny_qwen2_5_vl, "gemma3": tiny_gemma3}[arch]
    out = tmp_path / "results"
    with served_model(model, log_path=tmp_path / "serve.log") as server:
        model_args = (f"model={server.model},base_url={server.base_url}/chat/completions,"
                      "max_images=2,tokenizer_backend=None,num_concurrent=1,max_retries=1")
        argv = ["--model", "local-chat-completions", "--apply_chat_template", "--model_args", model_args,
                "--tasks", "chartprobe_probes_bar_perception,chartprobe_judge_cpa", "--limit", "2",
                "--max-gen-toks", "4", "--output_path", str(out), "--log_samples"]
        code = f"import sys; from chartprobe.eval_tasks.harness.runner import run_eval; sys.exit(run_eval({argv!r}))"
        run = warm_python.run(["-c", code], env=_eval_env(release_root / "chartprobe-smoke", tmp_path), timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    samples = _samples(out, "chartprobe_judge_cpa")
    assert len(samples) == 2 and all(s["resps"] for s in samples)
    assert _samples(out, "chartprobe_probes_bar_perception")


# ---------------------------------------------------------------- ChartProbe tasks


@pytest.mark.slow
def test_lm_eval_all_chartprobe_tasks_report_per_skill_metrics(all_tasks_run):
    """`lm_eval --tasks 'chartprobe_*' --limit 2` on the small releases with the tiny VLM (the shared run)."""
    results = read_results(all_tasks_run)
    for leaf in PROBE_LEAVES:
        assert 0.0 <= results[leaf]["accuracy,none"] <= 1.0
        assert "parse_fail_rate,none" in results[leaf]
    for leaf in CR_LEAVES:
        assert {"fuzzy,none", "accuracy,none", "parse_fail_rate,none"} <= set(results[leaf])
    for leaf in STYLE_LEAVES:  # the drawing as a factor: gap and consistency over styles
        assert {"style_gap,none", "style_consistency,none"} <= set(results[leaf])
    assert "chartprobe_smoke" in results
    assert {f"{m},none" for m in ("original_accuracy", "reconstruction_accuracy", "variant_accuracy",
                               "conditional_variant_accuracy", "correct_update_rate")} <= set(results["chartprobe_families"])
    assert "two_pass_accuracy,none" in results["chartprobe_judge_cpa"]
    assert {"accuracy,none", "specificity,none", "f1,none"} <= set(results["chartprobe_judge_crj_repro"])
