"""``chartprobe train``: LoRA fine-tuning on selected probes, optionally followed by the closed loop.

    chartprobe train --model ORG/VLM [--data probes|legend|RELEASE] [--skills P+G]
                     [--select atomic|bottleneck|random] [--profile FILE|DIR] [--region DIM]
                     [--budget N] [--volume-matched N] [--max-steps N] [--seed 42] [--out DIR]
                     [--config run.yaml] [--eval-tasks TASKS [--eval-limit N] [--base-eval DIR]]
                     [--seeds 42,43,44]   (the Random FT vs Bottleneck FT study, training/study.py)
                     [--seeds 42,43,44 --skill-sets P,G,SR,P+G,P+G+SR]   (ChartProbe's five configurations)

Every flag is a field of :class:`chartprobe.training.config.TrainConfig` or
:class:`chartprobe.training.loop.LoopConfig` (``--help`` lists them with their docstrings). Without
``--eval-tasks`` it trains and saves the adapter; with it, it also evaluates base and tuned
model with lm-eval and writes the comparison. ``python -m chartprobe.training.cli`` is the same command.

Every argument is checked before torch is imported or a model is loaded (:func:`check_request`):
types of ``--config`` values, ranges, the model folder, the data release and its configs, the
profile, the task names and the output folder. A bad request is one ``chartprobe: error:`` line.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import sys
import types
import typing
from pathlib import Path
from typing import Any

from chartprobe.errors import ArgumentParser, check_output, main_with, run_command

from .config import (
    ConfigError,
    TrainConfig,
    add_config_arguments,
    config_from_namespace,
    fields_from_namespace,
    load_yaml,
)
from .loop import LoopConfig

CLASSES = (TrainConfig, LoopConfig)  # --config YAML may hold fields of both

# Fields that must be > 0 when set; the others with a range are checked one by one below.
_POSITIVE = ("budget", "volume_matched", "bottleneck_k", "epochs", "learning_rate", "per_device_batch_size",
             "grad_accum", "lora_r", "lora_alpha", "max_length", "logging_steps", "eval_limit", "eval_batch_size")
_LOCAL = ("/", "./", "../", "~")  # a --model or --data that starts so is a path, never a Hub id


def configure(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add every training and closed-loop flag to ``parser``."""
    add_config_arguments(parser)
    loop = parser.add_argument_group("closed loop (evaluate base vs tuned with lm-eval)")
    add_config_arguments(loop, LoopConfig, config_flag=False)
    parser.set_defaults(func=run)
    return parser


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``train`` on the ``chartprobe`` sub-command parser; ``args.func`` is :func:`run`."""
    p = subparsers.add_parser("train", help="LoRA fine-tuning on skill probes (TRL + PEFT), optional eval loop",
                              description=__doc__.split("\n\n")[0].replace("``", ""))
    return configure(p)


def known_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of ``train`` that mean a bad request (one error line, exit 2), not a bug."""
    from .profile import ProfileError
    from .select import SelectionError

    return (ConfigError, SelectionError, ProfileError)


