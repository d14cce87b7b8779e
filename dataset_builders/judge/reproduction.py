"""CRJ Chart Reproduction items: a reference chart and a candidate "reproduction" of it.

Accept candidates are faithful re-renders with harmless differences (font size, figure
scale, resolution: the paper's "minor, non-semantic pixel differences"). Reject candidates
carry one failure the evaluation prompt names: a data error, a missing component (legend,
title, axis label), a wrong chart type, or a visual defect (a verified CPA flaw). Labels
alternate by item index, so a task is balanced 50/50 by construction.

The harmless re-render is not a sign of Accept: every candidate, Accept or Reject, is
resized (figure scale and DPI) with probability 1/2 drawn per item, and Reject candidates
get the same font-size change as Accept ones. Before, only Accept candidates changed size,
and "the candidate's image size differs from the reference => Accept" was 100% accurate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..core.charts import CHARTS
from ..core.rng import rng_for
from ..core.spec import ChartSpec, SpecError
from .flaws import FLAWS
from .flaws._base import changed_fields, collateral

__all__ = ["FAILURES", "REPRO_QUERY", "build_reproduction"]

REPRO_QUERY = "Generate Python code that reproduces this chart exactly."
"""The paper's SIMPLIFIED_QUERY slot of the reproduction evaluation prompt."""

_RETYPE = {"bar": "line", "hbar": "bar", "grouped_bar": "stacked_bar", "stacked_bar": "grouped_bar",
           "line": "grouped_bar", "area": "line", "scatter": "line", "radar": "line", "pie": "bar"}


RESIZE_SHARE = 0.5
"""Share of candidates (of either label) re-rendered at another figure scale and DPI."""


def _harmless(spec: ChartSpec, rng, resize: bool) -> tuple[ChartSpec, dict]:
    """A re-render: font size +-1, and with ``resize`` another figure scale and DPI."""
    scale = round(float(rng.choice([0.9, 0.95, 1.05, 1.1])), 2) if resize else 1.0
    dpi = int(rng.choice([90, 110, 120])) if resize else spec.style.dpi
    style = dataclasses.replace(spec.style, width=round(spec.style.width * scale, 2),
                                height=round(spec.style.height * scale, 2),
                                font_size=spec.style.font_size + float(rng.choice([-1.0, 1.0])), dpi=dpi)
    return spec.replace(style=style), {"figure_scale": scale, "dpi": dpi}


def _data_error(spec: ChartSpec, rng) -> tuple[ChartSpec, dict] | None:
    s = int(rng.integers(len(spec.data.series)))
    c = int(rng.integers(len(spec.data.categories)))
    old = spec.data.series[s].values[c]
    new = round(old * float(rng.choice([0.55, 0.65, 1.4, 1.5])))
    if new <= 0 or new == old:
        return None
    values = list(spec.data.series[s].values)
    values[c] = float(new)
    series = list(spec.data.series)
    series[s] = dataclasses.replace(series[s], values=tuple(values))
    return (spec.replace(data=dataclasses.replace(spec.data, series=tuple(series))),
            {"series": spec.data.series[s].name, "category": spec.data.categories[c], "reference": old, "candidate": new})


def _missing_component(spec: ChartSpec, rng) -> tuple[ChartSpec, dict] | None:
    options = []
    if spec.legend.form == "box" and "none" in CHARTS.get(spec.kind).legend_forms:
        options.append(("legend/box", spec.replace(legend=dataclasses.replace(spec.legend, form="none"))))
    if spec.style.title:
        options.append(("title", spec.replace(style=dataclasses.replace(spec.style, title=""))))
    if spec.axes.y_label:
        options.append(("axis/y/label", spec.replace(axes=dataclasses.replace(spec.axes, y_label=""))))
    if not options:
        return None
    element, cand = options[int(rng.integers(len(options)))]
    return cand, {"removed": element}


