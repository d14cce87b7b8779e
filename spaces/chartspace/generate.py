"""Generate a chart and its probes live, with the machinery that builds ``chartprobe-probes``.

For a probe domain (bar, hbar, pie, shapes) the spec is sampled the way the probes builder
samples it, rendered, wrapped in the domain's view, and every eligible template —
perception, grounding, simple reasoning and the held-out complex-reasoning ones — is
instantiated with its own keyed RNG; degenerate instances (ties, ...) are skipped exactly
as in a release. Other chart kinds are sampled with ``render.sample_spec``: the probe bank
does not cover them, so the chart comes with the element boxes the renderer measured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Generated", "generate", "kinds"]


@dataclass
class Generated:
    """A live chart: PNG, boxes, probe rows and the spec JSON."""

    png: bytes
    boxes: dict[str, tuple[float, float, float, float]]
    spec_json: str
    probes: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""


def kinds() -> list[str]:
    """Probe domains first (they get probes), then every other registered chart kind."""
    from chartprobe.dataset_builders.core.charts import CHARTS
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS

    return list(PROBE_DOMAINS) + [k for k in CHARTS.names() if k not in PROBE_DOMAINS]


def _probes(domain_name: str, seed: int, key: str, view: Any) -> list[dict[str, Any]]:
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.probes.builder import eligible_templates

    rows = []
    for held_out in (False, True):
        for t in eligible_templates(domain_name, held_out):
            q = t.instantiate(view, rng_for(seed, key, t.name))
            if q is not None:
                rows.append({"template_id": q.template_id, "skill": q.skill, "question": q.question,
                             "answer": q.answer, "answer_type": q.answer_type, "target_bbox": q.target_bbox,
                             "program": q.program.to_json()})
    return rows


def generate(kind: str, seed: int, tier: str = "medium") -> Generated:
    """Sample, render and probe one chart of ``kind`` from ``seed`` (deterministic)."""
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS, TIERS

    seed = int(seed)
    if seed < 0:
        raise ValueError("the seed must be a non-negative integer")
    key = f"space-{kind}-{tier}"
    if kind in PROBE_DOMAINS:
        if tier not in TIERS:
            raise ValueError(f"unknown tier {tier!r}; choose from {', '.join(TIERS)}")
        domain = PROBE_DOMAINS[kind]
        spec = domain.sample(rng_for(seed, key, "spec"), tier)
        rendered = domain.render(spec)
        probes = _probes(kind, seed, key, domain.view(spec, rendered.boxes))
        return Generated(rendered.png, rendered.boxes, spec.to_json(), probes,
                         f"{len(probes)} probes instantiated ({tier} tier).")
    from chartprobe.dataset_builders.core.charts import CHARTS
    from chartprobe.dataset_builders.core.render import render, sample_spec

    if kind not in CHARTS:
        raise ValueError(f"unknown chart kind {kind!r}")
    spec = sample_spec(kind, rng_for(seed, key, "spec"))
    rendered = render(spec)
    n_marks = sum(k.startswith("mark/") for k in rendered.boxes)
    return Generated(rendered.png, rendered.boxes, spec.to_json(), [],
                     f"The probe bank covers {', '.join(PROBE_DOMAINS)}; this {kind} chart is shown with "
                     f"its {n_marks} measured mark boxes (what grounding probes and flaw checks read).")
