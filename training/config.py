"""The training configuration: one typed dataclass, a YAML file, and the command line made from it.

Every field of :class:`TrainConfig` is a ``--flag`` (underscores become dashes) whose help is
the docstring under the field, so the CLI, ``--config run.yaml`` and the ``train_config.yaml``
saved next to an adapter always describe the same settings. Precedence: defaults, then the
YAML file, then flags given on the command line.

Defaults are the ChartProbe paper's (§4 "Setup"): LoRA r=32, alpha=64 on the language
model's attention and MLP projections, 1 epoch, learning rate 1e-4, effective batch 8
(per-device batch x gradient accumulation x number of GPUs), seeds 42/43/44 (one run per
seed; ``--seed`` picks it). For Qwen-family models the paper used lr 2e-4 and batch 16.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import itertools
import textwrap
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PAPER_SEEDS = (42, 43, 44)
# Every linear projection of a decoder layer, fused ones included: GLM-4V's language model has one
# gate_up_proj, Phi-3/4's a qkv_proj and a gate_up_proj; a list without them silently leaves those out.
LM_PROJECTIONS = ["q_proj", "k_proj", "v_proj", "qkv_proj", "o_proj", "gate_proj", "up_proj", "gate_up_proj",
                  "down_proj"]


@dataclass
class TrainConfig:
    """Settings of one LoRA fine-tuning run on chartprobe-probes or chartprobe-legend."""

    model: str = ""
    """Hub id or local path of an image-text-to-text VLM (loaded with AutoModelForImageTextToText)."""
    data: str | None = None
    """Benchmark to train on: probes or legend (its release from $CHARTPROBE_DATA, else the pinned
    Hub release), or a release folder, a folder holding chartprobe-probes/, or a Hub dataset id
    (ORG/NAME or ORG/NAME@REVISION). Default: probes."""
    domains: list[str] | None = None
    """Configs to train on, comma-separated. Default: probes bar (the paper's; pie and shapes stay
    unseen), legend snapshot."""
    skills: str = "P+G+SR"
    """Supervised probe skill set: P, G, SR, P+G or P+G+SR (probes only; complex reasoning is never
    trained on)."""
    select: str = "atomic"
    """Data selection: atomic (all rows of the skills), bottleneck (profile-guided) or random."""
    profile: str | None = None
    """Capability profile of the base model for --select bottleneck: a profile JSON (chartprobe
    profile), a chartprobe score results file, or an lm-eval --output_path folder run with
    --log_samples (see training/profile.py)."""
    profile_model: str | None = None
    """Model to profile when the --profile results file holds several."""
    region: str | None = None
    """Capability-region dimension for bottleneck selection: probes skill (default), template_id,
    domain, domain_skill; legend capability (default), channel, chart_family, capability_channel,
    capability_chart_family."""
    budget: int | None = None
    """Number of training rows for --select bottleneck/random (defaults to --volume-matched)."""
    volume_matched: int | None = None
    """Fix the number of training rows (split evenly over the skills), as in the paper's
    volume-matched ablation (2700 train / 300 validation)."""
    bottleneck_ratio: float = 0.8
    """Share of the budget given to the significant bottlenecks (the rest is spread evenly over the
    other regions; 1.0 is the strictest allocation). Without a bottleneck the budget is uniform."""
    bottleneck_k: int | None = None
    """Keep only the k weakest bottlenecks; default: every region whose 95% interval lies below the
    model's mean accuracy."""
    seed: int = 42
    """Seed of selection, LoRA init and data order (the paper averages seeds 42, 43, 44)."""
    out: str = "runs/chartprobe-lora"
    """Output folder: adapter, train_config.yaml, selection.json, train_log.json, README.md."""
    epochs: float = 1.0
    """Training epochs (paper: 1)."""
    max_steps: int = -1
    """Stop after this many optimizer steps (overrides --epochs when > 0; for smoke runs)."""
    learning_rate: float = 1e-4
    """Peak learning rate (paper: 1e-4 for InternVL and LLaVA, 2e-4 for Qwen)."""
    per_device_batch_size: int = 2
    """Examples per device per forward pass."""
    grad_accum: int = 4
    """Gradient accumulation steps; effective batch = per-device batch x grad_accum x GPUs (paper: 8)."""
    lora_r: int = 32
    """LoRA rank (paper: 32)."""
    lora_alpha: int = 64
    """LoRA alpha (paper: 64)."""
    lora_dropout: float = 0.05
    """Dropout on the LoRA branch."""
    lora_targets: list[str] = field(default_factory=lambda: list(LM_PROJECTIONS))
    """Projection names adapted inside the language model only (comma-separated)."""
    max_length: int | None = None
    """Truncate sequences to this many tokens; default none, because cutting image tokens breaks VLMs."""
    activation_checkpointing: bool | None = None
    """Recompute activations to save memory; default: on with a GPU, off on CPU."""
    logging_steps: int = 10
    """Log the training loss every this many optimizer steps."""
    eval_at_end: bool = True
    """Report the loss on the selected validation rows after training."""
    progress: bool = True
    """Show TRL's own progress bar (steps, loss, time left) while training; --no-progress for logs only."""


