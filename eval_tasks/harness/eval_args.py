"""Checks on ``chartprobe eval`` arguments, made before lm-eval is started.

lm-eval takes ~15 s to start and then fails on a misspelt task name, a non-numeric
``--limit`` or a missing model folder with a long log, or not at all: an unknown
``chartprobe_*`` name matches nothing and runs nothing. The arguments chartprobe can judge
without lm-eval are judged here, in milliseconds; everything else still goes to lm-eval
untouched. Task names that do not start with ``chartprobe`` are lm-eval's business.
"""

from __future__ import annotations

import fnmatch
import functools
import os
from collections.abc import Sequence
from pathlib import Path

from chartprobe.errors import UsageError

from ..rescoring.data import ENV_VAR, release_folder_name
from ..suites._task_index import TASKS_DIR, _load, task_index

__all__ = ["check_lm_eval_args", "check_task_names", "task_releases"]

# lm-eval 0.4.13 `run` flags that take values (short and long form). A flag that ends the
# command line or is followed by another flag has lost its value; the "+" ones take every
# value up to the next flag (``--tasks a b``, ``--model_args pretrained=x dtype=y``).
_ALIASES = {"-C": "--config", "-t": "--tasks", "-M": "--model", "-a": "--model_args", "-L": "--limit",
            "-c": "--use_cache", "-f": "--num_fewshot", "-b": "--batch_size", "-o": "--output_path",
            "-E": "--samples", "-v": "--verbosity"}
_ONE = {"--config", "--model", "--limit", "--use_cache", "--num_fewshot", "--batch_size", "--max_batch_size",
        "--device", "--output_path", "--samples", "--system_instruction", "--verbosity", "--seed"}
_MANY = {"--tasks", "--model_args", "--gen_kwargs", "--metadata", "--wandb_args", "--wandb_config_args",
         "--trackio_args", "--hf_hub_log_args"}
_PATH_LIKE = ("/", "./", "../", "~")


@functools.lru_cache(maxsize=1)
def task_releases() -> dict[str, frozenset[str]]:
    """Every chartprobe name lm-eval knows (leaf task, tag or group) -> the releases it reads."""
    leaves = {name: frozenset([t.release]) for name, t in task_index().items()}
    names = dict(leaves)
    groups: dict[str, list[str]] = {}
    for path in sorted(Path(TASKS_DIR).glob("*.yaml")):
        data = _load(path)
        tags = data.get("tag") or []
        for tag in [tags] if isinstance(tags, str) else tags:
            if data.get("task") in leaves:
                names[tag] = names.get(tag, frozenset()) | leaves[data["task"]]
        if "group" in data:
            groups[data["group"]] = list(data.get("task") or [])
    for _ in groups:  # members are leaf tasks, tags or other groups: resolve until nothing changes
        resolved = {g: frozenset().union(*(names.get(m, frozenset()) for m in ms)) for g, ms in groups.items()}
        if all(names.get(g) == r for g, r in resolved.items()):
            break
        names.update(resolved)
    return names


def check_task_names(tasks: str, flag: str = "--tasks") -> set[str]:
    """Refuse ``chartprobe*`` names (or globs) that match no task; return the releases every chartprobe name
    (a leaf task, tag or group, such as ``chartographer``) reads."""
    wanted = [t.strip() for t in tasks.split(",") if t.strip()]
    if not wanted:
        raise UsageError(f"{flag}: no task names given")
    known = task_releases()
    releases: set[str] = set()
    for name in wanted:
        matched = fnmatch.filter(known, name)
        if not matched and not name.startswith("chartprobe"):
            continue  # another lm-eval task, or a YAML path: lm-eval decides
        if not matched:
            close = ", ".join(sorted(n for n in known if n.startswith(name.rstrip("*?")[:14]))[:6])
            raise UsageError(f"{flag}: unknown chartprobe task {name!r}"
                             + (f" (did you mean: {close})" if close else " (see `lm_eval ls tasks`)"))
        for n in matched:
            releases |= known[n]
    return releases


def _is_flag(arg: str) -> bool:
    return arg.startswith("-") and not _is_number(arg)


