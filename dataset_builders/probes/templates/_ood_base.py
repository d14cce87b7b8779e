"""The base class of the out-of-template chart templates (``CR-OOD-*``).

They are held-out complex reasoning, flagged ``out_of_template`` (asked only in the
``cr_ood_*`` configs), phrased from ``probes/phrase_bank_ood.py``, whose per-kind words
(``{route}``) join the view's geometry words as phrasing slots.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..phrase_bank_ood import OOD_WORDS
from ._base import Template

__all__ = ["OodChartTemplate"]


class OodChartTemplate(Template):
    """Defaults of an out-of-template chart template; subclasses set op, answer type, phrasings."""

    skill: ClassVar[str] = "complex"
    held_out: ClassVar[bool] = True
    out_of_template: ClassVar[bool] = True

    def slots(self, view: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {**super().slots(view, args), **OOD_WORDS.get(view.spec.kind, {})}