class ConfigError(ValueError):
    """A configuration file or flag that cannot be used."""


def field_docs(cls: type = TrainConfig) -> dict[str, str]:
    """Docstrings written under dataclass fields (Python keeps them only in the source)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body
    docs = {}
    for node, nxt in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str)):
            docs[node.target.id] = " ".join(nxt.value.value.split())
    return docs


def _comma_list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _scalar(kind: Any) -> Any:
    """The non-None member of ``X | None`` (other types unchanged)."""
    if typing.get_origin(kind) not in (typing.Union, types.UnionType):
        return kind
    return next(a for a in typing.get_args(kind) if a is not type(None))


def add_config_arguments(parser: argparse.ArgumentParser, cls: type = TrainConfig, config_flag: bool = True) -> None:
    """One ``--flag`` per field of ``cls`` (plus ``--config``); unset flags stay out of the namespace."""
    if config_flag:
        parser.add_argument("--config", help="YAML file of config fields (flags given here override it)")
    hints, docs = typing.get_type_hints(cls), field_docs(cls)
    for f in dataclasses.fields(cls):
        kind = _scalar(hints[f.name])
        flag = "--" + f.name.replace("_", "-")
        # argparse %-formats help text: a literal "95%" must reach it as "95%%"
        kw: dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS,
                              "help": docs.get(f.name, "").replace("%", "%%")}
        if kind is bool:
            kw["action"] = argparse.BooleanOptionalAction
        elif typing.get_origin(kind) is list:
            kw.update(type=_comma_list, metavar="A,B")
        else:
            kw.update(type=kind, metavar=f.name.upper())
        parser.add_argument(flag, **kw)


def load_yaml(path: str | Path, classes: tuple[type, ...] = (TrainConfig,)) -> dict[str, Any]:
    """Fields from a YAML file; keys that no class in ``classes`` has are an error (typos must not pass)."""
    import yaml

    data = yaml.safe_load(Path(path).read_text()) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config fields")
    unknown = sorted(set(data) - {f.name for cls in classes for f in dataclasses.fields(cls)})
    if unknown:
        raise ConfigError(f"{path}: unknown fields {unknown}")
    return {k: _comma_list(v) if isinstance(v, str) and k in ("domains", "lora_targets") else v
            for k, v in data.items()}


def fields_from_namespace(ns: argparse.Namespace, cls: type, classes: tuple[type, ...]) -> dict[str, Any]:
    """Values of ``cls``'s fields: ``--config`` YAML first, explicit flags over it."""
    names = {f.name for f in dataclasses.fields(cls)}
    values = load_yaml(ns.config, classes) if getattr(ns, "config", None) else {}
    values = {k: v for k, v in values.items() if k in names}
    values.update({k: v for k, v in vars(ns).items() if k in names})
    return values


def config_from_namespace(ns: argparse.Namespace, classes: tuple[type, ...] = (TrainConfig,)) -> TrainConfig:
    """Defaults <- ``--config`` YAML <- explicit flags, validated."""
    cfg = TrainConfig(**fields_from_namespace(ns, TrainConfig, classes))
    if not cfg.model:
        raise ConfigError("--model is required (a Hub id or a local model folder)")
    from .select import MODES, parse_skills

    parse_skills(cfg.skills)  # refuses CR and unknown codes before any model is loaded
    if cfg.select not in MODES:
        raise ConfigError(f"--select {cfg.select}: choose from {', '.join(MODES)}")
    if cfg.select == "bottleneck" and not cfg.profile:
        raise ConfigError("--select bottleneck needs --profile")
    return cfg


def parse_config(argv: list[str] | None = None) -> TrainConfig:
    """Parse a command line (no program name) into a :class:`TrainConfig`."""
    parser = argparse.ArgumentParser(prog="chartprobe train", description=__doc__.split("\n")[0])
    add_config_arguments(parser)
    return config_from_namespace(parser.parse_args(argv))


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    """Plain dict of every field (what ``train_config.yaml`` stores)."""
    return dataclasses.asdict(cfg)
