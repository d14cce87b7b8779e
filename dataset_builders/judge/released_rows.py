"""Released ChartJudgeBench rows -> ``chartprobe-judge`` rows: one mapper per released task.

The field names, their fallbacks and their normalisation are the released evaluation code's
(github CSU-JPG/ChartJudgeBench at commit 63ea2449c6d037f54526b55a855d6f2a19dbf247, Apache-2.0;
unchanged at 84510713d35089394e843052bad875221e5fd79b): ``chartjudge_bench/data.py``
``normalize_truth``/``normalize_sample`` read, per row, the first of several names a row has;
``constants.py`` ``TASK_SPECS`` names the three Hub configs, their sizes and id fields and
``CPA_DIMENSIONS`` the 7 criteria (``subcategory``) under their 3 dimensions (``category``);
``protocols.py`` fixes which image is which. Our mapping:

- ``CPA``: id ``pair_id`` | ``sample_id`` | ``case_id`` -> ``pair_id`` and ``id`` (``cjb-cpa-<id>``);
  ``subcategory`` | ``sub_category`` -> ``criterion`` (``Axis_Scaling`` -> ``axis_scaling``, any case);
  ``category`` | ``main_category`` -> checked to hold the criterion, ``dimension`` is ours for it;
  ``better_image`` | ``better`` -> ``image_better``; ``worse_image`` | ``worse`` -> ``image_worse``.
- ``ChartReproduction``: id ``example_id`` | ``sample_id`` | ``case_id`` -> ``item_id`` and ``id``
  (``cjb-crj_reproduction-<id>``); ``target`` | ``target_image`` (the ground truth, shown first)
  -> ``image_reference``; ``input`` | ``generated_image`` -> ``image_candidate``; ``decision`` |
  ``ground_truth`` (``.title()``: Accept or Reject) -> ``label`` and ``answer``.
- ``ChartEditing``: id as above (``cjb-crj_editing-<id>``); ``reference`` | ``reference_image`` (the
  original) -> ``image_reference``; ``edited`` | ``edited_image`` (the result) -> ``image_candidate``;
  ``instruction`` | ``query`` -> ``instruction`` and ``question``; the decision as above.
- every config: ``chart_type`` (optional, else ``unknown``) -> ``chart_kind``.

Positions: a released CPA row stores the pair once, the better chart in its own column, and
``CPAProtocol`` asks it Forward (better = Image A) and Reverse (worse = Image A); our
``image_better``/``image_worse`` are asked the same two ways (``judge_utils.load_cpa``), so
"which is better" is the column, never a guess. CRJ labels are the released annotators'.

What the released data does not have gets a documented empty value, never invented content
(:data:`NOT_IN_RELEASE`): no chart spec (``spec_*`` ``""``), no verified evidence
(``evidence`` ``"{}"``), no flaw strategy or edit type (``""``), and a Reject item names no failure
type (``failure`` ``unspecified``; Accept items ``none``, so ``failure == "none"`` iff Accept, as
for synthetic items). ``data_source`` is ``chartjudgebench:<released id>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.registry import Registry
from .flaws._base import DIMENSIONS
from .reproduction import REPRO_QUERY

__all__ = ["NOT_IN_RELEASE", "OPTIONAL_FIELDS", "TASKS", "UNSPECIFIED", "ReleasedError", "ReleasedTask",
           "criterion_of", "label_of", "released_id"]

UNSPECIFIED = "unspecified"
"""``failure`` of a released Reject item: the annotation is binary and names no failure type."""
NOT_IN_RELEASE = {"evidence": "{}", "strategy": "", "edit": "", "spec_better": "", "spec_worse": "",
                  "spec_reference": "", "spec_candidate": ""}
"""Columns of synthetic items that the released data has no value for (the empty value each gets)."""
OPTIONAL_FIELDS = {"chart_type": ("chart_type",)}
"""Read when present (``normalize_truth``: ``row.get("chart_type", "unknown")``)."""
MAX_ID_CHARS = 200
LABELS = ("Accept", "Reject")


class ReleasedError(ValueError):
    """The released data cannot be read or mapped: a missing file or field, a malformed row (one line)."""


@dataclass(frozen=True)
class ReleasedTask:
    """One released task: where its rows live, which fields it reads and how a row maps to ours."""

    config: str
    """Our config (``cpa``, ``crj_reproduction``, ``crj_editing``)."""
    released: str
    """The released Hub config, also its folder (``constants.py`` ``TASK_SPECS``)."""
    size: int
    """Rows the released config has (``TaskSpec.expected_size``); reported, not required."""
    fields: Mapping[str, tuple[str, ...]]
    """Role -> the released field names ``data.py`` tries, in its order; every role is required."""
    images: tuple[str, str]
    """Our two image columns (also roles of ``fields``), in the order the model sees them."""
    build: Callable[[Mapping[str, Any], str], dict[str, Any]]
    """(role -> value of one released row, where) -> our row; image columns keep the released cells."""


TASKS = Registry("released ChartJudgeBench task", None)
"""Our config -> its :class:`ReleasedTask` (``@released_task`` below)."""


def released_task(config: str, released: str, size: int, images: tuple[str, str], **fields: tuple[str, ...]):
    """Register the decorated mapper as the :class:`ReleasedTask` of ``config``."""

    def decorator(fn: Callable[[Mapping[str, Any], str], dict[str, Any]]):
        TASKS.register(config)(ReleasedTask(config, released, size, fields, images, fn))
        return fn

    return decorator


def _norm(text: Any) -> str:
    return re.sub(r"[\s\-]+", "_", str(text).strip()).lower()


def released_id(value: Any, where: str) -> str:
    """The released id as the released code keys it (``str(value)``); refused when empty or unprintable."""
    if value is None or isinstance(value, (bytes, bytearray, dict, list)):
        raise ReleasedError(f"{where}: id is {'missing' if value is None else type(value).__name__}, "
                            "expected a string or a number")
    text = str(value)
    if not text.strip() or len(text) > MAX_ID_CHARS or not text.isprintable():
        raise ReleasedError(f"{where}: id {text[:40]!r} is empty, longer than {MAX_ID_CHARS} characters "
                            "or not printable")
    return text


def label_of(value: Any, where: str) -> str:
    """``Accept``/``Reject`` from a released decision (``str(...).title()``, as data.py/scoring.py read it)."""
    text = value.strip().title() if isinstance(value, str) else None
    if text not in LABELS:
        raise ReleasedError(f"{where}: unknown label {value!r} (expected accept or reject, any case)")
    return text


def criterion_of(subcategory: Any, category: Any, where: str) -> str:
    """Our criterion for a released ``subcategory``, checked against its ``category`` (CPA_DIMENSIONS)."""
    criterion = _norm(subcategory) if isinstance(subcategory, str) else ""
    if criterion not in DIMENSIONS:
        raise ReleasedError(f"{where}: unknown CPA criterion {subcategory!r} (expected one of the 7 of "
                            f"constants.py CPA_DIMENSIONS: {', '.join(sorted(DIMENSIONS))}, any case)")
    if not isinstance(category, str) or _norm(category) != DIMENSIONS[criterion]:
        raise ReleasedError(f"{where}: category {category!r} does not hold criterion {subcategory!r} "
                            f"(expected {DIMENSIONS[criterion]})")
    return criterion


def _chart_kind(fields: Mapping[str, Any]) -> str:
    value = fields.get("chart_type")
    return "unknown" if value is None else str(value)


IDS = ("example_id", "sample_id", "case_id")
DECISION = ("decision", "ground_truth")


@released_task("cpa", "CPA", 1003, ("image_better", "image_worse"), id=("pair_id", "sample_id", "case_id"),
               category=("category", "main_category"), subcategory=("subcategory", "sub_category"),
               image_better=("better_image", "better"), image_worse=("worse_image", "worse"))
def _cpa(fields: Mapping[str, Any], where: str) -> dict[str, Any]:
    sid = released_id(fields["id"], where)
    criterion = criterion_of(fields["subcategory"], fields["category"], where)
    key = f"cjb-cpa-{sid}"
    return {"id": key, "pair_id": key, "criterion": criterion, "dimension": DIMENSIONS[criterion],
            "chart_kind": _chart_kind(fields), "data_source": f"chartjudgebench:{sid}",
            "image_better": fields["image_better"], "image_worse": fields["image_worse"],
            **{k: NOT_IN_RELEASE[k] for k in ("evidence", "strategy", "spec_better", "spec_worse")}}


def _crj(config: str, task: str, fields: Mapping[str, Any], where: str, instruction: str) -> dict[str, Any]:
    sid = released_id(fields["id"], where)
    label = label_of(fields["label"], where)
    key = f"cjb-{config}-{sid}"
    return {"id": key, "item_id": key, "task": task, "instruction": instruction,
            "question": instruction or REPRO_QUERY, "answer": label, "answer_type": "choice", "label": label,
            "failure": "none" if label == "Accept" else UNSPECIFIED, "chart_kind": _chart_kind(fields),
            "data_source": f"chartjudgebench:{sid}", "image_reference": fields["image_reference"],
            "image_candidate": fields["image_candidate"],
            **{k: NOT_IN_RELEASE[k] for k in ("evidence", "edit", "spec_reference", "spec_candidate")}}


@released_task("crj_reproduction", "ChartReproduction", 315, ("image_reference", "image_candidate"), id=IDS,
               label=DECISION, image_reference=("target", "target_image"),
               image_candidate=("input", "generated_image"))
def _reproduction(fields: Mapping[str, Any], where: str) -> dict[str, Any]:
    # No instruction: the released protocol sends none; our prompt's query slot gets REPRO_QUERY,
    # as for synthetic reproduction items.
    return _crj("crj_reproduction", "reproduction", fields, where, "")


@released_task("crj_editing", "ChartEditing", 335, ("image_reference", "image_candidate"), id=IDS,
               label=DECISION, image_reference=("reference", "reference_image"),
               image_candidate=("edited", "edited_image"), instruction=("instruction", "query"))
def _editing(fields: Mapping[str, Any], where: str) -> dict[str, Any]:
    instruction = fields["instruction"]
    if not isinstance(instruction, str) or not instruction.strip():
        raise ReleasedError(f"{where}: the edit instruction is {instruction!r}, expected non-empty text")
    return _crj("crj_editing", "editing", fields, where, instruction)
