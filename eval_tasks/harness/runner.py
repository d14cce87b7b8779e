"""Run lm-evaluation-harness with the chartprobe tasks on its include path.

``chartprobe tasks-path`` prints ``tasks_path()`` (for ``lm_eval --include_path``) and
``chartprobe eval ...`` is ``run_eval(argv)``: the ``lm_eval`` command line, unchanged,
with ``--include_path`` added, and chartprobe's own ``--max-gen-toks N`` turned into lm-eval's
``--gen_kwargs max_gen_toks=N``. After a successful run every results file it wrote gets a
``chartprobe_provenance`` block (releases with content hash, preset, revision; versions; model and
generation arguments): :func:`stamp_new_results`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

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
    from .image_guard import check_image_capacity
    from .image_string import image_string_argv

    try:
        full = lm_eval_argv(argv)
        check_image_capacity(full)  # Python callers too: a two-image task never runs on a one-image model
        # Without a chat template, <image> must become the model's own image string (Gemma 3, Qwen-VL).
        full, note = image_string_argv(full)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if note:
        print(note, file=sys.stderr)
    from lm_eval.__main__ import cli_evaluate

    from . import interleaved_chat  # noqa: F401  (registers the chartprobe-chat-completions model)
    from .own_index import own_index

    saved = sys.argv
    sys.argv = ["lm-eval", *full]
    started = time.time()
    code = 0
    try:
        with own_index(full):  # only our 75 task names indexed when nothing else is asked for
            cli_evaluate()
    except SystemExit as stop:
        if not (stop.code is None or isinstance(stop.code, int)):
            print(stop.code, file=sys.stderr)
            return 1
        code = stop.code or 0
    finally:
        sys.argv = saved
    if code == 0:
        stamp_new_results(full, started)
    return code


def _output_path(argv: list[str]) -> Path | None:
    """lm-eval's ``--output_path``/``-o`` value, if given."""
    for i, arg in enumerate(argv):
        if arg in ("--output_path", "-o") and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--output_path="):
            return Path(arg.partition("=")[2])
    return None


def stamp_new_results(argv: list[str], since: float) -> list[Path]:
    """Add chartprobe's provenance block to every lm-eval results file the run wrote; return them.

    lm-eval writes ``<output_path>/<model>/results_<date>.json`` (or ``<stem>_<date>.json`` next to a
    ``.json`` output path); the files modified since ``since`` are this run's. lm-eval's own task
    metadata cannot carry it: the content hash is known only once the data is resolved. A file
    that cannot be stamped is reported on stderr; the evaluation itself succeeded.
    """
    from ..rescoring.predictions import PredictionsError

    out = _output_path(argv)
    if out is None:
        return []
    found = out.parent.glob(f"{out.stem}_*.json") if out.suffix == ".json" else out.rglob("results_*.json")
    stamped = []
    for path in sorted(p for p in found if p.stat().st_mtime >= since - 1):
        try:
            stamp_lm_eval_results(path)
            stamped.append(path)
        except (PredictionsError, OSError, ValueError, KeyError) as exc:
            print(f"warning: {path}: could not add chartprobe provenance: {exc}", file=sys.stderr)
    return stamped


def stamp_lm_eval_results(path: str | Path) -> dict[str, Any]:
    """Add the ``chartprobe_provenance`` block to an lm-eval results file, atomically; return the block.

    Each task's release is resolved the way its loader resolved it (``CHARTPROBE_DATA``, else the
    pinned Hub revision), so the block names the data the run read. Tasks that are not chartprobe's
    are left out.
    """
    import json

    from chartprobe.dataset_builders.core.atomic import atomic_write_text

    from ..rescoring.data import resolve_release
    from ..rescoring.predictions import read_json
    from ..rescoring.provenance import (
        PROVENANCE_KEY,
        lm_eval_run,
        release_provenance,
        software,
    )
    from ..suites._task_index import task_index

    doc = read_json(path)
    index = task_index()
    releases = sorted({index[t].release for t in (doc.get("configs") or {}) if t in index})
    block = {**software(), "releases": {r: release_provenance(r, resolve_release(r)).to_json() for r in releases},
             "run": lm_eval_run(doc)}
    doc[PROVENANCE_KEY] = block
    atomic_write_text(Path(path), json.dumps(doc, indent=2, ensure_ascii=False, default=str))
    return block
