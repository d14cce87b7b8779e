"""The ``style`` study (config ``style_shift``): one base chart and its legend questions drawn by both
engines in several house styles (:data:`~chartprobe.dataset_builders.core.style_axis.STYLE_SHIFT_DEFAULT`).

The legend-side analogue of LegendBench's consistency, over the drawing instead of the legend: the
chart side, the legend side and the questions (parsing, binding, value, reasoning, as the channel
study asks them, about a target drawn by key) are the same in every style; only ``style.theme``
and the engine change, so every gold is the same. Each question is one group across styles: the
native drawing is its base row, every other style a ``configuration`` variant (``study_level`` =
``<engine>/<theme>``, which also names the engine that re-renders the row's ``spec``). A base chart
is kept only if every style shows every mark and keeps every label readable. Colour is the only
channel: Vega has no hatch patterns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.style_axis import parse_styles
from .rows import RowMaker
from .space import LegendSpace, Unit
from .studies import ORDER_KINDS, Rng, _channel_questions, _unit_where
from .visible import Renders

__all__ = ["style_rows"]


def style_rows(space: LegendSpace, key: str, index: int, seed: int, rng: Rng) -> Iterator[dict]:
    """Rows of one style-study base: every question in every style, one group per question."""
    styles = parse_styles(None)
    kinds = [k for k in ORDER_KINDS if k in space.chart_kinds] or list(ORDER_KINDS)
    kind = kinds[index % len(kinds)]
    renders = {s: Renders(style=s) for s in styles}

    def hidden(u: Unit) -> list:  # every style is asked, so every style must show every mark
        for s in styles:
            found = renders[s].hidden(u.chart, u.legend)
            if found:
                return found
        return []

    unit = _unit_where(space, rng(key, "unit"), lambda u: True, hidden, kind=kind, mode="single",
                       channels=("color",), form="box")
    questions: Any = None
    for k, style in enumerate(styles):
        maker = RowMaker(unit, key, seed, study_factor="style", study_level=style.name, renders=renders[style])
        st = maker.state()
        if questions is None:  # chosen once, on the native drawing
            questions = _channel_questions(st, rng(key, "questions"))
        for name, role, params in questions:
            row = maker.row(f"{key}-{style.engine}-{style.theme}-{name}", st, name, params,
                            group_id=f"{key}-{name}", chain_id=f"{key}-{style.name}", chain_role=role,
                            intervention="none" if k == 0 else "restyle", intervention_family="configuration",
                            expected="base" if k == 0 else "preserve")
            if row is not None:
                yield row
