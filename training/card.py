"""Model card (README.md) for a trained adapter: what it was trained on, how to evaluate it and,
after the closed loop, what it scored (``huggingface_hub.ModelCard`` / ``ModelCardData``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .select import Selection

PROBES_DATASET = "chartprobe/chartprobe-probes"
"""The Hub id of the probes (a local release folder is the same dataset built locally)."""


def model_card(cfg: Any, selection: dict[str, Selection], summary: dict[str, Any]) -> str:
    """Markdown card with Hub YAML metadata; ``summary`` holds losses, modules and timings."""
    train = selection["train"]
    from huggingface_hub import ModelCardData

    from .data import resolve_source, training_configs

    source = resolve_source(cfg.data)
    release = f"chartprobe-{source.regions.release}"
    what = f"skills-{cfg.skills}" if source.regions.stratum_column else f"data-{source.benchmark}"
    meta = ModelCardData(base_model=cfg.model, library_name="peft", pipeline_tag="image-text-to-text",
                         datasets=[f"chartprobe/{release}"], language=["en"],
                         tags=["chartprobe", "lora", "trl", "sft", what, f"select-{cfg.select}"])
    counts = ", ".join(f"{k}: {v}" for k, v in train.counts.items())
    details = ""
    if train.mode == "bottleneck":
        d = train.details
        if d.get("weak"):
            details = (f"\nBottleneck selection over `{train.region}` regions: the bottlenecks {d['weak']} (95% "
                       f"interval below the mean accuracy {d.get('mean')}) received {100 * d['weak_share']:.1f}% "
                       f"of the budget (ratio {d['ratio']}); base accuracy per region: {d['accuracy']}.\n")
        else:
            details = f"\nBottleneck selection over `{train.region}` regions: {d.get('note')}.\n"
    losses = summary.get("train_losses") or []
    regions = source.regions
    eval_cmd = (f"lm_eval --model hf-multimodal --model_args pretrained={cfg.model},peft=<this folder>,"
                f"max_images=1 --apply_chat_template --tasks {regions.test_tasks} "
                f"--include_path $(chartprobe tasks-path) --output_path results/tuned --log_samples")
    return f"""---
{meta.to_yaml()}
---

# LoRA adapter: {what} ({cfg.select}) on {release}

{regions.recipe}: LoRA r={cfg.lora_r}, alpha={cfg.lora_alpha}
on the language model's {", ".join(cfg.lora_targets)} projections only (vision tower frozen),
{cfg.epochs} epoch(s){f", stopped at {cfg.max_steps} steps" if cfg.max_steps > 0 else ""},
learning rate {cfg.learning_rate}, batch {cfg.per_device_batch_size} x {cfg.grad_accum} accumulation
per device, seed {cfg.seed}. {regions.never_trained}

- Base model: `{cfg.model}`
- Training rows: {len(train.ids)} ({counts}) from configs {", ".join(training_configs(cfg))}; validation rows:
  {len(selection["validation"].ids)}. Exact ids: `selection.json`; exact settings: `train_config.yaml`.
- Trainable modules: {len(summary.get("trainable_modules", []))}, all inside `{summary.get("lm_prefix")}`;
  trainable parameters: {summary.get("trainable_params")}.
- Training loss: mean {summary.get("train_loss", float("nan")):.4f} over {summary.get("steps")} steps
  (logged: first {losses[0] if losses else "n/a"}, last {losses[-1] if losses else "n/a"});
  validation loss: {summary.get("eval_loss", "n/a")}.
- Precision: {summary.get("precision")}; wall time {summary.get("train_seconds", 0):.1f} s.
{details}
## Evaluate

```
{eval_cmd}
```

The prompt used in training is the lm-eval task prompt rendered with the model's chat template,
so evaluate with `--apply_chat_template`.
"""


def card_with_results(card: str, cmp: Mapping[str, Any], name: str) -> str:
    """``card`` with the closed loop's numbers: ``model-index`` results (tuned accuracy per region,
    complex-reasoning fuzzy per domain) and a base-vs-tuned section."""
    from huggingface_hub import EvalResult, ModelCard

    from .compare import format_comparison

    release = f"chartprobe-{cmp.get('benchmark', 'probes')}"
    results = [EvalResult(task_type="visual-question-answering", dataset_type=f"chartprobe/{release}",
                          dataset_name=release, dataset_config=value if col == "domain" else None,
                          metric_type="accuracy", metric_name=f"accuracy ({col}={value})",
                          metric_value=round(cell["tuned"], 4), dataset_split="test")
               for col, cells in cmp.get("regions", {}).items() for value, cell in cells.items()]
    results += [EvalResult(task_type="visual-question-answering", dataset_type=PROBES_DATASET,
                           dataset_name="chartprobe-probes", dataset_config=f"cr_{domain}", dataset_split="test",
                           metric_type="fuzzy_accuracy", metric_name=f"complex reasoning fuzzy ({domain})",
                           metric_value=round(cell["tuned"], 4))
                for domain, cell in cmp.get("complex", {}).items()]
    parsed = ModelCard(card)
    if results:
        parsed.data.eval_results, parsed.data.model_name = results, name
    limit = f" (`--limit {cmp['limit']}` documents per task)" if cmp.get("limit") else ""
    section = (f"\n## Closed-loop results\n\nlm-eval on `{cmp.get('tasks')}`{limit}, base `{cmp.get('base')}` "
               f"vs this adapter (percent):\n\n{format_comparison(cmp)}\n")
    return f"---\n{parsed.data.to_yaml()}\n---\n{parsed.text.rstrip()}\n{section}"
