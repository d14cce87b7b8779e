"""The closed loop: train an adapter, evaluate base and tuned with lm-eval, compare the profiles.

``chartprobe train ... --eval-tasks TASKS`` runs, in order:

1. :func:`chartprobe.training.sft.train` (the adapter lands in ``--out``);
2. ``lm_eval --model hf-multimodal --model_args pretrained=<model>[,peft=<out>] --apply_chat_template
   --tasks TASKS --log_samples --output_path <out>/eval/{base,tuned}`` (one subprocess each,
   so the evaluation starts from a clean process; the base run is skipped when
   ``--base-eval`` names an existing lm-eval folder or profile, e.g. the one that guided
   ``--select bottleneck``);
3. :func:`chartprobe.training.profile.compare` of the two profiles per skill, per domain and on held-out
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

DEFAULT_TASKS = "chartprobe_probes_bar,chartprobe_probes_pie,chartprobe_probes_shapes,chartprobe_complex"


@dataclass
class LoopConfig:
    """Evaluation settings of the closed loop (used only when --eval-tasks is given)."""

    eval_tasks: str | None = None
    """lm-eval tasks/tags to compare base and tuned on, comma-separated (e.g. the default set
    chartprobe_probes_bar,chartprobe_probes_pie,chartprobe_probes_shapes,chartprobe_complex).
    Other lm-eval tasks may be added (e.g. ``chartqa``, the papers' transfer check): the
    comparison shows lm-eval's own numbers for them, base vs tuned."""
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


def lm_eval_argv(model: str, tasks: str, output: str | Path, loop: LoopConfig, adapter: str | Path | None = None,
                 ) -> list[str]:
    """Arguments of ``python -m lm_eval`` for one evaluation (chartprobe include path added)."""
    from chartprobe.eval_tasks.runner import tasks_path

    model_args = ",".join(x for x in (f"pretrained={model}", f"peft={adapter}" if adapter else "",
                                       loop.eval_model_args) if x)
    argv = ["--model", "hf-multimodal", "--model_args", model_args, "--apply_chat_template",
            "--tasks", tasks, "--batch_size", str(loop.eval_batch_size), "--device", loop.eval_device or _device(),
            "--output_path", str(output), "--log_samples", "--include_path", tasks_path()]
    return argv + (["--limit", str(loop.eval_limit)] if loop.eval_limit else [])


def _device() -> str:
    import torch

    return "cuda:0" if torch.cuda.is_available() else "cpu"


def eval_env(data: str | None) -> dict[str, str]:
    """Environment for lm-eval: point CHARTPROBE_DATA at the local release trained from, if any."""
    from chartprobe.eval_tasks.data import ENV_VAR

    from .data import resolve_data

    env = dict(os.environ)
    path = Path(resolve_data(data)["path"])
    if path.is_dir():  # tasks read $CHARTPROBE_DATA/chartprobe-probes: evaluate on the same release
        env[ENV_VAR] = str(path.parent)
    return env


def run_lm_eval(argv: list[str], env: dict[str, str], timeout: float | None = None) -> None:
    """Run lm-eval in a subprocess; raise with the tail of its log when it fails."""
    run = subprocess.run([sys.executable, "-m", "lm_eval", *argv], env=env, capture_output=True, text=True,
                         timeout=timeout, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"lm_eval failed ({run.returncode}):\n{run.stderr[-4000:]}")


def closed_loop(cfg: TrainConfig, loop: LoopConfig) -> dict[str, Any]:
    """Train, evaluate base (unless reused) and tuned, compare; return the comparison dict."""
    from .card import card_with_results
    from .profile import compare, format_comparison, load_profile
    from .sft import train

    summary = train(cfg)
    out = Path(cfg.out)
    tasks = loop.eval_tasks or DEFAULT_TASKS
    env = eval_env(cfg.data)
    base_dir = Path(loop.base_eval) if loop.base_eval else out / "eval" / "base"
    if not loop.base_eval:
        run_lm_eval(lm_eval_argv(cfg.model, tasks, base_dir, loop), env)
    run_lm_eval(lm_eval_argv(cfg.model, tasks, out / "eval" / "tuned", loop, adapter=out), env)
    base, tuned = load_profile(base_dir), load_profile(out / "eval" / "tuned")
    cmp = {**compare(base, tuned), "tasks": tasks, "limit": loop.eval_limit,
           "train_losses": summary["train_losses"]}
    card = card_with_results((out / "README.md").read_text(encoding="utf-8"), cmp, out.name)
    atomic_write_files({out / "comparison.json": json.dumps(cmp, indent=1),  # all four or none
                        out / "comparison.md": format_comparison(cmp) + "\n",
                        out / "profile_tuned.json": json.dumps(tuned, indent=1),
                        out / "README.md": card})
    print(format_comparison(cmp))
    return cmp