def _check_types(obj: Any) -> None:
    """Values from ``--config`` YAML have the field's type (flags are typed by argparse already)."""
    for f in dataclasses.fields(obj):
        kind, value = typing.get_type_hints(type(obj))[f.name], getattr(obj, f.name)
        if typing.get_origin(kind) in (typing.Union, types.UnionType):  # X | None
            if value is None:
                continue
            kind = next(a for a in typing.get_args(kind) if a is not type(None))
        if typing.get_origin(kind) is list:
            ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
        elif kind in (int, float):  # YAML's true/false are not numbers here
            ok = isinstance(value, (int, float) if kind is float else int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise ConfigError(f"{f.name} must be {getattr(kind, '__name__', kind)}, got {value!r}")


def _check_ranges(cfg: TrainConfig, loop: LoopConfig) -> None:
    for obj in (cfg, loop):
        for name in _POSITIVE:
            value = getattr(obj, name, None)
            if value is not None and not (math.isfinite(value) and value > 0):  # nan passes a `<= 0` test
                raise ConfigError(f"--{name.replace('_', '-')} must be a finite number > 0, got {value}")
    checks = [(cfg.seed >= 0, f"--seed must be >= 0, got {cfg.seed}"),
              (cfg.max_steps == -1 or cfg.max_steps > 0, f"--max-steps must be -1 (no limit) or > 0, got {cfg.max_steps}"),
              (0 < cfg.bottleneck_ratio <= 1, f"--bottleneck-ratio must be in (0, 1], got {cfg.bottleneck_ratio}"),
              (0 <= cfg.lora_dropout < 1, f"--lora-dropout must be in [0, 1), got {cfg.lora_dropout}"),
              (bool(cfg.lora_targets), "--lora-targets: give at least one projection name"),
              (cfg.domains is None or bool(cfg.domains),
               "--domains: give at least one training config (probes: bar, hbar, pie, shapes; legend: snapshot)"),
              (cfg.select not in ("random", "bottleneck") or cfg.budget or cfg.volume_matched,
               f"--select {cfg.select} needs --budget N (the number of training rows)"),
              (cfg.select != "atomic" or cfg.budget is None or bool(loop.seeds),  # the study sets --select itself
               "--budget is for --select bottleneck/random; fix atomic's total with --volume-matched N")]
    for ok, message in checks:
        if not ok:
            raise ConfigError(message)


def _check_data(cfg: TrainConfig) -> None:
    """The release trained from exists locally (when local), is a trainable benchmark, and has the
    requested configs with train/validation splits; the region dimension is one of its own."""
    from chartprobe.eval_tasks.rescoring.predictions import read_release_card

    from .data import TRAIN_SPLITS, resolve_source, training_configs
    from .select import SelectionError

    bad = [d for d in cfg.domains or () if d.startswith("cr_")]
    if bad:
        raise SelectionError(f"domains {bad}: cr_* configs hold held-out complex reasoning and are never trained on")
    source = resolve_source(cfg.data)  # a missing local folder or $CHARTPROBE_DATA release raises here
    try:
        source.regions.dimension(cfg.region or source.regions.default_dimension)
    except KeyError as exc:
        raise ConfigError(exc.args[0]) from None
    folder = Path(source.args["path"])
    if not folder.is_dir():
        return  # a Hub dataset id: checked when it is downloaded
    meta = read_release_card(folder)
    if meta["chartprobe"]["dataset"] != source.regions.release:
        raise ConfigError(f"--data {folder}: a chartprobe-{meta['chartprobe']['dataset']} release, "
                          f"not chartprobe-{source.regions.release}")
    splits = {c["config_name"]: {e["split"] for e in c["data_files"]} for c in meta["configs"]}
    for domain in training_configs(cfg):
        if not set(TRAIN_SPLITS) <= splits.get(domain, set()):
            raise ConfigError(f"--domains {domain}: {folder} has no {domain} config with "
                              f"{'/'.join(TRAIN_SPLITS)} splits (it has: {', '.join(sorted(splits))})")


def _check_profile(cfg: TrainConfig) -> None:
    """The bottleneck profile loads and has the benchmark and region selection works on."""
    from .data import resolve_source
    from .profile import ProfileError, region_cells
    from .profile_sources import load_profile

    source = resolve_source(cfg.data)
    try:
        region_cells(load_profile(cfg.profile, cfg.profile_model), source.benchmark,
                     cfg.region or source.regions.default_dimension)
    except ProfileError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:  # JSON and shape errors
        reason = f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc)
        raise ProfileError(f"--profile {cfg.profile}: not a readable profile ({reason.splitlines()[0]})") from None


