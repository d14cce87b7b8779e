"""The intervention contract: a legend-only edit with a declared family.

``apply`` returns candidate legend sides (most preferred first) and never sees or returns
the chart side, so the chart ``s`` of a variant is its base's by construction. The family
fixes the expected behaviour the builder enforces: ``preserving`` variants must keep the
gold answer (consistency), ``altering`` ones must change it (responsiveness; a candidate
that happens to keep it is dropped), ``answerability`` ones keep the answer when the
visible entries still suffice and expect "I don't know" otherwise.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..templates._base import State
from ..unit import LegendSide

__all__ = ["FAMILIES", "Intervention", "Probe", "entry_index", "unread_entries"]

FAMILIES = ("preserving", "altering", "answerability")


@dataclass(frozen=True)
class Probe:
    """What an intervention may know of the question: the legend evidence it needs."""

    evidence: tuple[str, ...]
    """Every legend box id the question reads."""
    primary: tuple[str, ...]
    """Box ids of the primary target (the question's first label)."""
    target: str
    """The primary target label ("" when the question names none, e.g. a colour-bar end)."""


def entry_index(box_id: str) -> int:
    """``legend/entry/3`` or ``legend/direct/3`` -> 3."""
    return int(box_id.rsplit("/", 1)[1])


def unread_entries(st: State, probe: Probe) -> list[int]:
    """Legend entries the question does not read (none of its evidence)."""
    needed = {entry_index(b) for b in probe.evidence}
    return [k for k in range(st.legend.n_entries) if k not in needed]


class Intervention(abc.ABC):
    """Base class of every legend intervention."""

    name: ClassVar[str]
    family: ClassVar[str]
    forms: ClassVar[tuple[str, ...]] = ("box",)
    description: ClassVar[str] = ""
    per_target: ClassVar[bool] = False
    """True when the edit depends on the question's target (else one edit per chart, shared)."""

    def applies(self, st: State, probe: Probe) -> bool:
        """Whether the edit makes sense for this legend and question."""
        return st.legend.form in self.forms

    @abc.abstractmethod
    def apply(self, st: State, probe: Probe, rng: np.random.Generator) -> list[LegendSide]:
        """Candidate intervened legends, most preferred first (may be empty)."""

    @staticmethod
    def with_visible(st: State, keep: set[int]) -> LegendSide:
        """The legend showing only the entries in ``keep``."""
        return st.legend.replace(visible=tuple(k in keep for k in range(st.legend.n_entries)))
