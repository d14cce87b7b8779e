"""The fine-tuning study's tables as Markdown, and reading ``study.json`` back (``chartprobe report --study``).

``chartprobe train --seeds ...`` (``chartprobe.training.study``) writes ``study.json``
(format ``chartprobe-study/1``): the benchmark, seeds, budget, tasks, the splits the selection
profile came from, the ``settings`` compared (``[key, label]`` pairs, base first; files written
before it existed compared :data:`SETTINGS`), and ``tables`` (``capability``: row -> setting ->
mean/sd/n_seeds; ``crossed``: setting -> cell -> mean/sd/n_seeds). This module only renders it,
so the report (evaluation face) shows a study without importing the training face. Each
fine-tuned setting's crossed table shows its change over the base model beside each cell, as
ChartProbe's Table 1 does with its subscripts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..rescoring.predictions import PredictionsError

__all__ = ["LABELS", "SETTINGS", "STUDY_FORMAT", "format_study", "read_study", "settings_of"]

STUDY_FORMAT = "chartprobe-study/1"
SETTINGS = ("base", "random", "bottleneck")
LABELS = {"base": "Base", "random": "Random FT", "bottleneck": "Bottleneck FT"}
_KEYS = ("benchmark", "seeds", "budget", "tasks", "profile_splits", "tables")


def read_study(path: str | Path) -> dict[str, Any]:
    """A ``study.json``, its shape checked (a PredictionsError names the file and what is wrong)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PredictionsError(f"--study {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PredictionsError(f"--study {path}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != STUDY_FORMAT:
        raise PredictionsError(f"--study {path}: not a study file (format {STUDY_FORMAT}, from chartprobe train --seeds)")
    missing = [k for k in _KEYS if k not in doc]
    tables = doc.get("tables")
    if missing or not isinstance(tables, dict) or not {"capability", "crossed"} <= set(tables):
        raise PredictionsError(f"--study {path}: missing {', '.join(missing) or 'tables.capability/crossed'}")
    return doc


def settings_of(study: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (key, label) settings a study compares, base first."""
    pairs = study.get("settings")
    return [(str(k), str(v)) for k, v in pairs] if pairs else [(s, LABELS[s]) for s in SETTINGS]


def _fmt(stat: Mapping[str, Any] | None, with_sd: bool = True, base: Mapping[str, Any] | None = None) -> str:
    if not stat:
        return "—"
    mean = f"{100 * stat['mean']:.1f}"
    text = f"{mean} ± {100 * stat['sd']:.1f}" if with_sd and stat["n_seeds"] > 1 else mean
    return f"{text} ({100 * (stat['mean'] - base['mean']):+.1f})" if base else text


def format_study(study: Mapping[str, Any], level: int = 1) -> str:
    """Markdown: the capability table, then the crossed table of each setting (percent); headings
    start at ``level`` (1 in study.md, 2 inside a report)."""
    tables = study["tables"]
    seeds = ", ".join(map(str, study["seeds"]))
    limit = f" (--limit {study['limit']} per task)" if study.get("limit") else ""
    profiled = ", ".join(f"{split} {n}" for split, n in sorted(study["profile_splits"].items()))
    h = "#" * level
    settings = settings_of(study)
    budget = f"budget {study['budget']} rows" if study.get("budget") else "all rows of each setting's skills"
    scored = f"scored on `{study['tasks']}`{limit}"
    where = f"Selection profiled on {profiled} rows; {scored}" if profiled else scored[0].upper() + scored[1:]
    lines = [f"{h} Fine-tuning study: {study['benchmark']}, {budget}, seeds {seeds}", "",
             f"{where}. Mean ± sd over seeds (percent); the base model is evaluated once.", "",
             "| capability | " + " | ".join(label for _, label in settings) + " |",
             "|---|" + "---:|" * len(settings)]
    for name, by in tables["capability"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(by.get(key)) for key, _ in settings) + " |")
    title = tables.get("crossed_title") or tables["crossed_dimension"]
    base = tables["crossed"].get(settings[0][0]) or {}
    for i, (key, label) in enumerate(settings):
        cells = tables["crossed"].get(key) or {}
        if not cells:
            continue
        rows = sorted({v.split("/", 1)[0] for v in cells})
        cols = sorted({v.split("/", 1)[1] for v in cells})
        change = f" (change over {settings[0][1]} in brackets)" if i and base else ""
        lines += ["", f"{h}# {label}: {title}{change}", "",
                  "| | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
        lines += [f"| {r} | " + " | ".join(_fmt(cells.get(f"{r}/{c}"), base=base.get(f"{r}/{c}") if i else None)
                                          for c in cols) + " |" for r in rows]
    return "\n".join(lines) + "\n"
