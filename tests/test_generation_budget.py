"""Generation budgets leave room for reasoning models (issue #22, part 3b).

Every task YAML allows at least ``DEFAULT_MAX_GEN_TOKS`` new tokens and stops only at the model's
EOS: a ``"\\n\\n"`` or ``"</answer>"`` stop string would end a ``<think>`` block at its first
paragraph. Long reasoning outputs still score on their final answer, and ``chartprobe eval
--max-gen-toks N`` becomes lm-eval's ``--gen_kwargs max_gen_toks=N``.
"""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path

import pytest
import warm_python
from chartprobe.eval_tasks.harness.eval_args import check_lm_eval_args
from chartprobe.eval_tasks.harness.runner import DEFAULT_MAX_GEN_TOKS, lm_eval_argv, tasks_path
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.scoring.typed import extract_answer, score_answer

from chartprobe.errors import UsageError

TASKS = Path(tasks_path())
EOS = "<|im_end|>"


def _task_files() -> list[str]:
    """Every task YAML and task body (``_*_yaml``); group files (``chartprobe.yaml``) generate nothing."""
    from chartprobe.eval_tasks.suites._task_index import _load

    return sorted(p.name for p in [*TASKS.glob("*.yaml"), *TASKS.glob("_*_yaml")] if "group" not in _load(p))


def _is_paper(name: str) -> bool:
    """A ``*_paper`` task (or body) decodes as the paper's released code did, not with our budget."""
    from chartprobe.eval_tasks.suites._task_index import _load

    return (_load(TASKS / name).get("metadata") or {}).get("chartprobe_protocol") == "paper"


NAMES = _task_files()
PAPER = [n for n in NAMES if _is_paper(n)]
OURS = [n for n in NAMES if n not in PAPER]


def _config(name: str) -> dict:
    """The file as lm-eval itself resolves it (``include:`` followed, local keys win)."""
    from lm_eval.tasks._yaml_loader import load_yaml

    return load_yaml(TASKS / name, resolve_func=False)


def test_every_task_file_is_covered():
    bodies = {p.name for p in TASKS.glob("_*_yaml")}
    leaves = {p.name for p in TASKS.glob("chartprobe_*.yaml")}
    assert bodies <= set(NAMES) and leaves <= set(NAMES) and len(leaves) >= 20


RELEASED_DECODING = {
    # ChartJudgeBench's released model configs and Appendix F.1: temperature 0.1, top-p 0.9, 512 tokens
    "judge": {"until": [], "max_gen_toks": 512, "do_sample": True, "temperature": 0.1, "top_p": 0.9},
    # Chartographer's generate_predictions.py: --max_new_tokens 1024, sampling left to the checkpoint
    "families": {"until": [], "max_gen_toks": 1024},
}


@pytest.mark.parametrize("name", PAPER)
def test_paper_tasks_decode_as_the_released_code(name):
    paper = "families" if "families" in name else "judge"
    assert dict(_config(name)["generation_kwargs"]) == RELEASED_DECODING[paper]


@pytest.mark.parametrize("name", OURS)
def test_task_budget_is_at_least_the_reasoning_default(name):
    cfg = _config(name)
    gen = cfg["generation_kwargs"]
    assert cfg["output_type"] == "generate_until"
    assert gen["max_gen_toks"] >= DEFAULT_MAX_GEN_TOKS >= 2048
    # No stop string a reasoning trace can contain: generation ends at the model's EOS
    # (lm-eval adds it to `until` itself) or at the budget.
    assert gen["until"] == []


def _reasoning(n_paragraphs: int = 28) -> str:
    """~8,000 characters (~1,500 tokens) of chart reasoning: paragraphs split by blank lines,
    numbers everywhere, and draft answers that must not win."""
    paragraphs = []
    for i in range(n_paragraphs):
        paragraphs.append(
            f"Step {i + 1}: reading bar {i % 7} against the y-axis gridlines, its top sits near "
            f"{10 + 3 * i} units while the neighbouring bar reaches {12 + 2 * i}. The difference is "
            f"{abs(2 - i)}; comparing with the legend colour, this series is Region {chr(65 + i % 5)}. "
            "I should double-check the axis scale before committing to a value, since a "
            "misread tick would shift everything.")
    paragraphs.insert(5, "So a first guess would be answer: 40, but that ignores the last bar.")
    return "\n\n".join(paragraphs)


LONG = _reasoning()
OUTPUTS = {
    "final-answer": f"{LONG}\n\nFinal Answer: 42",
    "think-then-bare": f"<think>\n{LONG}\nDraft: <answer>40</answer>\n</think>\n\n42",
    "think-then-paper-format": (f"<think>{LONG}</think> <rationale>The tallest bar minus the "
                                "shortest is 42.</rationale> <answer>42</answer>"),
}


