"""The ``--judge`` options of ``chartprobe score`` and the :class:`Judge` they describe."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import Any

from .client import DEFAULT_BASE_URL, PAPER_JUDGE_MODEL, Judge

__all__ = ["add_judge_arguments", "judge_from_args", "lm_eval_judge_notices"]

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_CONCURRENCY = 8
_OPTIONS = ("judge_base_url", "judge_model", "judge_api_key_env", "judge_cache", "judge_concurrency")


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--judge`` and its ``--judge-*`` settings to ``parser``."""
    g = parser.add_argument_group(
        "LLM judge", "score the suites whose paper uses an answer-equivalence judge (families: Chartographer "
        "A.7) with an LLM judge on any OpenAI-compatible endpoint, with Chartographer's released prompt at "
        "temperature 0; other suites keep their typed scorer. Results record which scorer made each number")
    g.add_argument("--judge", action="store_true", help="score with the LLM judge instead of the typed scorer")
    g.add_argument("--judge-base-url", metavar="URL",
                   help="OpenAI-compatible API base, e.g. http://127.0.0.1:8000/v1 (default: "
                        f"CHARTPROBE_JUDGE_BASE_URL, else {DEFAULT_BASE_URL})")
    g.add_argument("--judge-model", metavar="NAME",
                   help=f"judge model (default: CHARTPROBE_JUDGE_MODEL, else the paper's {PAPER_JUDGE_MODEL})")
    g.add_argument("--judge-api-key-env", metavar="NAME",
                   help=f"environment variable holding the API key (default {DEFAULT_KEY_ENV}; the key "
                        "itself is never taken on the command line, logged or written)")
    g.add_argument("--judge-cache", metavar="DIR",
                   help="reply cache folder; a rerun asks nothing it asked before (default: "
                        "CHARTPROBE_JUDGE_CACHE, else ~/.cache/chartprobe/judge)")
    g.add_argument("--judge-concurrency", type=int, metavar="N",
                   help=f"judge requests in flight at once (default {DEFAULT_CONCURRENCY})")


def judge_from_args(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> Judge | None:
    """The judge ``args`` ask for, or None without ``--judge`` (a ``--judge-*`` option alone is refused)."""
    from chartprobe.errors import UsageError

    if not args.judge:
        given = [f"--{name.replace('_', '-')}" for name in _OPTIONS if getattr(args, name, None) is not None]
        if given:
            raise UsageError(f"{', '.join(given)} only apply with --judge")
        return None
    concurrency = DEFAULT_CONCURRENCY if args.judge_concurrency is None else args.judge_concurrency
    if concurrency < 1:
        raise UsageError(f"--judge-concurrency must be >= 1, got {concurrency}")
    key_env = args.judge_api_key_env or DEFAULT_KEY_ENV
    if args.judge_api_key_env and not environ.get(key_env):
        raise UsageError(f"--judge-api-key-env {key_env}: that environment variable is not set")
    return Judge(base_url=args.judge_base_url or environ.get("CHARTPROBE_JUDGE_BASE_URL") or DEFAULT_BASE_URL,
                 model=args.judge_model or environ.get("CHARTPROBE_JUDGE_MODEL") or PAPER_JUDGE_MODEL,
                 api_key=environ.get(key_env, ""), concurrency=concurrency, cache_dir=args.judge_cache)


def lm_eval_judge_notices(seen: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per task whose lm-eval run was scored by an LLM judge but that ``score`` rescored with
    the typed scorer; ``seen`` is task -> {"models": set, "judges": set}."""
    return [f"note: {task}: the lm-eval run of {len(v['models'])} model(s) scored it with the LLM judge "
            f"{', '.join(sorted(v['judges']))}; chartprobe score rescored it with the typed scorer "
            "(pass --judge to score with the judge)" for task, v in sorted(seen.items())]