def _values(argv: Sequence[str]) -> dict[str, str]:
    """``{long flag: value}`` of the valued flags in ``argv``; "+" flags' values joined by commas."""
    out: dict[str, str] = {}
    for i, arg in enumerate(argv):
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        flag = _ALIASES.get(flag, flag)
        if flag not in _ONE and flag not in _MANY:
            continue
        if not eq:
            following = list(argv[i + 1:])
            taken = following[:next((j for j, a in enumerate(following) if _is_flag(a)), len(following))]
            if not taken:
                raise UsageError(f"eval: {flag} needs a value")
            value = ",".join(taken) if flag in _MANY else taken[0]
        out[flag] = value
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_numbers(values: dict[str, str]) -> None:
    if "--limit" in values and not (_is_number(values["--limit"]) and float(values["--limit"]) > 0):
        raise UsageError(f"eval: --limit must be a positive number (rows, or a fraction < 1), got {values['--limit']!r}")
    shots = values.get("--num_fewshot")
    if shots is not None and not (shots.isdigit()):
        raise UsageError(f"eval: --num_fewshot must be a whole number >= 0, got {shots!r}")
    if shots is not None and int(shots) > 0:  # the task YAMLs declare an empty few-shot pool (memory, no leak)
        raise UsageError(f"eval: chartprobe's tasks are zero-shot, as the papers ran them: --num_fewshot must be 0, "
                         f"got {shots}")
    batch = values.get("--batch_size")
    if batch is not None:
        size = batch.removeprefix("auto:") if batch.startswith("auto:") else batch
        if batch != "auto" and not (size.isdigit() and int(size) > 0):
            raise UsageError(f"eval: --batch_size must be a positive number, 'auto' or 'auto:N', got {batch!r}")


def _check_paths(values: dict[str, str], releases: set[str]) -> None:
    for item in (values.get("--model_args") or "").split(","):
        key, _, value = item.partition("=")
        if key.strip() in ("pretrained", "peft") and value.startswith(_PATH_LIKE) \
                and not Path(value).expanduser().exists():
            raise UsageError(f"eval: --model_args {key.strip()}={value}: no such model folder")
    out = values.get("--output_path")
    if out and Path(out).is_file() and not out.endswith(".json"):
        raise UsageError(f"eval: --output_path {out}: exists and is not a folder")
    root = os.environ.get(ENV_VAR)
    for release in sorted(releases) if root else ():
        folder = Path(root).expanduser() / release_folder_name(release)
        if not (folder / "README.md").is_file():
            raise UsageError(f"eval: {ENV_VAR}={root} has no release {release_folder_name(release)}/ "
                             f"(build it with `chartprobe build {release} --out {root}`)")


def check_lm_eval_args(argv: Sequence[str]) -> set[str]:
    """Refuse ``chartprobe eval`` arguments that cannot work, before lm-eval starts; return the releases
    the named chartprobe tasks read (empty for help, other subcommands and non-chartprobe tasks)."""
    if not argv:
        raise UsageError("eval: give lm-eval arguments, e.g. `chartprobe eval --model hf-multimodal "
                         "--model_args pretrained=ORG/VLM --tasks chartprobe_smoke`")
    if any(a == "--include_path" or a.startswith("--include_path=") for a in argv):
        raise UsageError("eval: chartprobe eval adds --include_path itself and lm-eval accepts only one; "
                         "run lm_eval directly to combine your own tasks with chartprobe's")
    if argv[0] in ("-h", "--help") or not (argv[0] == "run" or argv[0].startswith("-")):
        return set()  # help, `ls`, `validate` and unknown subcommands: lm-eval's own
    values = _values(argv)
    if "--tasks" not in values and "--config" not in values:  # a --config YAML may name the tasks
        raise UsageError("eval: --tasks is required (e.g. --tasks chartprobe_smoke)")
    releases = check_task_names(values["--tasks"], "eval: --tasks") if "--tasks" in values else set()
    _check_numbers(values)
    _check_model(values)
    _check_paths(values, releases)
    _check_budget(argv)
    return releases


def _check_model(values: dict[str, str]) -> None:
    """An unknown ``--model`` is one line naming it, not lm-eval's 50-line traceback."""
    name = values.get("--model")
    if not name:
        return
    import lm_eval.models  # noqa: F401  (registers lm-eval's models; names only, no model loads)
    from lm_eval.api.registry import model_registry

    from . import interleaved_chat  # noqa: F401  (registers chartprobe-chat-completions)

    known = sorted(model_registry.keys())
    if name not in known:
        shown = ", ".join(n for n in known if n.startswith(("hf", "local-", "chartprobe", "vllm", "openai")))
        raise UsageError(f"eval: --model {name}: no such lm-eval model (e.g. {shown}; "
                         f"{len(known)} in all)")


def _check_budget(argv: Sequence[str]) -> None:
    """chartprobe's ``--max-gen-toks N`` (it becomes ``--gen_kwargs max_gen_toks=N``): a positive integer, once."""
    from .runner import max_gen_toks_argv

    try:
        max_gen_toks_argv(list(argv))
    except ValueError as err:
        raise UsageError(f"eval: {err}") from None
