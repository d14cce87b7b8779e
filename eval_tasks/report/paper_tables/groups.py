"""Model groups for the paper tables: which models are "proprietary" and which "open-source".

The papers split their tables by model group and average within each. Which of your models
belongs where is yours to say, in a small file (``--model-groups FILE``, YAML or JSON) mapping a
group name to its models, in the order the tables list them::

    Proprietary models: [gpt-5.4, gpt-4.1, claude-sonnet-4.6]
    Open-source models: [Qwen/Qwen2.5-VL-7B-Instruct, OpenGVLab/InternVL3-8B]

Model names are those of the results files. Models the file does not name go to a last group,
"Other models"; without a file every model is in one group, "Models". A group's average row is
labelled as the papers label it: "Proprietary models" -> "Proprietary average".
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

__all__ = ["PaperTablesError", "average_label", "model_groups", "read_model_groups"]


class PaperTablesError(ValueError):
    """The model-groups file cannot be used (one line naming the file and what is wrong)."""


def read_model_groups(path: str | Path) -> dict[str, list[str]]:
    """The file's groups, in file order (a model may be in one group only)."""
    import yaml

    path = Path(path)
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise PaperTablesError(f"--model-groups {path}: cannot read it ({type(exc).__name__})") from None
    if not isinstance(doc, dict) or not doc:
        raise PaperTablesError(f"--model-groups {path}: expected a mapping of group name to a list of models")
    seen: dict[str, str] = {}
    out: dict[str, list[str]] = {}
    for group, models in doc.items():
        if not isinstance(models, list) or not all(isinstance(m, str) and m for m in models):
            raise PaperTablesError(f"--model-groups {path}: group {group!r} must list model names")
        for m in models:
            if m in seen:
                raise PaperTablesError(f"--model-groups {path}: {m!r} is in both {seen[m]!r} and {group!r}")
            seen[m] = str(group)
        out[str(group)] = list(models)
    return out


def model_groups(models: Iterable[str], declared: dict[str, list[str]] | None = None) -> list[tuple[str, list[str]]]:
    """(group, its models present in the results) in table order; empty groups left out."""
    models = list(models)
    if not declared:
        return [("Models", sorted(models))] if models else []
    present = set(models)
    out = [(g, [m for m in ms if m in present]) for g, ms in declared.items()]
    named = {m for _, ms in out for m in ms}
    out.append(("Other models", sorted(present - named)))
    return [(g, ms) for g, ms in out if ms]


def average_label(group: str) -> str:
    """``Proprietary models`` -> ``Proprietary average``; ``Models`` -> ``Average``."""
    if group == "Models":
        return "Average"
    return (group.removesuffix(" models")) + " average"