def _chart_type(spec: ChartSpec, rng) -> tuple[ChartSpec, dict] | None:
    target = _RETYPE.get(spec.kind)
    if target is None:
        return None
    kind = CHARTS.get(target)()
    cand = spec.replace(kind=target)
    n_items = len(kind.legend_labels(cand))
    encs = tuple(dataclasses.replace(spec.encodings[i % len(spec.encodings)], colors=None) for i in range(n_items))
    legend = spec.legend if spec.legend.form in kind.legend_forms else dataclasses.replace(spec.legend, form=kind.default_legend)
    cand = cand.replace(encodings=encs, legend=dataclasses.replace(legend, order=None, visible=None, colors=None))
    try:
        return cand.validate(), {"reference_kind": spec.kind, "candidate_kind": target}
    except SpecError:
        return None


def _visual_defect(spec: ChartSpec, rng) -> tuple[ChartSpec, dict] | None:
    names = ["text_occlusion", "component_positioning", "axis_scaling", "color_consistency"]
    flaw = FLAWS.get(names[int(rng.integers(len(names)))])()
    inj = flaw.apply(spec, rng)
    if inj is None or inj.better != spec:  # the reference must stay what the user gave
        return None
    return inj.worse, {"flaw": flaw.name, "strategy": inj.strategy}


FAILURES: dict[str, Callable[[ChartSpec, Any], tuple[ChartSpec, dict] | None]] = {
    "data": _data_error, "missing_component": _missing_component,
    "chart_type": _chart_type, "visual_defect": _visual_defect}


def _verified(failure: str, ref: ChartSpec, cand: ChartSpec, r_ref, r_cand, detail: dict) -> dict | None:
    """Evidence that the candidate differs the way its label says, read from the renders."""
    if r_ref.png == r_cand.png:
        return None
    if failure == "none":
        from .screen import flaws_shown

        same_data = ref.kind == cand.kind and ref.data == cand.data and ref.encodings == cand.encodings
        clean = same_data and not collateral(r_ref, r_cand) and not flaws_shown(r_ref, r_cand, ref, cand)
        return detail if clean else None
    if failure == "missing_component":
        return detail if detail["removed"] in r_ref.boxes and detail["removed"] not in r_cand.boxes else None
    if failure == "visual_defect":
        flaw = FLAWS.get(detail["flaw"])()
        from .flaws._base import Injection

        found = flaw.verify(r_ref, r_cand, Injection(flaw.name, detail["strategy"], ref, cand))
        return {**detail, "evidence": found} if found else None
    return detail


def build_reproduction(seed: int, key: str, index: int) -> dict | None:
    """One reproduction item: (reference, candidate, label, failure, evidence) or None if unverifiable."""
    from ..core.render import render, sample_spec
    from .cpa import cleaned, is_clean

    accept = index % 2 == 0
    failure = "none" if accept else list(FAILURES)[(index // 2) % len(FAILURES)]
    kinds = [k for k in CHARTS.names() if failure != "chart_type" or k in _RETYPE]
    resize = bool(rng_for(seed, key, "resize").random() < RESIZE_SHARE)
    for attempt in range(8):
        rng = rng_for(seed, key, "attempt", attempt)
        kind = kinds[int(rng.integers(len(kinds)))]
        ref, r_ref = cleaned(sample_spec(kind, rng))
        if not is_clean(r_ref):
            continue
        made = (ref, {}) if accept else FAILURES[failure](ref, rng)
        if made is None:
            continue
        injected, detail = made
        cand, rerender = _harmless(injected, rng, resize)
        detail = {**detail, "rerender": rerender}
        try:  # a kind may forbid the changed data (e.g. a span whose end precedes its start)
            cand, injected = cand.validate(), injected.validate()
        except SpecError:
            continue
        r_cand = render(cand)
        # A failure is verified as injected, at the reference's size (verifiers compare the
        # two renders mark by mark); the harmless re-render on top cannot undo it. A harmless
        # candidate is verified as shown: same data, no collateral change.
        checked = (cand, r_cand) if accept else (injected, render(injected))
        evidence = _verified(failure, ref, *checked[:1], r_ref, checked[1], detail)
        if evidence is not None:
            evidence = {**evidence, "changed_fields": sorted(changed_fields(ref, cand)), "attempt": attempt}
            return {"reference": ref, "candidate": cand, "r_reference": r_ref, "r_candidate": r_cand,
                    "label": "Accept" if accept else "Reject", "failure": failure, "evidence": evidence}
    return None
