"""What every reader of saved predictions shares: :class:`Sample`, :class:`SampleFormat`, the error.

``chartprobe score`` reads predictions saved by more than one harness: lm-eval's
``--log_samples`` files (:mod:`.predictions`) and VLMEvalKit's prediction tables
(:mod:`.vlmevalkit.predictions`). Each is a :class:`SampleFormat`, known by its file name, that
turns a file into :class:`Sample` records; :data:`chartprobe.eval_tasks.rescoring.predictions.SAMPLE_FORMATS`
picks one by file suffix. The types live here, apart from both readers, so a reader never
imports the registry that imports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["PredictionsError", "Sample", "SampleFormat"]


class Sample(NamedTuple):
    """One scored-to-be prediction: which model, which task, the row and the raw response.

    A named tuple, not a dataclass: ``chartprobe score`` makes one per record, millions at
    scale, and a frozen dataclass costs ~5x more to build.
    """

    model: str
    task: str
    doc_id: int
    doc: dict[str, Any]
    prediction: str
    responses: tuple[str, ...] = ()
    """Every response lm-eval scored, when a repeated run (``repeats``, a keep-all filter such as
    the ``*_vote`` tasks' ``take_first_k``) kept more than one; ``prediction`` is the first."""


class PredictionsError(ValueError):
    """A samples, results, validity file or release is not what chartprobe can read (one clear line for the CLI)."""


@dataclass(frozen=True)
class SampleFormat:
    """One kind of predictions file ``chartprobe score`` reads, recognised by its file name."""

    name: str
    """Who writes it, for messages (``lm-eval --log_samples``, ``VLMEvalKit``)."""
    pattern: re.Pattern[str]
    """The whole file name. Named groups: ``task`` (the chartprobe task: one file holds one task),
    ``date`` (newest wins among one model's files of one task; empty when the name has none) and,
    when the name carries it, ``model``."""
    picks: Callable[[str], object]
    """Whether a folder scan takes a file of this name (truthy); a picked name that ``pattern`` refuses
    is an error."""
    read: Callable[[Path, str, str], Iterator[Sample]]
    """``read(path, task, model)``: the file's samples; a malformed file is a :class:`PredictionsError`."""
    expected: str
    """How a name of this format looks (``samples_<task>_<date_id>.jsonl``), for messages."""

    def model(self, path: Path, match: re.Match[str]) -> str:
        """The model whose predictions ``path`` holds: named in the file name, else its folder's name."""
        return match.groupdict().get("model") or path.parent.name
