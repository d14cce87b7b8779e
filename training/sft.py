"""LoRA supervised fine-tuning of a VLM on selected ChartProbe probes or LegendBench rows with TRL's ``SFTTrainer``.

    python -m chartprobe.training.sft --model ORG/VLM --skills P+G [--config run.yaml] [...]
    accelerate launch -m chartprobe.training.sft --config run.yaml          # several GPUs

(``chartprobe train`` is the same command.) Steps: load the train/validation splits of ``--data``,
select rows (``chartprobe.training.select``), format them as vision prompt/completion rows
(``chartprobe.training.format``), load ``AutoModelForImageTextToText`` + ``AutoProcessor``, wrap the
language model with LoRA (``chartprobe.training.lora``), train, and save into ``--out``:

- the adapter (``adapter_model.safetensors``, ``adapter_config.json``) and the processor,
- ``train_config.yaml`` (every field of the run), ``selection.json`` (mode, rule, ids),
- ``train_log.json`` (loss per logged step, trainable modules, timings), ``README.md`` (card).

Precision: bf16 on a GPU that supports it, fp32 otherwise (CPU runs are for tests).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from chartprobe.dataset_builders.core.atomic import atomic_write_files

from .config import TrainConfig, parse_config, to_dict

log = logging.getLogger("chartprobe.train")


def _precision() -> tuple[str, bool]:
    """(name, bf16?) for this machine: bf16 needs a GPU with bf16 support."""
    import torch

    if torch.cuda.is_available() and torch.cuda.is_bf16_supported():
        return "bf16", True
    return "fp32", False


def _profile(cfg: TrainConfig) -> dict[str, Any] | None:
    """The base model's capability profile (bottleneck selection only); warn when it was computed
    on a test split, whose scores are then no longer held out from the selection."""
    if cfg.select != "bottleneck":
        return None
    from .data import resolve_source
    from .profile import section
    from .profile_sources import load_profile

    profile = load_profile(cfg.profile, cfg.profile_model)
    splits = section(profile, resolve_source(cfg.data).benchmark).get("splits", {})
    if "test" in splits:
        log.warning("the profile %s was computed on the test split (%d rows): selection has seen the rows the "
                    "tuned model is scored on; profile on the validation split (chartprobe_*_val tasks) to keep "
                    "them held out", cfg.profile, splits["test"])
    return profile


def _sft_args(cfg: TrainConfig, bf16: bool, has_eval: bool):
    import torch
    from trl import SFTConfig

    # activation_checkpointing is the new name of gradient_checkpointing; setting it
    # explicitly avoids TRL's default (True) going through the deprecated alias.
    checkpointing = cfg.activation_checkpointing
    if checkpointing is None:
        checkpointing = torch.cuda.is_available()
    return SFTConfig(
        output_dir=cfg.out, num_train_epochs=cfg.epochs, max_steps=cfg.max_steps,
        learning_rate=cfg.learning_rate, per_device_train_batch_size=cfg.per_device_batch_size,
        per_device_eval_batch_size=cfg.per_device_batch_size, gradient_accumulation_steps=cfg.grad_accum,
        bf16=bf16, fp16=False, activation_checkpointing=checkpointing, max_length=cfg.max_length,
        completion_only_loss=True, logging_steps=cfg.logging_steps, save_strategy="no", eval_strategy="no",
        report_to=[], seed=cfg.seed, data_seed=cfg.seed, dataloader_num_workers=0,
        dataloader_pin_memory=torch.cuda.is_available(),
        do_eval=has_eval, disable_tqdm=not cfg.progress)  # TRL's own bar (transformers' tqdm)


def load_model(cfg: TrainConfig, bf16: bool):
    """Processor and base model from a Hub id or folder, in bf16 on GPU and fp32 on CPU."""
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    processor = AutoProcessor.from_pretrained(cfg.model)
    model = AutoModelForImageTextToText.from_pretrained(
        cfg.model, dtype=torch.bfloat16 if bf16 else torch.float32)
    return processor, model


def train(cfg: TrainConfig) -> dict[str, Any]:
    """Run one fine-tuning job end to end; return the summary also saved as ``train_log.json``."""
    import yaml
    from transformers import set_seed
    from trl import SFTTrainer

    from .card import model_card
    from .cross_attention import keep_in_step
    from .data import load_splits, resolve_source, select_splits, subset, training_configs
    from .format import format_dataset
    from .input_dtype import cast_inputs
    from .lora import apply_lora, language_model_prefix

    set_seed(cfg.seed)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    regions = resolve_source(cfg.data).regions
    splits = load_splits(cfg.data, training_configs(cfg))
    selection = select_splits(cfg, splits, _profile(cfg))
    log.info("selected %d train rows %s, %d validation rows", len(selection["train"].ids),
             selection["train"].counts, len(selection["validation"].ids))
    train_ds = format_dataset(subset(splits["train"], selection["train"].ids), regions)
    val_ids = selection["validation"].ids
    val_ds = format_dataset(subset(splits["validation"], val_ids), regions) if cfg.eval_at_end and val_ids else None

    precision, bf16 = _precision()
    processor, model = load_model(cfg, bf16)
    lm_prefix = language_model_prefix(model)
    model, modules = apply_lora(cfg, model)
    log.info("LoRA on %d modules of %s:\n  %s", len(modules), lm_prefix, "\n  ".join(modules))
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)

    trainer = SFTTrainer(model=model, args=_sft_args(cfg, bf16, val_ds is not None), train_dataset=train_ds,
                         eval_dataset=val_ds, processing_class=processor)
    if keep_in_step(trainer, processor):
        log.info("cross-attention mask rebuilt per batch for prompt + completion (%s)", type(processor).__name__)
    cast_inputs(trainer, model.dtype)  # Llama 4's processor returns bf16 pixels, whatever the model's dtype
    start = time.perf_counter()
    result = trainer.train()
    seconds = time.perf_counter() - start
    summary: dict[str, Any] = {
        "train_losses": [h["loss"] for h in trainer.state.log_history if "loss" in h],
        "train_loss": result.training_loss, "log_history": trainer.state.log_history,
        "steps": result.global_step,
        "train_seconds": seconds, "precision": precision, "lm_prefix": lm_prefix,
        "trainable_modules": modules, "trainable_params": trainable,
    }
    if val_ds is not None:
        summary["eval_loss"] = trainer.evaluate()["eval_loss"]
    trainer.save_model(str(out))
    if not trainer.is_world_process_zero():  # under accelerate launch, one process writes the files
        return summary
    processor.save_pretrained(str(out))
    atomic_write_files({  # the adapter's card and records: all of them or, on a full disk, none
        out / "train_config.yaml": yaml.safe_dump(to_dict(cfg), sort_keys=False),
        out / "selection.json": json.dumps({k: s.manifest() for k, s in selection.items()}, indent=1),
        out / "train_log.json": json.dumps(summary, indent=1, default=str),
        out / "README.md": model_card(cfg, selection, summary)})
    log.info("adapter saved to %s (%d steps, %.1f s, mean train loss %.4f)", out, result.global_step, seconds,
             result.training_loss)
    return summary


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m chartprobe.training.sft`` (and ``chartprobe train``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    train(parse_config(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
