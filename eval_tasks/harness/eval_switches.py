"""chartprobe's own switches of ``chartprobe eval``, taken off the command line before lm-eval sees it.

``chartprobe eval`` passes lm-eval's arguments through untouched, so its own options were
invisible: ``--help`` printed only lm-eval's help, and a run without ``CHARTPROBE_DATA`` on a
machine with no Hub retried for two minutes before failing with no hint. This module holds the
text printed before lm-eval's help (:data:`EVAL_HELP`), ``--releases DIR`` (the same switch as
``chartprobe score --releases``; it sets ``CHARTPROBE_DATA`` for the run) and the quick Hub check
made when neither is given (:func:`check_hub_reachable`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from urllib.parse import urlparse

from chartprobe.errors import UsageError

from ..rescoring.data import ENV_VAR

__all__ = ["EVAL_HELP", "RELEASES_FLAG", "check_hub_reachable", "hub_offline_reason", "take_releases"]

RELEASES_FLAG = "--releases"
_HUB_TIMEOUT_S = 3.0

EVAL_HELP = f"""usage: chartprobe eval [chartprobe options] <lm_eval arguments...>

Runs lm-evaluation-harness with chartprobe's task YAMLs on its --include_path.

chartprobe options (taken off before lm-eval starts):
  --max-gen-toks N   generation budget in new tokens (default 2048 per task YAML);
                     becomes --gen_kwargs max_gen_toks=N
  --releases DIR     folder of built releases (chartprobe-<name>/, `chartprobe build ... --out DIR`);
                     sets {ENV_VAR}=DIR for this run
  --help             this text, then lm-eval's own help

Data: the tasks read {ENV_VAR} (or --releases DIR); without either they download the pinned
Hub releases, and a run with no reachable Hub (HF_HUB_OFFLINE=1, no network) is refused at once.
Two-image tasks (judge CPA/CRJ) need a model that takes two images per request: with
local-chat-completions add max_images=2 to --model_args (lm-eval's default is 1).
List the tasks with `chartprobe list tasks [--benchmark B]`.

lm-eval's own arguments follow.
"""


def take_releases(argv: Sequence[str]) -> tuple[list[str], str | None]:
    """``argv`` without ``--releases DIR`` (or ``--releases=DIR``), and DIR (None when absent)."""
    out: list[str] = []
    found: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == RELEASES_FLAG or arg.startswith(RELEASES_FLAG + "="):
            if "=" in arg:
                value = arg.partition("=")[2]
            else:
                value = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("-") else ""
                i += 1
            if not value:
                raise UsageError(f"eval: {RELEASES_FLAG} needs a folder")
            found.append(value)
        else:
            out.append(arg)
        i += 1
    if len(found) > 1:
        raise UsageError(f"eval: {RELEASES_FLAG} given {len(found)} times; give it once")
    if found and not os.path.isdir(os.path.expanduser(found[0])):
        raise UsageError(f"eval: {RELEASES_FLAG} {found[0]}: no such folder (a folder holding chartprobe-<name>/ "
                         "releases)")
    return out, (found[0] if found else None)


def hub_offline_reason(timeout_s: float = _HUB_TIMEOUT_S) -> str | None:
    """Why the Hub cannot be reached (``HF_HUB_OFFLINE``, no connection within ``timeout_s``), or None."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return "HF_HUB_OFFLINE is set"
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    url = urlparse(endpoint)
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    result: list[BaseException | None] = []

    def connect() -> None:  # a thread, because name resolution ignores socket timeouts
        import socket

        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
            result.append(None)
        except OSError as exc:
            result.append(exc)

    worker = threading.Thread(target=connect, daemon=True)
    worker.start()
    worker.join(timeout_s + 0.5)
    if not result:
        return f"no answer from {host}:{port} within {timeout_s:g} s"
    return None if result[0] is None else f"cannot reach {host}:{port} ({type(result[0]).__name__})"


def check_hub_reachable(releases: set[str]) -> None:
    """Refuse, in one line, a run of chartprobe tasks that would read the Hub when it cannot be reached."""
    if not releases or os.environ.get(ENV_VAR):
        return
    reason = hub_offline_reason()
    if reason:
        raise UsageError(f"eval: the tasks read the Hub and {reason}: point {ENV_VAR}=DIR or {RELEASES_FLAG} DIR "
                         "at built releases (`chartprobe build all --preset small --out DIR`)")
