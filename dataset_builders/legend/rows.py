"""Assemble ``chartprobe-legend`` rows: one question on one legend state of one base chart.

:class:`RowMaker` holds a base unit and renders each distinct legend state once (variants
of many groups share images). A row carries the chart side and legend side it was asked
on, the template program that recomputes its answer, the legend evidence it needs, the
legend boxes actually rendered (so validity can be checked on the image's own layout) and
``occlusion_max``, the largest share of a data mark any text covers on that render (the proof
that the marks it reads are visible, ``visible``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..core.answer_types import gold_type
from ..release.dataset import GENERATOR_VERSION
from .aliases import row_aliases_json
from .elimination import elimination_answerable
from .program import program_json
from .space import Unit
from .templates import LEGEND_TEMPLATES
from .templates._base import ABSTAIN, LegendTemplate, State
from .templates.t3_rank import visual_ranks
from .tolerances import row_tolerance
from .unit import LegendSide, side_to_json
from .visible import Renders, Shot

__all__ = ["RowMaker", "displayed_position"]


def displayed_position(st: State, box_ids: tuple[str, ...]) -> int:
    """1-based position of the first of ``box_ids`` among the displayed entries of a box legend, else -1."""
    lg = st.legend
    if lg.form != "box" or not box_ids or not box_ids[0].startswith("legend/entry/"):
        return -1
    k = int(box_ids[0].rsplit("/", 1)[1])
    order = lg.order if lg.order is not None else tuple(range(lg.n_entries))
    shown = [j for j in order if lg.visible is None or lg.visible[j]]
    return shown.index(k) + 1 if k in shown else -1


@dataclass
class RowMaker:
    """Makes the rows of one base chart (any config)."""

    unit: Unit
    base_id: str
    seed: int
    study_factor: str = ""
    study_level: str = ""
    renders: Renders = field(default_factory=Renders)
    """Shared by every maker of one base item, so each legend state is rendered once."""
    asked: set[tuple[str, str]] = field(default_factory=set)
    """(rendered spec, question) of every row made: the same question on the same image is
    asked once, so no pair weighs twice in a split's accuracy."""

    def state(self, legend: LegendSide | None = None, chart: Any = None) -> State:
        """The legend state ``legend`` (default: the base legend) over the base chart."""
        return State(chart=chart or self.unit.chart, legend=legend or self.unit.legend,
                     channels=self.unit.channels, add_labels=self.unit.add_labels)

    def _render(self, st: State) -> tuple[Shot, str]:
        return self.renders.shot(st.chart, st.legend)

    def hidden(self, st: State) -> bool:
        """Whether text covers more than a quarter of some data mark on ``st``'s render."""
        return bool(self._render(st)[0].occlusions)

    def row(self, row_id: str, st: State, template: LegendTemplate | str, params: dict[str, Any], *,
            group_id: str, chain_id: str = "", chain_role: str = "", intervention: str = "none",
            intervention_family: str = "none", expected: str = "base") -> dict[str, Any] | None:
        """One row, or None when the question is ill-posed on ``st`` or was already asked on this image."""
        tpl = LEGEND_TEMPLATES.get(template)() if isinstance(template, str) else template
        gold = tpl.gold(st, params)
        if gold is None:
            return None
        answer, answer_type = gold
        question = tpl.question(st, params)
        answer_type = gold_type(answer_type, answer, question)  # a column named "2011" is a year
        shot, spec_json = self._render(st)
        if (spec_json, question) in self.asked:
            return None
        self.asked.add((spec_json, question))
        targets = tpl.targets(st, params)
        evidence = tpl.evidence(st, params)
        primary = st.evidence_of_item(st.item_of(targets[0])) if targets else ()
        ranks = visual_ranks(st) if tpl.name == "t3_rank" else None
        answerability = intervention_family == "answerability"
        tolerance, derivation = row_tolerance(tpl, st, answer, answer_type, shot.ticks, params)
        u = self.unit
        return {
            "id": row_id, "image": shot.image, "question": question, "answer": answer,
            "answer_type": answer_type, "spec": spec_json, "chart_spec": st.chart.to_json(),
            "legend_spec": side_to_json(st.legend), "seed": self.seed, "generator_version": GENERATOR_VERSION,
            "base_id": self.base_id, "group_id": group_id, "chain_id": chain_id, "chain_role": chain_role,
            "task_family": "T4" if answerability else tpl.task_family,
            "capability": "abstain" if answerability else tpl.capability, "template": tpl.name,
            "intervention": intervention, "intervention_family": intervention_family,
            "expected": "abstain" if answer == ABSTAIN else expected,
            "elimination_answerable": elimination_answerable(st.legend, evidence, tpl.anchor), "chart_kind": u.kind,
            "mark_family": u.mark_family, "legend_form": u.legend.form, "channels": list(u.channels),
            "encoding_mode": u.encoding_mode, "legend_position": st.legend.position,
            "num_series": u.num_series, "num_points": u.num_points, "theme": u.theme, "add_labels": u.add_labels,
            "target": targets[0] if targets else "",
            "target_legend_index": displayed_position(st, primary),
            "visual_rank": ranks[st.item_of(targets[0])] if ranks and targets else -1,
            "evidence": json.dumps(list(evidence)), "legend_boxes": shot.legend_boxes,
            "occlusion_max": shot.occlusion_max, "text_overlap_max": shot.text_overlap_max,
            "legend_text_cover_max": shot.legend_text_cover_max,
            "study_factor": self.study_factor, "study_level": self.study_level,
            "program": program_json(tpl.name, params, u.channels, u.add_labels),
            "tolerance": tolerance, "tolerance_derivation": derivation,
            "answer_aliases": row_aliases_json(u.channels),
            "data_source": u.data_source, "tables_sha256": u.tables_sha256,
        }


LEGEND_COLUMNS: dict[str, str] = {
    "chart_spec": "string", "legend_spec": "string", "base_id": "string", "group_id": "string",
    "chain_id": "string", "chain_role": "string", "task_family": "string", "capability": "string",
    "template": "string", "intervention": "string", "intervention_family": "string", "expected": "string",
    "elimination_answerable": "bool",
    "chart_kind": "string", "mark_family": "string", "legend_form": "string", "encoding_mode": "string",
    "legend_position": "string", "num_series": "int32", "num_points": "int32", "theme": "string",
    "add_labels": "bool", "target": "string", "target_legend_index": "int32", "visual_rank": "int32",
    "evidence": "string", "legend_boxes": "string", "occlusion_max": "float32",
    "text_overlap_max": "float32", "legend_text_cover_max": "float32", "study_factor": "string", "study_level": "string",
    "program": "string", "tolerance": "string", "tolerance_derivation": "string", "answer_aliases": "string",
    "data_source": "string", "tables_sha256": "string",
}
"""Value columns of every legend row beyond the base columns (``channels`` is a list of strings)."""
