"""``style_shift_<domain>`` configs: each chart's probes asked on the same chart drawn under several
engines and house styles (``params.styles``, default
:data:`~chartprobe.dataset_builders.core.style_axis.STYLE_SHIFT_DEFAULT`).

The chart and its questions are chosen once; every style redraws the same spec (only
``style.theme`` and the engine change), so every gold is the same in every style: the build
re-runs each question's program on each style's view and refuses a difference. Templates whose
answer is a drawn box (``render.boxes``) are left out, since a box is a property of one drawing,
and so are trend probes (their chart must be sorted, which the other probes must not see). A
chart is kept only if no style hides a mark or overlaps labels (the same checks as every
config). Rows carry ``style`` (``<engine>/<theme>``) and ``engine``; ``chart_id`` names the base
chart in every style, so a chart's rows form one cluster for intervals and consistency.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.answer_types import gold_type
from ..core.occlusion import occluded
from ..core.programs import answer_of
from ..core.readability import readability_problems
from ..core.style_axis import both_engines, parse_styles
from ..release.dataset import GENERATOR_VERSION
from .config_sets import pool_for
from .domains import PROBE_DOMAINS, TIERS
from .row_columns import PROBE_SKILLS, answer_columns, config_domain
from .slots import sample_in_slot, split_slot

__all__ = ["style_shift_rows", "style_templates"]


def style_templates(pool: list[Any]) -> list[Any]:
    """The templates a style shift asks: those whose gold does not depend on one drawing."""
    return [t for t in pool if "render.boxes" not in t.reads and not t.needs_trend]


def style_shift_rows(builder: Any, preset: Any, config: str, split: str, key: str) -> Iterator[dict]:
    """Rows of one base chart of a ``style_shift_<domain>`` config: every question in every style."""
    domain_name, _ = config_domain(config)
    domain = PROBE_DOMAINS[domain_name]
    tier = TIERS[int(key.rsplit("-", 1)[1]) % len(TIERS)]
    params = preset.params(config)
    styles = parse_styles(params.get("styles"))
    pool = style_templates(pool_for(config, params))
    renders: dict[Any, Any] = {}

    def acceptable(s: Any) -> bool:
        base = both_engines(s)
        drawn = {}
        for style in styles:
            r = drawn[style] = style.render(base)
            if occluded(r.boxes) or readability_problems(r.boxes, getattr(r, "slanted", ())):
                return False
        renders.clear()
        renders.update(drawn)
        return True

    spec = both_engines(sample_in_slot(domain, preset.seed, key, tier, split_slot(split, False), "shuffled", acceptable))
    reference = domain.view(styles[0].apply(spec), renders[styles[0]].boxes)
    per_skill = int(params.get("probes_per_skill", 3))
    questions = [q for skill in PROBE_SKILLS for q in builder._pick(
        preset.seed, key, reference, [t for t in pool if t.skill == skill], per_skill, skill, lambda t, q: True)]
    for style in styles:
        styled, rendered = style.apply(spec), renders[style]
        view = domain.view(styled, rendered.boxes)
        image = {"bytes": rendered.png, "path": None}
        spec_json = styled.to_json()
        for q in questions:
            if answer_of(q.program, view, q.answer_type) != q.answer:
                raise RuntimeError(f"{key}: {q.template_id} answers differently under {style.name}")
            yield {
                "id": f"{key}-{style.engine}-{style.theme}-{q.template_id}", "chart_id": key, "image": image,
                "question": q.question, "answer": q.answer,
                "answer_type": gold_type(q.answer_type, q.answer, q.question),
                "template_id": q.template_id, "skill": q.skill, "tier": tier, "target_bbox": None,
                "program": q.program.to_json(), "spec": spec_json, "seed": preset.seed,
                "generator_version": GENERATOR_VERSION, "domain": domain_name, "chart_kind": spec.kind,
                "n_marks": view.n, "held_out": False, "style": style.name, "engine": style.engine,
                **answer_columns(q, rendered, view),
            }
