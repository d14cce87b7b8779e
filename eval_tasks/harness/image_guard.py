"""Two-image tasks on a model that sends fewer images: refused before lm-eval makes any request.

The judge CPA and CRJ documents carry two images (``doc_to_image: [image_a, image_b]``). lm-eval's
API models (``local-chat-completions`` and the ones built on it) default to ``max_images=1`` and
drop the second image of every request with only an INFO log, so the model judges a pair it was
never shown. No task hook can catch it: lm-eval hands ``process_docs`` and ``doc_to_image`` the
documents only, never the model, so the check is made here, from the command line, in every
chartprobe entry point (``chartprobe eval``; direct ``lm_eval`` users pass ``max_images=2`` in
``--model_args``, as docs/harnesses.md says).
"""

from __future__ import annotations

import fnmatch
import functools
from collections.abc import Sequence
from pathlib import Path

from chartprobe.errors import UsageError

from ..suites._task_index import TASKS_DIR, _load

__all__ = ["DEFAULT_MAX_IMAGES", "check_image_capacity", "model_max_images", "task_images"]

DEFAULT_MAX_IMAGES = {"local-chat-completions": 1, "openai-chat-completions": 1,
                      "chartprobe-chat-completions": 1}
"""lm-eval 0.4.13's ``max_images`` default of the models that accept images and cap them below 2
(``TemplateAPI.__init__``); ``hf-multimodal`` and ``vllm-vlm`` default to 999."""


@functools.lru_cache(maxsize=1)
def task_images() -> dict[str, int]:
    """Every task, tag and group name in the chartprobe YAMLs -> the most images one of its documents carries."""
    names: dict[str, int] = {}
    groups: dict[str, list[str]] = {}
    for path in sorted(Path(TASKS_DIR).glob("*.yaml")):
        data = _load(path)
        if "group" in data:
            groups[data["group"]] = [m if isinstance(m, str) else m.get("task", "") for m in data.get("task") or []]
            continue
        if not isinstance(data.get("task"), str):
            continue
        images = data.get("doc_to_image")
        count = len(images) if isinstance(images, list) else (1 if images else 0)
        names[data["task"]] = count
        tags = data.get("tag") or []
        for tag in [tags] if isinstance(tags, str) else tags:
            names[tag] = max(names.get(tag, 0), count)
    for _ in range(len(groups) + 1):  # groups of groups: resolve until nothing changes
        changed = False
        for group, members in groups.items():
            count = max((names.get(m, 0) for m in members), default=0)
            if names.get(group) != count:
                names[group], changed = count, True
        if not changed:
            break
    return names


def model_max_images(model: str | None, model_args: str) -> int | None:
    """The images per request the run's model sends: ``max_images`` of ``--model_args``, else lm-eval's default
    for that model (None: no known cap)."""
    for item in model_args.split(","):
        key, _, value = item.partition("=")
        if key.strip() == "max_images":
            if not value.strip().isdigit():
                raise UsageError(f"eval: --model_args max_images={value.strip()} is not a whole number")
            return int(value)
    return DEFAULT_MAX_IMAGES.get(model or "")


_FLAGS = {"--model": "--model", "-M": "--model", "--model_args": "--model_args", "-a": "--model_args",
          "--tasks": "--tasks", "-t": "--tasks"}


def _values(argv: Sequence[str]) -> dict[str, str]:
    """``--model``, ``--model_args`` and ``--tasks`` of an lm-eval command line (their values joined by commas).

    Its own reader, not :mod:`.eval_args`'s: that module calls the runner, which calls this guard.
    """
    out: dict[str, str] = {}
    for i, arg in enumerate(argv):
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if flag not in _FLAGS:
            continue
        if not eq:
            taken = []
            for following in argv[i + 1:]:
                if following.startswith("-"):
                    break
                taken.append(following)
            value = ",".join(taken)
        out[_FLAGS[flag]] = value
    return out


def check_image_capacity(argv: Sequence[str]) -> None:
    """Refuse a run whose tasks carry more images per document than its model sends, in one line."""
    if not argv or argv[0] in ("-h", "--help") or not (argv[0] == "run" or argv[0].startswith("-")):
        return
    values = _values(argv)
    cap = model_max_images(values.get("--model"), values.get("--model_args") or "")
    if cap is None or "--tasks" not in values:
        return
    known = task_images()
    for wanted in (t.strip() for t in values["--tasks"].split(",") if t.strip()):
        for name in fnmatch.filter(known, wanted):
            if known[name] > cap:
                raise UsageError(f"eval: task {name} shows {known[name]} images per document but "
                                 f"--model {values['--model']} sends {cap} (lm-eval drops the rest): "
                                 f"add max_images={known[name]} to --model_args")
