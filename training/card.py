"""Model card (README.md) for a trained adapter: what it was trained on and how to evaluate it."""

from __future__ import annotations

from typing import Any

import yaml

from .select import Selection


def model_card(cfg: Any, selection: dict[str, Selection], summary: dict[str, Any]) -> str:
    """Markdown card with Hub YAML metadata; ``summary`` holds losses, modules and timings."""
    train = selection["train"]
    meta = {"base_model": cfg.model, "library_name": "peft", "pipeline_tag": "image-text-to-text",
            "tags": ["chartprobe", "lora", "trl", "sft", f"skills-{cfg.skills}", f"select-{cfg.select}"]}
    counts = ", ".join(f"{k}: {v}" for k, v in train.counts.items())
    details = ""
    if train.mode == "bottleneck":
        d = train.details
        details = (f"\nBottleneck selection over `{train.region}` regions: weak regions {d['weak']} "
                   f"received {100 * d['weak_share']:.1f}% of the budget (ratio {d['ratio']}); "
                   f"base accuracy per region: {d['accuracy']}.\n")
    losses = summary.get("train_losses") or []
    eval_cmd = (f"lm_eval --model hf-multimodal --model_args pretrained={cfg.model},peft=<this folder>,"
                f"max_images=1 --apply_chat_template --tasks chartprobe_probes_bar,chartprobe_probes_pie,"
                f"chartprobe_complex --include_path $(chartprobe tasks-path) --output_path results/tuned "
                f"--log_samples")
    return f"""---
{yaml.safe_dump(meta, sort_keys=False).strip()}
---

# LoRA adapter: {cfg.skills} ({cfg.select}) on chartprobe-probes

Atomic-skill fine-tuning after ChartProbe (§4 "Setup"): LoRA r={cfg.lora_r}, alpha={cfg.lora_alpha}
on the language model's {", ".join(cfg.lora_targets)} projections only (vision tower frozen),
{cfg.epochs} epoch(s){f", stopped at {cfg.max_steps} steps" if cfg.max_steps > 0 else ""},
learning rate {cfg.learning_rate}, batch {cfg.per_device_batch_size} x {cfg.grad_accum} accumulation
per device, seed {cfg.seed}. No complex-reasoning question was used.

- Base model: `{cfg.model}`
- Training rows: {len(train.ids)} ({counts}) from configs {", ".join(cfg.domains)}; validation rows:
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
