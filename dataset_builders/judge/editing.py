"""CRJ Chart Editing items: an instruction, the original chart and an edited result.

Each edit knows its instruction, the honest result (CODE_HONEST: Accept), optionally a result
that gets the KEY PARAMETER wrong (CODE_FAIL: Reject) and the fields it touches; a side-effect
result (CODE_SIDE: Reject) is the honest one plus an unrequested change to another field.
Labels alternate by item index (50/50) and items 2m and 2m+1 ask the same edit type
(``EDITS`` in turn; a chart that cannot take the edit is redrawn, the edit is kept), so no
instruction predicts the label: before, an edit without a wrong-parameter result (add
grid lines) moved its Rejects to another edit and the instruction text alone beat the
majority by 15 points. Rejects alternate between fail and side effect (from the first cycle of
edits on); an edit without a fail result rejects by side effect. Verified on renders: the honest edit changes the
image, fail and side results differ from it, and an Accept result shows no defect
(``screen.flaws_shown``, no text collisions or legend on the data).

Every result is then re-rendered with a small benign draw (``benign.EDITING``: font size +-1,
line and marker weight, and a palette shade unless the edit names a colour); an Accept result takes, of several
verified draws, the one whose image statistics lie nearest a discarded Reject twin's. Before,
side-effect Rejects were always "the honest edit plus more", and gradient boosting on the
pixel differences, without the instruction, told Accept from Reject at AUC .81.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.charts import CHARTS
from ..core.rng import rng_for
from ..core.spec import ChartSpec, SpecError
from ..core.vocab import NAMED_COLORS
from .benign import DRAWS, EDITING, benign, nearest, pair_features
from .flaws._base import changed_fields

__all__ = ["EDITS", "build_editing"]

_CORNERS = ("upper left", "upper right", "lower left", "lower right")


def _rep(spec: ChartSpec, part: str, **changes: Any) -> ChartSpec:
    return spec.replace(**{part: dataclasses.replace(getattr(spec, part), **changes)})


def _move_legend(spec, rng):
    if spec.legend.form != "box":
        return None
    choices = [c for c in _CORNERS if c != spec.legend.position]
    target = choices[int(rng.integers(len(choices)))]
    wrong = [c for c in choices if c != target][int(rng.integers(len(choices) - 1))]
    return (f"Move the legend to the {target} corner inside the chart.",
            _rep(spec, "legend", position=target), _rep(spec, "legend", position=wrong))


def _y_range(spec, rng):
    if CHARTS.get(spec.kind).value_axis != "y" or spec.kind in ("radar",):
        return None
    vals = [v for s in spec.data.series for v in s.values]
    if spec.kind in ("stacked_bar", "area"):
        vals = [sum(col) for col in zip(*(s.values for s in spec.data.series))]
    if min(vals) < 0:
        return None
    top = float(10 * (int(max(vals) * 1.3) // 10 + 1))
    return (f"Set the y-axis range from 0 to {top:g}.", _rep(spec, "axes", y_limits=(0.0, top)),
            _rep(spec, "axes", y_limits=(0.0, top / 10)))  # the paper's "asks 0-100, sets 0-10"


def _recolor(spec, rng):
    if len(spec.encodings) < 1 or spec.kind == "heatmap":
        return None
    item = int(rng.integers(len(spec.encodings)))
    names = [n for n, h in NAMED_COLORS.items() if h.lower() not in {e.color.lower() for e in spec.encodings}]
    name, wrong = (names[int(i)] for i in rng.choice(len(names), size=2, replace=False))
    label = CHARTS.get(spec.kind)().legend_labels(spec)[item]

    def paint(color):
        encs = list(spec.encodings)
        encs[item] = dataclasses.replace(encs[item], color=NAMED_COLORS[color], colors=None)
        return spec.replace(encodings=tuple(encs))

    return f"Change the colour of '{label}' to {name}.", paint(name), paint(wrong)


def _value_labels(spec, rng):
    if spec.style.value_labels or spec.kind in ("heatmap",):
        return None
    return ("Add data value labels next to each data point to show the exact values.",
            _rep(spec, "style", value_labels=True), _rep(spec, "style", value_labels=True, value_label_anchor="center"))


def _title(spec, rng):
    words = ["Annual", "Regional", "Quarterly", "Overview:", "Summary of"]
    title = f"{words[int(rng.integers(len(words)))]} {spec.style.title or 'results'}".strip()
    return (f"Change the chart title to '{title}'.", _rep(spec, "style", title=title),
            _rep(spec, "style", title=title.rsplit(" ", 1)[0]))  # the requested text, truncated


def _grid(spec, rng):
    if spec.axes.grid or spec.kind in ("pie", "heatmap", "radar"):
        return None
    return "Add grid lines to the chart so values are easier to read.", _rep(spec, "axes", grid=True), None


EDITS = {"move_legend": _move_legend, "change_range": _y_range, "recolor": _recolor,
         "add_value_labels": _value_labels, "change_title": _title, "add_grid": _grid}


def _side_effect(spec: ChartSpec, honest: ChartSpec, rng) -> ChartSpec | None:
    """``honest`` plus one unrequested change to a field the instruction did not touch."""
    touched = changed_fields(spec, honest)
    options = []
    if "axes.grid" not in touched and spec.kind not in ("pie", "heatmap", "radar"):
        options.append(_rep(honest, "axes", grid=not honest.axes.grid))
    if "style.title" not in touched and honest.style.title:
        options.append(_rep(honest, "style", title=""))
    if "legend.position" not in touched and honest.legend.form == "box":
        options.append(_rep(honest, "legend", position="outside bottom"))
    if not {"encodings.color", "encodings.colors"} & touched and len(honest.encodings) >= 2:
        encs = list(honest.encodings)
        encs[0], encs[1] = encs[1], encs[0]  # colours swapped between two items
        options.append(honest.replace(encodings=tuple(encs)))
    return options[int(rng.integers(len(options)))] if options else None


def _rendered(drawn: tuple[ChartSpec, dict], original: ChartSpec, r_orig: Any, check: bool) -> tuple | None:
    """(spec, render, benign detail) of a benign draw; with ``check``, None unless it is a clean
    Accept (changes the image, no defect: the paper's rubric rejects a legend on the data or
    colliding texts, so such an honest edit is not an Accept item)."""
    from ..core.render import render
    from .cpa import is_clean
    from .screen import flaws_shown

    try:
        spec = drawn[0].validate()
    except SpecError:
        return None
    r = render(spec)
    if r.png == r_orig.png or (check and (not is_clean(r) or flaws_shown(r_orig, r, original, spec))):
        return None
    return spec, r, drawn[1]


def _accepted(seed: int, key: str, attempt: int, original: ChartSpec, r_orig: Any, honest: ChartSpec,
              fail: ChartSpec | None, shade: bool) -> tuple | None:
    """The honest edit under the verified benign draw nearest a Reject twin's image statistics."""
    from ..core.render import render

    rng = rng_for(seed, key, "twin", attempt)
    twin = fail if fail is not None and rng.random() < 0.5 else _side_effect(original, honest, rng)
    target = None
    if twin is not None:
        try:
            target = pair_features(r_orig, render(benign(twin, rng, False, shade, EDITING)[0].validate()))
        except SpecError:
            target = None
    options = [o for i in range(DRAWS) if (o := _rendered(
        benign(honest, rng_for(seed, key, "benign", attempt, i), False, shade, EDITING), original, r_orig, check=True))]
    if not options:
        return None
    return options[nearest([pair_features(r_orig, o[1]) for o in options], target)]


