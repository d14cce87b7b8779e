"""Generate the lmms-eval task tree (``eval_tasks/harness/lmms/tasks/``) from the lm-eval one (``eval_tasks/harness/tasks/``).

    python -m chartprobe.eval_tasks.harness.lmms.convert           # rewrite eval_tasks/harness/lmms/tasks/*.yaml
    python -m chartprobe.eval_tasks.harness.lmms.convert --check   # exit 1 if they differ from the lm-eval tree

lmms-eval 0.7 forked lm-eval's task system but not all of it, so each lm-eval YAML (leaf task or
group) becomes one flat lmms-eval YAML of the same name (``include:`` chains merged), with:

- the same ``task``, ``tag``, group, ``doc_to_text``, ``doc_to_target``, ``repeats``, ``filter_list``,
  ``metric_list`` and ``metadata``; every ``!function utils.f`` becomes the absolute
  ``!function chartprobe.eval_tasks.harness.tasks.utils.f`` (lmms-eval imports it by module name, so one
  module serves every task and the stateful aggregations keep one cache; nothing is copied);
- data: ``custom_dataset``/``dataset_kwargs`` (which lmms-eval lacks) become a one-line stub dataset
  plus ``process_docs: lmms_hooks.docs__<task>``, which returns the lm-eval task's documents;
- images: ``doc_to_image`` becomes ``doc_to_visual: lmms_hooks.visuals__<task>``;
- ``generation_kwargs``: lm-eval's ``max_gen_toks`` is lmms-eval's ``max_new_tokens``;
- ``description`` (a column name in lm-eval) becomes the Jinja ``{{column}}`` lmms-eval renders, and
  ``doc_to_messages: lmms_hooks.messages__<task>`` gives lmms-eval's chat models that system turn.

Any other lm-eval key raises :class:`ConversionError`: a new key must be mapped here, not dropped.
``tests/test_lmms_eval.py`` checks the tree on disk is what this module generates.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from ...suites._task_index import TASKS_DIR, _load

__all__ = ["LMMS_TASKS_DIR", "ConversionError", "convert", "render_tree", "write_tree"]

LMMS_TASKS_DIR = Path(__file__).resolve().parent / "tasks"
STUB = "_stub.jsonl"
STUB_TEXT = '{"stub": "replaced by process_docs (chartprobe.eval_tasks.harness.lmms.hooks)"}\n'
HOOKS = "chartprobe.eval_tasks.harness.lmms.hooks"
UTILS = "chartprobe.eval_tasks.harness.tasks"
COPIED = ("task", "tag", "group", "group_alias", "task_alias", "aggregate_metric_list", "test_split",
          "output_type", "doc_to_text", "doc_to_target", "repeats", "filter_list", "metadata")
HEADER = ("# Generated from ../../tasks/{name} by `python -m chartprobe.eval_tasks.harness.lmms.convert`: do not edit.\n"
          "# lmms-eval twin of the lm-eval task: same documents, prompt, scoring and aggregations.\n")


class ConversionError(ValueError):
    """An lm-eval task YAML uses a key the converter does not know how to carry over."""


class Function(str):
    """A ``!function module.name`` reference (dumped with its tag)."""


class _Dumper(yaml.SafeDumper):
    """SafeDumper that writes :class:`Function` with lmms-eval's ``!function`` tag, unquoted."""

    def choose_scalar_style(self):
        return "" if self.event.tag == "!function" else super().choose_scalar_style()


_Dumper.add_representer(Function, lambda dumper, value: dumper.represent_scalar("!function", str(value)))


