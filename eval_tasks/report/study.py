"""The fine-tuning study's tables as Markdown, and reading ``study.json`` back (``chartprobe report --study``).

``chartprobe train --seeds ...`` (``chartprobe.training.study``) writes ``study.json``
(format ``chartprobe-study/1``): the benchmark, seeds, budget, tasks, the splits the selection
profile came from, and ``tables`` (``capability``: row -> setting -> mean/sd/n_seeds;
``crossed``: setting -> cell -> mean/sd/n_seeds). This module only renders it, so the report
(evaluation face) shows a study without importing the training face.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..rescoring.predictions import PredictionsError

__all__ = ["LABELS", "SETTINGS", "STUDY_FORMAT", "format_study", "read_study"]

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


def _fmt(stat: Mapping[str, Any] | None, with_sd: bool = True) -> str:
    if not stat:
        return "—"
    mean = f"{100 * stat['mean']:.1f}"
    return f"{mean} ± {100 * stat['sd']:.1f}" if with_sd and stat["n_seeds"] > 1 else mean


def format_study(study: Mapping[str, Any], level: int = 1) -> str:
    """Markdown: the capability table, then the crossed table of each setting (percent); headings
    start at ``level`` (1 in study.md, 2 inside a report)."""
    tables = study["tables"]
    seeds = ", ".join(map(str, study["seeds"]))
    limit = f" (--limit {study['limit']} per task)" if study.get("limit") else ""
    profiled = ", ".join(f"{split} {n}" for split, n in sorted(study["profile_splits"].items()))
    h = "#" * level
    lines = [f"{h} Fine-tuning study: {study['benchmark']}, budget {study['budget']} rows, seeds {seeds}", "",
             (f"Selection profiled on {profiled} rows; scored on `{study['tasks']}`{limit}."
             " Mean ± sd over seeds (percent); the base model is evaluated once."), "",
             "| capability | " + " | ".join(LABELS[s] for s in SETTINGS) + " |",
             "|---|" + "---:|" * len(SETTINGS)]
    for name, by in tables["capability"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(by.get(s)) for s in SETTINGS) + " |")
    title = tables.get("crossed_title") or tables["crossed_dimension"]
    for setting in SETTINGS:
        cells = tables["crossed"].get(setting) or {}
        if not cells:
            continue
        rows = sorted({v.split("/", 1)[0] for v in cells})
        cols = sorted({v.split("/", 1)[1] for v in cells})
        lines += ["", f"{h}# {LABELS[setting]}: {title}", "",
                  "| | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
        lines += [f"| {r} | " + " | ".join(_fmt(cells.get(f"{r}/{c}")) for c in cols) + " |" for r in rows]
    return "\n".join(lines) + "\n"