def build_editing(seed: int, key: str, index: int) -> dict | None:
    """One editing item (instruction, original, result, label, failure, evidence) or None."""
    from ..core.render import render, sample_spec
    from .cpa import cleaned, is_clean

    accept = index % 2 == 0
    names = list(EDITS)
    m = index // 2
    edit = names[m % len(names)]
    # Reject kinds alternate within a cycle of edits and swap between cycles: the first 2 x len(EDITS)
    # items already hold both kinds (a small preset saw only wrong parameters before item 12),
    # and over two cycles every edit is rejected both ways.
    wanted = "none" if accept else ("key_parameter", "side_effect")[(m + m // len(names)) % 2]
    for attempt in range(16):
        rng = rng_for(seed, key, "attempt", attempt)
        kinds = CHARTS.names()
        original, r_orig = cleaned(sample_spec(kinds[int(rng.integers(len(kinds)))], rng))
        made = EDITS[edit](original, rng) if is_clean(r_orig) else None
        if made is None:
            continue
        instruction, honest, fail = made
        failure = "side_effect" if wanted == "key_parameter" and fail is None else wanted
        result = {"none": honest, "key_parameter": fail}.get(failure) if failure != "side_effect" \
            else _side_effect(original, honest, rng)
        if result is None:
            continue
        try:  # a kind may refuse the edited spec: try another chart
            result, honest = result.validate(), honest.validate()
        except SpecError:
            continue
        r_honest, r_result = render(honest), render(result)
        if r_orig.png in (r_honest.png, r_result.png) or (failure != "none" and r_result.png == r_honest.png):
            continue
        shade = edit != "recolor"
        if accept:
            drawn = _accepted(seed, key, attempt, original, r_orig, honest, fail, shade)
        else:
            drawn = _rendered(benign(result, rng, False, shade, EDITING), original, r_orig, check=False)
        if drawn is None:
            continue
        result, r_result, rerender = drawn
        evidence = {"edit": edit, "requested_fields": sorted(changed_fields(original, honest)),
                    "changed_fields": sorted(changed_fields(original, result)), "attempt": attempt,
                    "rerender": rerender}
        return {"reference": original, "candidate": result, "r_reference": r_orig, "r_candidate": r_result,
                "label": "Accept" if accept else "Reject", "failure": failure, "instruction": instruction,
                "edit": edit, "evidence": evidence}
    return None
