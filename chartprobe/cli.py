"""The ``chartprobe`` command line, composed from the three faces.

    chartprobe build  DATASET|all [--preset small|full|FILE.yaml] --out DIR [--num-proc N] [--seed S] [--overwrite]
                      [--shard I/N]
    chartprobe merge  SHARD_DIR [SHARD_DIR ...] --out DIR [--overwrite]   (the shards' release, same hash)
    chartprobe reconstruct --source chartqa|HUB_ID|DIR --model M [--base-url URL] --work DIR --out DIR
                      (real charts in: Chartographer's reconstruction pipeline, sandboxed model code)
    chartprobe restore-originals DIR [--source SPLIT=SOURCE ...]   (a Chartographer release's original charts)
    chartprobe render SPEC.json --out chart.png [--boxes boxes.json]
    chartprobe push   RELEASE --repo ORG/NAME --tag vX.Y.Z [--dry-run] [--private]
    chartprobe list   [charts|datasets|templates|interventions|flaws|tasks] [--benchmark B]
    chartprobe tasks-path
    chartprobe lmms-tasks-path                    (the lmms-eval include path)
    chartprobe eval   <lm_eval arguments...>      (adds --include_path for you)
    chartprobe serve  MODEL [--host H] [--port N] [--device D]   (transformers serve, fixed for lm-eval's API models)
    chartprobe score    --predictions PATH [PATH ...] --out results.json [--releases DIR] [--allow-partial] [--num-proc N]
    chartprobe report   RESULTS.json [...] --out DIR [--validity validity.json ...] [--study study.json ...]
    chartprobe validate RELEASE [RELEASE ...] [--out DIR] [--predictions-out DIR] [--agents a,b] [--write-card]
    chartprobe export vlmevalkit RELEASE --config C --out DIR [--split test]   (VLMEvalKit TSVs + dataset class)
    chartprobe train  --model VLM [--skills P+G] [--select atomic|bottleneck|random] [--profile F]
                      [--budget N] [--volume-matched N] [--eval-tasks T] [--seeds 42,43,44]   (see --help)
    chartprobe profile  LM_EVAL_DIR|RESULTS.json --out profile.json [--model NAME]

Each face adds its own commands (``dataset_builders/commands.py``, ``eval_tasks/commands.py``,
``training/cli.py``); this module only composes them and turns expected failures (see
``chartprobe/errors.py``) into one ``chartprobe: error: <what>: <why>`` line on stderr and
exit 2, Ctrl-C into ``chartprobe: interrupted`` and exit 130. Any other exception is a bug and
keeps its traceback; ``--debug`` (before or after the command) keeps the traceback of every
error. Heavy libraries (matplotlib, datasets, lm-eval, torch) are imported only by the commands
that need them, so ``chartprobe --help`` and ``chartprobe build`` start fast.
"""

from __future__ import annotations

import argparse
import sys

from chartprobe import __version__
from chartprobe.errors import ArgumentParser, main_with

__all__ = ["build_parser", "main"]

_NO_DEBUG_FLAG = ("eval",)  # its arguments all belong to lm_eval, --debug included


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser (also used to document the CLI in the README)."""
    from chartprobe.dataset_builders import commands as builder_commands
    from chartprobe.dataset_builders import merge_cli, reconstruct_cli, restore_cli
    from chartprobe.eval_tasks import commands as eval_commands
    from chartprobe.eval_tasks.harness import export_cli, serve_cli
    from chartprobe.eval_tasks.harness.lmms import cli as lmms_cli
    from chartprobe.training.cli import add_parser as add_train_parser  # no torch until `train` runs
    from chartprobe.training.profile_cli import add_parser as add_profile_parser

    p = ArgumentParser(prog="chartprobe", description="Diagnostic chart benchmarks for VLMs.")
    p.add_argument("--version", action="version", version=f"chartprobe {__version__}")
    p.add_argument("--debug", action="store_true", help="show the full traceback of any error (for bug reports)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    builder_commands.add_parsers(sub)     # build, render, push, list
    merge_cli.add_parser(sub)             # merge
    reconstruct_cli.add_parser(sub)       # reconstruct
    restore_cli.add_parser(sub)           # restore-originals
    eval_commands.add_harness_parsers(sub)  # tasks-path, eval
    lmms_cli.add_parsers(sub)             # lmms-tasks-path
    serve_cli.add_parser(sub)             # serve
    add_train_parser(sub)                 # train
    add_profile_parser(sub)               # profile
    eval_commands.add_parsers(sub)        # score, report, validate
    export_cli.add_parsers(sub)           # export vlmevalkit
    _add_list_tasks(sub.choices["list"], eval_commands.cmd_list_tasks)
    for name, command in sub.choices.items():
        if name not in _NO_DEBUG_FLAG:  # SUPPRESS: an absent flag must not reset `chartprobe --debug CMD`
            command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                 help="show the full traceback of any error (for bug reports)")
    return p


def _add_list_tasks(parser: argparse.ArgumentParser, list_tasks) -> None:
    """``chartprobe list tasks [--benchmark B]``: the lm-eval task index next to the builders' registries.

    ``list`` belongs to the builders' face, which must not import the evaluation face; the word
    ``tasks`` is added here, where the faces are composed.
    """
    what = next(a for a in parser._actions if a.dest == "what")
    what.choices = (*what.choices, "tasks")
    parser.add_argument("--benchmark", default=None, metavar="B",
                        help="tasks only: those of one benchmark (release name: families, judge, legend, probes, smoke)")
    registries = parser.get_default("func")

    def run(args: argparse.Namespace) -> int:
        if args.what == "tasks":
            return list_tasks(args)
        if args.benchmark:
            parser.error("--benchmark applies to `list tasks` only")
        return registries(args)

    parser.set_defaults(func=run)


def _known_errors() -> tuple[type[BaseException], ...]:
    from chartprobe.dataset_builders import commands as builder_commands
    from chartprobe.dataset_builders import reconstruct_cli, restore_cli
    from chartprobe.eval_tasks import commands as eval_commands
    from chartprobe.eval_tasks.harness import export_cli
    from chartprobe.training import cli as train_cli

    return (builder_commands.known_errors() + reconstruct_cli.known_errors() + restore_cli.known_errors()
            + eval_commands.known_errors()
            + export_cli.known_errors() + train_cli.known_errors())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``chartprobe`` console script; returns the exit status."""
    return main_with(build_parser(), argv, _known_errors)


if __name__ == "__main__":
    sys.exit(main())