def _functions(value: Any) -> Any:
    """``value`` with every ``"!function utils.f"`` string turned into the absolute :class:`Function`."""
    if isinstance(value, str) and value.startswith("!function "):
        return Function(f"{UTILS}.{value.removeprefix('!function ').strip()}")
    if isinstance(value, dict):
        return {k: _functions(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_functions(v) for v in value]
    return value


def _generation(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {("max_new_tokens" if k == "max_gen_toks" else k): v for k, v in kwargs.items()}


def convert(config: dict[str, Any]) -> dict[str, Any]:
    """The lmms-eval config of one merged lm-eval task or group config."""
    if "group" in config:
        return _functions(dict(config))
    task, split = config["task"], config.get("test_split", "test")
    # fewshot_config (an empty pool) only keeps lm-eval from building a few-shot pool of the whole test
    # split at task construction; the lmms-eval twins stay zero-shot without it, so it is not carried over.
    handled = {*COPIED, "custom_dataset", "dataset_kwargs", "doc_to_image", "generation_kwargs",
               "process_results", "metric_list", "description", "fewshot_config"}
    unknown = sorted(set(config) - handled)
    if unknown:
        raise ConversionError(f"{task}: no lmms-eval mapping for lm-eval key(s) {unknown} (see lmms_convert)")
    if "custom_dataset" not in config or "doc_to_image" not in config:
        raise ConversionError(f"{task}: expected a custom_dataset and doc_to_image, as every chartprobe task has")
    out: dict[str, Any] = {"task": task}
    out.update({k: config[k] for k in ("tag", "task_alias") if k in config})
    out.update({"dataset_path": "json", "dataset_kwargs": {"data_files": {split: STUB}}, "test_split": split,
                "process_docs": Function(f"{HOOKS}.docs__{task}"), "output_type": config["output_type"],
                "doc_to_visual": Function(f"{HOOKS}.visuals__{task}")})
    if config.get("description"):
        column = str(config["description"])
        out["description"] = "{{" + column + "}}" if column.isidentifier() else column
        out["doc_to_messages"] = Function(f"{HOOKS}.messages__{task}")
    out.update({k: config[k] for k in ("doc_to_text", "doc_to_target") if k in config})
    if "generation_kwargs" in config:
        out["generation_kwargs"] = _generation(config["generation_kwargs"])
    out.update({k: config[k] for k in ("repeats", "filter_list") if k in config})
    out.update({k: config[k] for k in ("process_results", "metric_list", "metadata") if k in config})
    return _functions(out)


def render_tree(tasks_dir: Path = TASKS_DIR) -> dict[str, str]:
    """File name -> text of every lmms-eval YAML (plus the stub), generated from ``tasks_dir``."""
    out = {STUB: STUB_TEXT}
    for path in sorted(tasks_dir.glob("*.yaml")):
        config = _load(path)
        if "task" not in config:
            continue
        body = yaml.dump(convert(config), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
        out[path.name] = HEADER.format(name=path.name) + body
    return out


def write_tree(out_dir: Path = LMMS_TASKS_DIR) -> list[str]:
    """Rewrite ``out_dir`` from the lm-eval tree (stale generated YAMLs removed); returns the file names."""
    tree = render_tree()
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in {p.name for p in out_dir.glob("*.yaml")} - set(tree):
        (out_dir / stale).unlink()
    for name, text in tree.items():
        (out_dir / name).write_text(text)
    return sorted(tree)


def differences(out_dir: Path = LMMS_TASKS_DIR) -> list[str]:
    """Files of ``out_dir`` that are missing, stale or not what :func:`render_tree` generates."""
    tree = render_tree()
    on_disk = {p.name for p in out_dir.glob("*.yaml")} | ({STUB} if (out_dir / STUB).exists() else set())
    bad = sorted(on_disk - set(tree))
    bad += [name for name, text in tree.items() if not (out_dir / name).exists() or (out_dir / name).read_text() != text]
    return sorted(bad)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m chartprobe.eval_tasks.harness.lmms.convert", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 if harness/lmms/tasks/ differs from the generated tree")
    args = p.parse_args(argv)
    if args.check:
        bad = differences()
        print("\n".join(f"out of date: {name}" for name in bad) or "harness/lmms/tasks/ is up to date")
        return 1 if bad else 0
    print(f"wrote {len(write_tree())} files to {LMMS_TASKS_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
