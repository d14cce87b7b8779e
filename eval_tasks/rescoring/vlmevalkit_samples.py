"""VLMEvalKit prediction files (``<model>_<task>.xlsx`` or ``.tsv``) as chartprobe :class:`Sample` s.

VLMEvalKit writes the exported TSV back, ``image`` dropped and a ``prediction`` column added
(:mod:`.layout`). Each row becomes one sample: ``index`` is its ``doc_id`` (the document's
position in the task, as the export numbered it), the chartprobe columns rebuild the document
as lm-eval logs it (``doc_<name>`` back to ``<name>``), ``prediction`` is the response. Every
cell is read as text, exactly as written: pandas would otherwise turn an answer such as
``"1.50"`` or an id of digits into a number. As for lm-eval samples, the gold is never taken
from the file: ``chartprobe score`` looks each document up in the release.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..scoring.sample_types import PredictionsError, Sample, SampleFormat
from .vlmevalkit_layout import PREDICTION_NAME, TASK_COLUMN, field_of

__all__ = ["VLMEVALKIT", "read_table", "vlmevalkit_samples"]


def read_table(path: Path) -> list[dict[str, str]]:
    """The rows of a VLMEvalKit table (``.xlsx`` via openpyxl, ``.tsv``), every cell as text."""
    import pandas as pd

    try:
        if path.suffix == ".xlsx":
            frame = pd.read_excel(path, dtype=str, na_filter=False)
        else:
            frame = pd.read_csv(path, sep="\t", dtype=str, na_filter=False)
    except OSError:
        raise  # missing or unreadable: the CLI's own message
    except ImportError:
        raise PredictionsError(f"{path}: reading .xlsx needs openpyxl (pip install 'chartprobe[eval]')") from None
    except Exception as exc:  # noqa: BLE001 - a foreign file: any parser failure is bad input, named
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise PredictionsError(f"{path}: not a readable VLMEvalKit predictions table ({reason})") from None
    return frame.to_dict("records")


def _doc(row: dict[str, str]) -> dict[str, Any]:
    """The document a row was exported from: its chartprobe fields under their own names."""
    doc = {field: value for column, value in row.items() if (field := field_of(column)) is not None}
    doc["answer"] = row.get("answer", "")
    return doc


def vlmevalkit_samples(path: Path, task: str, model: str) -> Iterator[Sample]:
    """The samples of one VLMEvalKit prediction file of chartprobe task ``task``."""
    rows = read_table(path)
    missing = [c for c in ("index", "prediction", TASK_COLUMN) if rows and c not in rows[0]]
    if missing:
        raise PredictionsError(f"{path}: no {', '.join(missing)} column: not VLMEvalKit's predictions on a "
                               "dataset written by `chartprobe export vlmevalkit`")
    for n, row in enumerate(rows):
        where = f"{path} row {n + 2}"  # as a spreadsheet numbers it: the header is row 1
        if row[TASK_COLUMN] != task:
            raise PredictionsError(f"{where}: a document of task {row[TASK_COLUMN]!r}, but the file name "
                                   f"says {task!r} (VLMEvalKit names the file <model>_<dataset>)")
        index = row["index"].strip()
        if not index.isdigit():
            raise PredictionsError(f"{where}: index must be a non-negative integer, got {row['index']!r}")
        yield Sample(model, task, int(index), _doc(row), row["prediction"])


def _picked(name: str) -> bool:
    """A folder scan takes the predictions of chartprobe tasks only: a VLMEvalKit folder also holds its
    other files (pkl, csv, json) and other datasets' tables, whose names a model named ``x_chartprobe_y``
    would make look like ours."""
    from ..suites._task_index import task_index

    m = PREDICTION_NAME.match(name)
    return m is not None and m["task"] in task_index()


VLMEVALKIT = SampleFormat(
    name="VLMEvalKit",
    pattern=PREDICTION_NAME,
    picks=_picked,
    read=vlmevalkit_samples,
    expected="<model>_<task>.xlsx|.tsv")