def check_request(cfg: TrainConfig, loop: LoopConfig) -> None:
    """Refuse a training request that cannot work, before any model or heavy library loads."""
    for obj in (cfg, loop):
        _check_types(obj)
    _check_ranges(cfg, loop)
    if cfg.model.startswith(_LOCAL) and not Path(cfg.model).expanduser().is_dir():
        raise ConfigError(f"--model {cfg.model}: no such model folder")
    from .architectures import check_trainable

    check_trainable(cfg.model)
    _check_data(cfg)
    if cfg.select == "bottleneck" and (cfg.profile or not loop.seeds):  # the study profiles the base itself
        _check_profile(cfg)
    check_output(cfg.out, "--out", folder=True)
    from chartprobe.eval_tasks.harness.eval_args import check_task_names

    for flag, tasks in (("--eval-tasks", loop.eval_tasks), ("--profile-tasks", loop.profile_tasks)):
        if tasks:
            check_task_names(tasks, flag)
    if loop.base_eval and not Path(loop.base_eval).exists():
        raise ConfigError(f"--base-eval {loop.base_eval}: no such lm-eval folder or profile file")
    if loop.seeds:
        from .study import parse_seeds

        parse_seeds(loop.seeds)
        if loop.skill_sets:
            from .study import parse_skill_sets

            parse_skill_sets(loop.skill_sets)
            from .data import resolve_source

            source = resolve_source(cfg.data)
            if not source.regions.stratum_column:
                raise ConfigError(f"--skill-sets: {source.benchmark} rows have no skills to "
                                  "train apart (ChartProbe's probes do: --data probes)")
            if cfg.budget:
                raise ConfigError("--skill-sets trains on all rows of each skill set: hold the count fixed "
                                  "with --volume-matched N, not --budget")
        elif not (cfg.budget or cfg.volume_matched):
            raise ConfigError("--seeds runs Random FT and Bottleneck FT at the same budget: give --budget N")
    elif loop.skill_sets:
        raise ConfigError("--skill-sets is a study over seeds: give --seeds too (e.g. --seeds 42,43,44)")
    _check_integrity(cfg)


def _check_integrity(cfg: TrainConfig) -> None:
    """Last, once every argument is known good: a local release's data hashes to its card's content
    hash (recomputed, or from the keyed digest cache), so no model loads for a tampered release."""
    from chartprobe.eval_tasks.rescoring.predictions import read_release_card, verify_release_data

    from .data import resolve_source

    folder = Path(resolve_source(cfg.data).args["path"])
    if folder.is_dir():  # a Hub dataset id is checked by its pinned revision when downloaded
        verify_release_data(folder, read_release_card(folder))


def _load_config_file(path: str) -> None:
    """Read ``--config`` once up front, so a broken file is named instead of failing deep inside."""
    import yaml

    try:
        load_yaml(path, CLASSES)
    except OSError as exc:
        raise ConfigError(f"--config {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"--config {path}: not UTF-8 text ({exc.reason})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"--config {path}: invalid YAML: {' '.join(str(exc).split())}") from None


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "config", None):
        _load_config_file(args.config)
    cfg = config_from_namespace(args, CLASSES)
    loop = LoopConfig(**fields_from_namespace(args, LoopConfig, CLASSES))
    check_request(cfg, loop)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if loop.seeds:
        from .study import run_study

        run_study(cfg, loop)
    elif loop.eval_tasks:
        from .loop import closed_loop

        closed_loop(cfg, loop)
    else:
        from .sft import train

        train(cfg)
    return 0


def run(args: argparse.Namespace) -> int:
    """Train (and, with --eval-tasks, evaluate and compare); 0 on success, 2 on a bad request."""
    return run_command(_run, args, known_errors)


def main(argv: list[str] | None = None) -> int:
    """``python -m chartprobe.training.cli ...``: the same flags and errors as ``chartprobe train``."""
    description = __doc__.split("\n\n")[0].replace("``", "")
    parser = configure(ArgumentParser(prog="chartprobe train", description=description))
    parser.add_argument("--debug", action="store_true", help="show the full traceback of any error (for bug reports)")
    return main_with(parser, argv, known_errors)


if __name__ == "__main__":
    sys.exit(main())
