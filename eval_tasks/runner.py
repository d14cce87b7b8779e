"""Run lm-evaluation-harness with the chartprobe tasks on its include path.

``chartprobe tasks-path`` prints ``tasks_path()`` (for ``lm_eval --include_path``) and
``chartprobe eval ...`` is ``run_eval(argv)``: the ``lm_eval`` command line, unchanged,
with ``--include_path`` added, and chartprobe's own ``--max-gen-toks N`` turned into lm-eval's
``--gen_kwargs max_gen_toks=N``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# lm-eval 0.4.13 subcommands that accept --include_path; anything else is the legacy
# form ("lm_eval --model ... --tasks ..."), which lm-eval itself treats as `run`.
_INCLUDE_PATH_COMMANDS = ("run", "ls", "validate")
_HELP = ("-h", "--help")

DEFAULT_MAX_GEN_TOKS = 2048
"""Generation budget (new tokens) every chartprobe task YAML allows at least: room for a reasoning
model's ``<think>`` block before its final answer. The tasks stop only at the model's EOS (no
``"\\n\\n"`` or ``"</answer>"`` stop strings, which would cut a reasoning trace), so a model that
answers directly still stops early. Override per run with ``--gen_kwargs max_gen_toks=N``
(``chartprobe eval --max-gen-toks N``); a model whose context is not longer than the budget
(lm-eval's ``hf`` asserts ``max_length > max_gen_toks``) needs a smaller one."""
MAX_GEN_TOKS_FLAG = "--max-gen-toks"


def max_gen_toks_argv(argv: list[str]) -> list[str]:
    """``argv`` with ``--max-gen-toks N`` (or ``--max-gen-toks=N``) replaced by ``--gen_kwargs max_gen_toks=N``.

    lm-eval merges repeated ``--gen_kwargs`` flags, so the user's own ones are kept. Raises
    ``ValueError`` for a value that is not a positive integer, a repeated flag, or a budget also
    given through ``--gen_kwargs`` (two budgets, one silently winning).
    """
    out, budgets = [], []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == MAX_GEN_TOKS_FLAG or arg.startswith(MAX_GEN_TOKS_FLAG + "="):
            if "=" in arg:
                value = arg.partition("=")[2]
            else:
                value = argv[i + 1] if i + 1 < len(argv) else ""
                i += 1
            if not (value.isdigit() and int(value) > 0):
                raise ValueError(f"{MAX_GEN_TOKS_FLAG} must be a positive whole number of tokens, got {value!r}")
            budgets.append(int(value))
        else:
            out.append(arg)
        i += 1
    if not budgets:
        return out
    if len(budgets) > 1:
        raise ValueError(f"{MAX_GEN_TOKS_FLAG} given {len(budgets)} times; give it once")
    if any(key in value for value in _gen_kwargs_values(out)
           for key in ("max_gen_toks", "max_new_tokens", "max_tokens", "max_completion_tokens")):
        raise ValueError(f"{MAX_GEN_TOKS_FLAG} and a token budget in --gen_kwargs: give the budget once")
    return [*out, "--gen_kwargs", f"max_gen_toks={budgets[0]}"]


def tasks_path() -> str:
    """The folder holding the chartprobe task YAMLs: the value for ``--include_path``."""
    return str(Path(__file__).resolve().parent / "tasks")


def _gen_kwargs_values(argv: list[str]) -> list[str]:
    """The values of every ``--gen_kwargs`` flag (``--gen_kwargs a=1 b=2`` or ``--gen_kwargs=a=1``)."""
    values: list[str] = []
    for i, arg in enumerate(argv):
        if arg.startswith("--gen_kwargs="):
            values.append(arg.partition("=")[2])
        elif arg == "--gen_kwargs":
            for following in argv[i + 1:]:
                if following.startswith("-"):
                    break
                values.append(following)
    return values


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
    if argv[0] == "run":
        argv = max_gen_toks_argv(argv)
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
