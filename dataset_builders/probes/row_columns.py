"""Columns every probes row derives from its question: tolerance, answer vocabulary; the row of
one question on one drawn chart; and the domain of a config name."""

from __future__ import annotations

from typing import Any

from ..core.answer_types import gold_type
from ..core.answer_vocab import aliases_json
from ..core.tolerance import tolerance_for
from ..release.dataset import GENERATOR_VERSION
from .config_sets import config_set
from .misreading import derived_tolerance
from .templates import TEMPLATES
from .templates._base import SKILLS

__all__ = ["PROBE_SKILLS", "answer_columns", "answer_vocabulary", "config_domain", "question_row"]

PROBE_SKILLS = SKILLS[:3]


def question_row(q: Any, *, chart_id: str, image: dict, spec: Any, seed: int, domain: str, tier: str,
                 held_out: bool, rendered: Any, view: Any) -> dict[str, Any]:
    """The row of question ``q`` on the chart ``spec`` drawn as ``rendered`` (columns shared by
    every config set; a set adds its own, e.g. ``source``)."""
    return {
        "id": f"{chart_id}-{q.template_id}", "chart_id": chart_id, "image": image,
        "question": q.question, "answer": q.answer,
        "answer_type": gold_type(q.answer_type, q.answer, q.question),
        "template_id": q.template_id, "skill": q.skill, "tier": tier,
        "target_bbox": list(q.target_bbox) if q.target_bbox else None,
        "program": q.program.to_json(), "spec": spec.to_json(), "seed": seed,
        "generator_version": GENERATOR_VERSION, "domain": domain,
        "chart_kind": spec.kind, "n_marks": view.n, "held_out": held_out,
        **answer_columns(q, rendered, view),
    }


def answer_columns(q: Any, rendered: Any, view: Any = None) -> dict[str, str]:
    """``tolerance`` (number rows, from the template's rule and this render's ticks, capped below
    any one-category misreading of a derived value: :mod:`.misreading`) and ``answer_aliases``
    (the template's closed answer vocabulary, JSON; "" when open)."""
    tpl = TEMPLATES.get(q.template_id)
    tolerance = ""
    if q.answer_type == "number":
        rule = tolerance_for(tpl.tolerance_rule, q.answer, getattr(rendered, "ticks", {}))
        tolerance = (derived_tolerance(q.program, view, float(q.answer), rule) if view is not None else rule).to_str()
    return {"tolerance": tolerance, "answer_aliases": aliases_json(answer_vocabulary(tpl, q))}


_ATTR_VOCABULARY = {"shape": "shape", "color": "scene_color"}
"""A scene question's asked attribute -> the closed vocabulary its answer comes from."""


def answer_vocabulary(tpl: Any, q: Any) -> str:
    """The row's closed answer vocabulary: the template's own, else that of the scene attribute
    the question asks for (shape, colour), "" when the answer set is open."""
    if tpl.answer_vocabulary:
        return tpl.answer_vocabulary
    attr = q.program.args.get("attr") if q.answer_type == "label" else None
    return _ATTR_VOCABULARY.get(attr, "") if isinstance(attr, str) else ""


def config_domain(config: str) -> tuple[str, bool]:
    """(domain name, complex-reasoning?) of a config name: ``cr_pie`` -> ("pie", True)."""
    cset, domain = config_set(config)
    return domain, cset.held_out
