"""Accepted families -> an export folder in the paper's released layout, plus the manifest.

The layout is what ``export_chart_question_families.py`` writes (github compling-wat/Chartographer
@ 1f02025c) and :mod:`..released` reads: ``<split>.jsonl`` (one row per member: ``chart_id``,
``question_id``, ``variant`` = original / reconstruction / seed_N, ``image``, ``question``,
``answer``, ``chart_data``, ``source_dataset_split``, ``source_row_index``; plus ``license``, the
source row's), ``images/<variant>/<chart_id>.png`` and ``chart_data/<variant>/<chart_id>.json``.
The original's image is the source chart byte for byte. The folder is written next to its final
place and renamed into it, so a failed run leaves the previous export whole.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.targets import refuse_foreign
from .counterfactual import Family
from .manifest import FORMAT, MANIFEST_NAME
from .sources import SourceRow

__all__ = ["write_export"]


def _member(row: SourceRow, split: str, variant: str, question: str, answer: str, data: Any) -> dict[str, Any]:
    return {"chart_id": row.chart_id, "question_id": f"q{row.index:06d}", "variant": variant,
            "image": f"images/{variant}/{row.chart_id}.png", "question": question, "answer": answer,
            "chart_data": data, "source_dataset_split": split, "source_row_index": row.index, "license": row.license}


def _write(folder: Path, rel: str, data: bytes | str) -> None:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def write_export(target: Path, split: str, accepted: Sequence[tuple[SourceRow, Family]],
                 manifest: dict[str, Any]) -> Path:
    """Write the export of ``accepted`` (source order) to ``target``, replacing it whole."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-"))
    try:
        lines = []
        for row, fam in accepted:
            members = [("original", row.question, row.answer, fam.base.data, row.image),
                       ("reconstruction", fam.base.question, fam.base.answer, fam.base.data, fam.base.image)]
            members += [(f"seed_{v.seed}", v.question, v.answer, v.data, v.image) for v in fam.variants]
            for variant, question, answer, data, image in members:
                lines.append(json.dumps(_member(row, split, variant, question, answer, data), ensure_ascii=False,
                                        sort_keys=True))
                _write(tmp, f"images/{variant}/{row.chart_id}.png", image)
                _write(tmp, f"chart_data/{variant}/{row.chart_id}.json",
                       json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        _write(tmp, f"{split}.jsonl", "".join(line + "\n" for line in lines))
        _write(tmp, MANIFEST_NAME, json.dumps({"format": FORMAT, **manifest}, ensure_ascii=False, indent=1,
                                              sort_keys=True) + "\n")
        refuse_foreign(target, folder=True)  # renamed aside below: only a folder we can own
        old = target.with_name(f".{target.name}-old")
        if old.exists():
            shutil.rmtree(old)
        if target.exists():
            target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target
