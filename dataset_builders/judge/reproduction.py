"""CRJ Chart Reproduction items: a reference chart and a candidate "reproduction" of it.

Accept candidates are faithful re-renders with harmless differences (font size, figure
scale, resolution: the paper's "minor, non-semantic pixel differences"). Reject candidates
carry one failure the evaluation prompt names: a data error, a missing component (legend,
title, axis label), a wrong chart type, or a visual defect (a verified CPA flaw). Labels
alternate by item index, so a task is balanced 50/50 by construction.

The harmless re-render is not a sign of Accept: every candidate, Accept or Reject, is
resized (figure scale and DPI) with probability 1/2 drawn per item, and carries the same kind
of benign draw (``benign.py``: font size, line and marker weight, palette shade). Before, only
Accept candidates changed size, and "the candidate's image size differs from the reference =>
Accept" was 100% accurate; then Accept candidates were the least changed, and the mean pixel
difference predicted Reject (AUC .81). An Accept item and the Reject item after it draw their
chart kind from one stream, so the reference alone does not tell the label either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..core.charts import CHARTS
from ..core.rng import rng_for
from ..core.spec import ChartSpec, SpecError
from .benign import benign
from .flaws import FLAWS
from .flaws._base import changed_fields, collateral

__all__ = ["FAILURES", "REPRO_QUERY", "build_reproduction"]

REPRO_QUERY = "Generate Python code that reproduces this chart exactly."
"""The paper's SIMPLIFIED_QUERY slot of the reproduction evaluation prompt."""

_RETYPE = {"bar": "line", "hbar": "bar", "grouped_bar": "stacked_bar", "stacked_bar": "grouped_bar",
           "line": "grouped_bar", "area": "line", "scatter": "line", "radar": "line", "pie": "bar"}


RESIZE_SHARE = 0.5
"""Share of candidates (of either label) re-rendered at another figure scale and DPI."""


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
    # The reference must stay what the user gave: the flaw goes onto it as it is, with no CPA
    # preparation (a CPA pair's tight axis, value labels for the lazy annotation). A strategy
    # that needs its preparation then fails verification and the item draws again.
    inj = flaw.apply(spec, rng, prepared=False)
    return None if inj is None else (inj.worse, {"flaw": flaw.name, "strategy": inj.strategy})


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


def _drawn(seed: int, key: str, attempt: int, ref: ChartSpec, r_ref: Any, spec: ChartSpec, resize: bool,
           accept: bool) -> tuple | None:
    """(candidate, render, benign detail): ``spec`` with one benign draw, or None when the draw does
    not hold (an Accept candidate must stay verified harmless, a Reject one must still differ).

    Both labels take the same kind of draw from the same profile. Choosing the Accept draw nearest
    a discarded Reject twin's statistics, as editing does, was measured worse here (out-of-fold AUC
    of the image-statistics agent .834 against .798 for plain draws, 160 items): a chart-type Reject
    changes far more than any benign draw can, so matching only made Accept candidates the more
    changed of the two."""
    from ..core.render import render

    cand, rerender = benign(spec, rng_for(seed, key, "benign", attempt, 0), resize)
    try:
        cand = cand.validate()
    except SpecError:
        return None
    r_cand = render(cand)
    ok = _verified("none", ref, cand, r_ref, r_cand, {}) is not None if accept else r_cand.png != r_ref.png
    return (cand, r_cand, {"rerender": rerender}) if ok else None


def build_reproduction(seed: int, key: str, index: int) -> dict | None:
    """One reproduction item: (reference, candidate, label, failure, evidence) or None if unverifiable."""
    from ..core.render import render, sample_spec
    from .cpa import cleaned, is_clean

    accept = index % 2 == 0
    failure = "none" if accept else list(FAILURES)[(index // 2) % len(FAILURES)]
    # Items 2m (Accept) and 2m+1 (Reject) draw their chart kind from one stream, from the kinds the
    # Reject's failure can take: else P(Reject | kind) moved (2 Accept to 6 Reject bars, 8 to 3
    # donuts in 160 items) and the reference image alone told the label.
    pair_failure = list(FAILURES)[(index // 2) % len(FAILURES)]
    kinds = [k for k in CHARTS.names() if pair_failure != "chart_type" or k in _RETYPE]
    resize = bool(rng_for(seed, key, "resize").random() < RESIZE_SHARE)
    for attempt in range(8):
        rng = rng_for(seed, key, "attempt", attempt)
        kind = kinds[int(rng_for(seed, "reproduction-kind", index // 2, attempt).integers(len(kinds)))]
        ref, r_ref = cleaned(sample_spec(kind, rng))
        if not is_clean(r_ref):
            continue
        if accept:
            injected, evidence = ref, {}
        else:
            made = FAILURES[failure](ref, rng)
            if made is None:
                continue
            injected, detail = made
            try:  # a kind may forbid the changed data (e.g. a span whose end precedes its start)
                injected = injected.validate()
            except SpecError:
                continue
            # A failure is verified as injected, at the reference's size (verifiers compare the two
            # renders mark by mark); the benign re-render on top cannot undo it.
            evidence = _verified(failure, ref, injected, r_ref, render(injected), detail)
            if evidence is None:
                continue
        drawn = _drawn(seed, key, attempt, ref, r_ref, injected, resize, accept)
        if drawn is None:
            continue
        cand, r_cand, rerender = drawn
        evidence = {**evidence, **rerender, "changed_fields": sorted(changed_fields(ref, cand)), "attempt": attempt}
        return {"reference": ref, "candidate": cand, "r_reference": r_ref, "r_candidate": r_cand,
                "label": "Accept" if accept else "Reject", "failure": failure, "evidence": evidence}
    return None
