"""``chartprobe train``: LoRA fine-tuning on selected probes, optionally followed by the closed loop.

    chartprobe train --model ORG/VLM --skills P+G [--select atomic|bottleneck|random]
                     [--profile FILE] [--budget N] [--volume-matched N] [--max-steps N]
                     [--seed 42] [--data RELEASE] [--out DIR] [--config run.yaml]
                     [--eval-tasks TASKS [--eval-limit N] [--base-eval DIR]]

Every flag is a field of :class:`chartprobe.training.config.TrainConfig` or
:class:`chartprobe.training.loop.LoopConfig` (``--help`` lists them with their docstrings). Without
``--eval-tasks`` it trains and saves the adapter; with it, it also evaluates base and tuned
model with lm-eval and writes the comparison. ``python -m chartprobe.training.cli`` is the same command.
"""

from __future__ import annotations

import argparse
import logging
import sys

from .config import (
    ConfigError,
    TrainConfig,
    add_config_arguments,
    config_from_namespace,
    fields_from_namespace,
)
from .loop import LoopConfig

CLASSES = (TrainConfig, LoopConfig)  # --config YAML may hold fields of both


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


def run(args: argparse.Namespace) -> int:
    """Train (and, with --eval-tasks, evaluate and compare); 0 on success, 2 on a bad config."""
    from .profile import ProfileError
    from .select import SelectionError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        cfg = config_from_namespace(args, CLASSES)
        loop = LoopConfig(**fields_from_namespace(args, LoopConfig, CLASSES))
        if loop.eval_tasks:
            from .loop import closed_loop

            closed_loop(cfg, loop)
        else:
            from .sft import train

            train(cfg)
    except (ConfigError, SelectionError, ProfileError, FileNotFoundError) as exc:
        print(f"chartprobe train: error: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m chartprobe.training.cli ...``: the same flags as ``chartprobe train``."""
    description = __doc__.split("\n\n")[0].replace("``", "")
    parser = configure(argparse.ArgumentParser(prog="chartprobe train", description=description))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
