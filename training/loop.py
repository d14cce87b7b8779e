"""The closed loop: train an adapter, evaluate base and tuned with lm-eval, compare the profiles.

``chartprobe train ... --eval-tasks TASKS`` runs, in order:

1. :func:`chartprobe.training.sft.train` (the adapter lands in ``--out``);
2. ``lm_eval --model hf-multimodal --model_args pretrained=<model>[,peft=<out>] --apply_chat_template
   --tasks TASKS --log_samples --output_path <out>/eval/{base,tuned}`` (one subprocess each,
   so the evaluation starts from a clean process; the base run is skipped when
   ``--base-eval`` names an existing lm-eval folder or profile, e.g. the one that guided
   ``--select bottleneck``);
3. :func:`chartprobe.training.compare.compare` of the two profiles per region, per domain and on held-out
   complex reasoning (fuzzy), written to ``<out>/comparison.json`` and ``comparison.md``; the
   adapter's card (``README.md``) gets the tuned numbers as ``model-index`` results.

``--apply_chat_template`` matters: training rendered the same task prompt with the chat
template (see ``chartprobe.training.format``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chartprobe.dataset_builders.core.atomic import atomic_write_files

from .config import TrainConfig


@dataclass
class LoopConfig:
    """Evaluation settings of the closed loop (used only when --eval-tasks is given)."""

    eval_tasks: str | None = None
    """lm-eval tasks/tags to compare base and tuned on, comma-separated (the held-out test tasks, e.g.
    chartprobe_probes_bar,chartprobe_probes_pie,chartprobe_probes_shapes,chartprobe_complex or chartprobe_legend).
    Other lm-eval tasks may be added by name (e.g. ``chartqa``, the papers' transfer check) or
    as a task YAML path (a local task): the comparison shows lm-eval's own numbers for them,
    base vs tuned."""
    eval_limit: int | None = None
    """lm-eval --limit per task (smoke runs); default: every test row."""
    base_eval: str | None = None
    """Existing base-model evaluation (lm-eval --output_path folder or profile JSON) to reuse."""
    eval_device: str | None = None
    """lm-eval --device; default cuda:0 when a GPU is visible, else cpu."""
    eval_batch_size: int = 8
    """lm-eval --batch_size."""
    eval_model_args: str = "max_images=1"
    """Extra hf-multimodal --model_args (comma-separated key=value), e.g. dtype=bfloat16."""
    eval_in_process: bool = False
    """Run lm-eval inside this process instead of a fresh subprocess per evaluation (faster for a
    study of many small evaluations; the subprocess default isolates each one)."""
    eval_gen_kwargs: str | None = None
    """lm-eval --gen_kwargs (e.g. max_gen_toks=64: our task YAMLs allow 2048 tokens of reasoning)."""
    seeds: str | None = None
    """Run the LegendBench §5.3 study instead of one loop: base, Random FT and Bottleneck FT at the same
    --budget for each seed (comma-separated, the papers' 42,43,44), profiled on the validation split,
    reported as mean ± sd on the test tasks (study.md, study.json)."""
    skill_sets: str | None = None
    """With --seeds, run ChartProbe §4's study instead: one fine-tune per skill set (comma-separated; the
    paper's five are P,G,SR,P+G,P+G+SR) for each seed, on all train rows of its skills (--volume-matched N
    holds the count fixed), reported beside the base model with each domain x skill cell's change
    over base (Table 1)."""
    profile_tasks: str | None = None
    """lm-eval tasks the base model is profiled on for the study's bottleneck selection (default: the
    validation-split tasks of the training configs, e.g. chartprobe_probes_val_bar, chartprobe_legend_val)."""


def lm_eval_argv(model: str, tasks: str, output: str | Path, loop: LoopConfig, adapter: str | Path | None = None,
                 ) -> list[str]:
    """Arguments of ``python -m lm_eval`` for one evaluation (chartprobe include path added)."""
    from chartprobe.eval_tasks.harness.runner import tasks_path

    model_args = ",".join(x for x in (f"pretrained={model}", f"peft={adapter}" if adapter else "",
                                       loop.eval_model_args) if x)
    argv = ["--model", "hf-multimodal", "--model_args", model_args, "--apply_chat_template",
            "--tasks", tasks, "--batch_size", str(loop.eval_batch_size), "--device", loop.eval_device or _device(),
            "--output_path", str(output), "--log_samples", "--include_path", tasks_path()]
    argv += ["--gen_kwargs", loop.eval_gen_kwargs] if loop.eval_gen_kwargs else []
    return argv + (["--limit", str(loop.eval_limit)] if loop.eval_limit else [])


def _device() -> str:
    import torch

    return "cuda:0" if torch.cuda.is_available() else "cpu"


def eval_env(data: str | None) -> dict[str, str]:
    """Environment for lm-eval: point CHARTPROBE_DATA at the local release trained from, if any."""
    from chartprobe.eval_tasks.rescoring.data import ENV_VAR

    from .data import resolve_data

    env = dict(os.environ)
    path = Path(resolve_data(data)["path"])
    if path.is_dir():  # tasks read $CHARTPROBE_DATA/chartprobe-probes: evaluate on the same release
        env[ENV_VAR] = str(path.parent)
    return env


def run_lm_eval(argv: list[str], env: dict[str, str], timeout: float | None = None, in_process: bool = False) -> None:
    """Run lm-eval; raise with the tail of its log when it fails.

    By default in a subprocess (each evaluation starts from a clean process). ``in_process``
    runs lm-eval's own CLI entry point here, with ``env`` and ``sys.argv`` set for the call and
    restored after: a study of many small evaluations then pays lm-eval's and torch's import once.
    """
    if in_process:
        _lm_eval_here(argv, env)
        return
    # lm-eval's CLI, indexing only chartprobe's tasks when nothing else is asked for (seconds per start)
    run = subprocess.run([sys.executable, "-m", "chartprobe.eval_tasks.harness.own_index", *argv], env=env,
                         capture_output=True, text=True, timeout=timeout, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"lm_eval failed ({run.returncode}):\n{run.stderr[-4000:]}")


def _lm_eval_here(argv: list[str], env: dict[str, str]) -> None:
    from chartprobe.eval_tasks.harness.own_index import lm_eval_cli

    saved_env = dict(os.environ)
    os.environ.update(env)
    try:
        lm_eval_cli(["run", *argv])
    except SystemExit as exc:  # argparse and lm-eval exit on a bad request
        if exc.code not in (0, None):
            raise RuntimeError(f"lm_eval failed ({exc.code})") from None
    finally:
        os.environ.clear()
        os.environ.update(saved_env)


def closed_loop(cfg: TrainConfig, loop: LoopConfig) -> dict[str, Any]:
    """Train, evaluate base (unless reused) and tuned, compare; return the comparison dict
    (``--seeds`` runs the multi-seed study of :mod:`.study` instead, see ``cli``)."""
    from .card import card_with_results
    from .compare import compare, format_comparison
    from .data import resolve_source
    from .profile_sources import load_profile
    from .sft import train

    benchmark = resolve_source(cfg.data).benchmark
    summary = train(cfg)
    out = Path(cfg.out)
    tasks = loop.eval_tasks or resolve_source(cfg.data).regions.test_tasks
    env = eval_env(cfg.data)
    base_dir = Path(loop.base_eval) if loop.base_eval else out / "eval" / "base"
    if not loop.base_eval:
        run_lm_eval(lm_eval_argv(cfg.model, tasks, base_dir, loop), env, in_process=loop.eval_in_process)
    run_lm_eval(lm_eval_argv(cfg.model, tasks, out / "eval" / "tuned", loop, adapter=out), env,
                in_process=loop.eval_in_process)
    base, tuned = load_profile(base_dir), load_profile(out / "eval" / "tuned")
    cmp = {**compare(base, tuned, benchmark), "tasks": tasks, "limit": loop.eval_limit,
           "train_losses": summary["train_losses"]}
    card = card_with_results((out / "README.md").read_text(encoding="utf-8"), cmp, out.name)
    atomic_write_files({out / "comparison.json": json.dumps(cmp, indent=1),  # all four or none
                        out / "comparison.md": format_comparison(cmp) + "\n",
                        out / "profile_tuned.json": json.dumps(tuned, indent=1),
                        out / "README.md": card})
    print(format_comparison(cmp))
    return cmp