def test_the_reasoning_is_as_long_as_a_reasoning_model_writes():
    assert 8_000 <= len(LONG) <= 12_000 and LONG.count("\n\n") >= 20


@pytest.mark.parametrize("kind", sorted(OUTPUTS))
def test_long_reasoning_keeps_its_final_answer(kind):
    text = OUTPUTS[kind]
    assert extract_answer(text) == "42"
    s = score_answer(text, "42", "number")
    assert s.correct and not s.parse_failed and s.normalized == "42"


@pytest.mark.parametrize("kind", sorted(OUTPUTS))
@pytest.mark.parametrize("name", NAMES)
def test_lm_eval_stop_handling_keeps_the_whole_reasoning_output(name, kind):
    """lm-eval's own post-processing with the task's `until` (plus the EOS it appends) cuts nothing."""
    from lm_eval.models.utils import handle_stop_sequences, postprocess_generated_text

    until = handle_stop_sequences(list(_config(name)["generation_kwargs"]["until"]), eos=EOS)
    kept = postprocess_generated_text(OUTPUTS[kind] + EOS, until, None)
    assert kept == OUTPUTS[kind]
    assert score_answer(kept, "42", "number").correct


def test_the_old_blank_line_stop_would_have_lost_the_answer():
    from lm_eval.models.utils import postprocess_generated_text

    for kind, text in OUTPUTS.items():
        cut = postprocess_generated_text(text, ["\n\n", EOS], None)
        assert not score_answer(cut, "42", "number").correct, kind


# ---------------------------------------------------------------- the override


def test_max_gen_toks_flag_becomes_lm_eval_gen_kwargs():
    path = tasks_path()
    assert lm_eval_argv(["--model", "hf", "--tasks", "t", "--max-gen-toks", "256"]) == [
        "run", "--model", "hf", "--tasks", "t", "--gen_kwargs", "max_gen_toks=256", "--include_path", path]
    assert lm_eval_argv(["run", "--max-gen-toks=8", "--gen_kwargs", "temperature=0"])[-4:] == [
        "--gen_kwargs", "max_gen_toks=8", "--include_path", path]
    assert "--max-gen-toks" not in lm_eval_argv(["--tasks", "t", "--max-gen-toks", "8"])
    # Without the flag the command line is unchanged: the YAML budget applies.
    assert lm_eval_argv(["--tasks", "t"]) == ["run", "--tasks", "t", "--include_path", path]


@pytest.mark.parametrize("extra, message", [
    (["--max-gen-toks", "0"], "positive whole number"),
    (["--max-gen-toks", "lots"], "positive whole number"),
    (["--max-gen-toks"], "positive whole number"),
    (["--max-gen-toks", "8", "--max-gen-toks", "9"], "once"),
    (["--max-gen-toks", "8", "--gen_kwargs", "max_gen_toks=9"], "give the budget once"),
])
def test_bad_budgets_are_refused_before_lm_eval_starts(extra, message):
    argv = ["--model", "hf-multimodal", "--tasks", "chartprobe_smoke", *extra]
    with pytest.raises(UsageError, match=message):
        check_lm_eval_args(argv)
    with pytest.raises(ValueError, match=message):
        lm_eval_argv(argv)


def test_a_budget_in_gen_kwargs_alone_passes_through():
    argv = ["--model", "hf-multimodal", "--tasks", "chartprobe_smoke", "--gen_kwargs", "max_gen_toks=9"]
    check_lm_eval_args(argv)
    assert lm_eval_argv(argv)[1:-2] == argv


@pytest.mark.slow
def test_chartprobe_eval_budget_reaches_lm_eval(tiny_vlm, smoke_release, tmp_path):
    """`chartprobe eval ... --max-gen-toks 4` on the tiny VLM: lm-eval logs the overridden budget
    and the YAML's EOS-only stop list."""
    out = tmp_path / "results"
    argv = ["--model", "hf-multimodal", "--model_args", f"pretrained={tiny_vlm},max_images=1,dtype=float32",
            "--device", "cpu", "--batch_size", "8", "--tasks", "chartprobe_smoke", "--limit", "4",
            "--max-gen-toks", "4", "--output_path", str(out), "--log_samples"]
    code = f"import sys; from chartprobe.eval_tasks.harness.runner import run_eval; sys.exit(run_eval({argv!r}))"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           data.ENV_VAR: str(smoke_release.parent), "HF_DATASETS_CACHE": str(tmp_path / "cache"),
           "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(["-c", code], env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    (path,) = glob.glob(str(out / "**" / "samples_chartprobe_smoke_*.jsonl"), recursive=True)
    samples = [json.loads(line) for line in Path(path).read_text().splitlines()]
    assert len(samples) == 4
    for s in samples:
        gen = s["arguments"]["gen_args_0"]["arg_1"]
        assert gen["max_gen_toks"] == 4 and gen["until"] == []
