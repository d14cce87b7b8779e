"""Run lm-evaluation-harness with the chartprobe tasks on its include path.

``chartprobe tasks-path`` prints ``tasks_path()`` (for ``lm_eval --include_path``) and
``chartprobe eval ...`` is ``run_eval(argv)``: the ``lm_eval`` command line, unchanged,
with ``--include_path`` added.
"""

from __future__ import annotations

import sys
from pathlib import Path

# lm-eval 0.4.13 subcommands that accept --include_path; anything else is the legacy
# form ("lm_eval --model ... --tasks ..."), which lm-eval itself treats as `run`.
_INCLUDE_PATH_COMMANDS = ("run", "ls", "validate")
_HELP = ("-h", "--help")


def tasks_path() -> str:
    """The folder holding the chartprobe task YAMLs: the value for ``--include_path``."""
    return str(Path(__file__).resolve().parent / "tasks")


def lm_eval_argv(argv: list[str]) -> list[str]:
    """Return ``argv`` (lm-eval arguments, no program name) with the chartprobe include path added.

    Raises ``ValueError`` when ``argv`` already has ``--include_path``: lm-eval keeps only
    one, so ours would silently replace the user's or the other way round.
    """
    argv = list(argv)
    if not argv or argv[0] in _HELP:
        return argv
    if any(arg == "--include_path" or arg.startswith("--include_path=") for arg in argv):
        raise ValueError(
            "chartprobe eval adds --include_path itself and lm-eval accepts only one; run "
            f"lm_eval directly with your own tasks and the chartprobe ones copied together ({tasks_path()})"
        )
    if argv[0] not in _INCLUDE_PATH_COMMANDS:
        if argv[0].startswith("-"):
            argv.insert(0, "run")
        else:
            return argv  # an lm-eval subcommand we do not know: pass it through untouched
    return [*argv, "--include_path", tasks_path()]


def run_eval(argv: list[str]) -> int:
    """Run the lm-eval CLI on ``argv`` with ``--include_path`` added; return its exit status.

    lm-eval's entry point (``lm_eval.__main__.cli_evaluate``) reads ``sys.argv``, so it is
    swapped for the duration of the call and restored afterwards.  Exceptions from the
    evaluation propagate (their traceback is the useful report); ``SystemExit`` from
    argparse or ``validate`` becomes the return value.
    """
    try:
        full = lm_eval_argv(argv)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    from lm_eval.__main__ import cli_evaluate

    saved = sys.argv
    sys.argv = ["lm-eval", *full]
    try:
        cli_evaluate()
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
    return 0
