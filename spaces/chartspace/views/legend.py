"""Legend groups view (``chartprobe-legend``): a base chart beside its legend interventions.

Coded to the row contract in ``docs/legend_schema.md``. A page is a counterfactual group
(``group_id``): the base row (``expected == "base"``) and every intervention variant with
its expected behaviour (preserve / alter / abstain) and gold answer. Below it, the
diagnostic chain of the target question: the ``chain_id`` rows of the same chart ordered
parse → bind/locate → value → reason, with each model's verdict on the whole chain.
Filters: config (snapshot and the three studies), intervention family, chart kind and, with
predictions loaded, "only wrong" / "models disagree" (a group is listed when one shown member
passes). Each card outlines the legend entries its question needs (the row's ``evidence``
ids, located by its ``legend_boxes``) on the chart.
"""

from __future__ import annotations

from typing import Any

from chartspace.evidence import legend_boxes
from chartspace.html import Markup, badge, card, esc, grid, info_box, marks, table
from chartspace.source import DataSource, group_rows
from chartspace.verdicts import filter_note, unit_passes, verdict_choices
from chartspace.views._common import (
    ALL,
    ViewHandle,
    choices,
    guarded,
    keep,
    page_of,
    pager,
    pick_config,
    wire,
)

__all__ = ["CHAIN_ORDER", "RELEASE", "TITLE", "build", "group_page"]

RELEASE = "legend"
TITLE = "Legend groups"
COLUMNS = ("id", "group_id", "base_id", "chain_id", "chain_role", "capability", "template", "intervention",
           "intervention_family", "expected", "chart_kind", "question", "answer", "target", "legend_form",
           "study_factor", "study_level", "evidence", "legend_boxes")
CHAIN_ORDER = {"parse": 0, "bind": 1, "locate": 1, "value": 2, "reason": 3}
"""LegendBench's encoding -> binding -> inference order (locate replaces bind on colourbars)."""
_EXPECTED_CSS = {"base": "cp-base", "alter": "cp-changed", "abstain": "cp-changed"}


def _card(source: DataSource, preds: Any, where: tuple[str, str], cols: dict[str, list], i: int,
          base_question: str) -> Markup:
    is_base = cols["expected"][i] == "base"
    title = "base" if is_base else f"{cols['intervention'][i]} ({cols['intervention_family'][i]})"
    lines: list[Any] = [] if is_base else [Markup(f"expected: {badge(cols['expected'][i])}")]
    if cols["question"][i] != base_question or is_base:
        lines.append(f"Q: {cols['question'][i]}")
    lines.append(Markup(f"gold: <b>{esc(cols['answer'][i])}</b>"))
    if cols["study_level"][i]:
        lines.append(f"{cols['study_factor'][i]}: {cols['study_level'][i]}")
    if preds.runs:
        lines.append(marks(preds.lookup(RELEASE, cols["id"][i])))
    ev, where_boxes = cols.get("evidence"), cols.get("legend_boxes")  # absent from older releases
    boxes = legend_boxes(ev[i], where_boxes[i]) if ev and where_boxes else ()  # the entries the question needs
    uri = source.marked_thumbnail(RELEASE, *where, i, "image", boxes)
    return card(uri, title, lines, _EXPECTED_CSS.get(cols["expected"][i], ""))


def _chains(cols: dict[str, list], base: int) -> dict[str, list[int]]:
    """The chains of the base row's chart: its own chain if it has one, else those asking
    about its target, else every chain of the chart."""
    same_chart = [i for i, b in enumerate(cols["base_id"]) if b == cols["base_id"][base] and cols["chain_id"][i]]
    chains = group_rows([cols["chain_id"][i] for i in same_chart])
    chains = {cid: [same_chart[k] for k in ks] for cid, ks in chains.items()}
    if cols["chain_id"][base] in chains:
        return {cols["chain_id"][base]: chains[cols["chain_id"][base]]}
    on_target = {c: rs for c, rs in chains.items() if any(cols["target"][i] == cols["target"][base] for i in rs)}
    return on_target or chains


def _chain_table(preds: Any, cols: dict[str, list], chains: dict[str, list[int]]) -> Markup:
    parts = []
    for cid, rows in chains.items():
        rows = sorted(rows, key=lambda i: CHAIN_ORDER.get(cols["chain_role"][i], 9))
        headers = ["role", "capability", "question", "gold"] + (["predictions"] if preds.runs else [])
        body = [[cols["chain_role"][i], cols["capability"][i], cols["question"][i],
                 Markup(f"<b>{esc(cols['answer'][i])}</b>")]
                + ([marks(preds.lookup(RELEASE, cols["id"][i]))] if preds.runs else []) for i in rows]
        verdicts = ""
        for model in preds.runs:
            scores = [preds.lookup(RELEASE, cols["id"][i])[model][0] for i in rows]
            ok = all(s is not None and s >= 1.0 for s in scores)
            verdicts += str(badge(f"{model}: chain {'✓' if ok else '✗'}", "cp-ok" if ok else "cp-bad"))
        parts.append(f"<h4>Diagnostic chain <code>{esc(cid)}</code> {verdicts}</h4>{table(headers, body)}")
    return Markup("".join(parts) or str(info_box("This chart's target question has no diagnostic chain.")))


def group_page(source: DataSource, preds: Any, config: str, split: str, family: str, kind: str,
               index: int, verdict: str | None = None) -> dict[str, Any]:
    """Filter options, the group's header and cards, and its diagnostic chain."""
    cols = source.columns(RELEASE, config, split, COLUMNS)
    families = choices(f for f in cols["intervention_family"] if f != "none")
    kinds = choices(cols["chart_kind"])
    family, kind = keep(family, families, ALL), keep(kind, kinds, ALL)
    verdicts = verdict_choices(preds, ALL)
    verdict = keep(verdict, verdicts, ALL)
    groups = []
    for gid, rows in group_rows(cols["group_id"]).items():
        base = next((i for i in rows if cols["expected"][i] == "base"), rows[0])
        shown = [i for i in rows if i == base or family in (ALL, cols["intervention_family"][i])]
        if kind in (ALL, cols["chart_kind"][base]) and len(shown) > (0 if family == ALL else 1) \
                and unit_passes(preds, RELEASE, (cols["id"][i] for i in shown), verdict):
            groups.append((gid, base, shown))
    page = {"families": families, "family": family, "kinds": kinds, "kind": kind, "n": len(groups),
            "verdicts": verdicts, "verdict": verdict,
            "index": page_of(index, len(groups)), "header": "", "grid": "", "chain": ""}
    if not groups:
        return page
    gid, base, shown = groups[page["index"] - 1]
    page["header"] = Markup(
        f"Group {page['index']} of {page['n']} — <code>{esc(gid)}</code> · {esc(cols['chart_kind'][base])} · "
        f"legend {esc(cols['legend_form'][base])} · template <code>{esc(cols['template'][base])}</code>"
        f"<br><b>Q:</b> {esc(cols['question'][base])} <b>gold:</b> {esc(cols['answer'][base])}")
    page["grid"] = grid(_card(source, preds, (config, split), cols, i, cols["question"][base]) for i in shown)
    page["chain"] = _chain_table(preds, cols, _chains(cols, base))
    return page


def build(source: DataSource, state: Any) -> ViewHandle:
    """Create the view's components inside the current Blocks context and wire them."""
    import gradio as gr

    with gr.Row():
        config = gr.Dropdown(label="Config", choices=[], elem_id="legend-config")
        family = gr.Dropdown(label="Intervention family", choices=[ALL], value=ALL, elem_id="legend-family")
        kind = gr.Dropdown(label="Chart kind", choices=[ALL], value=ALL, elem_id="legend-kind")
        verdict = gr.Dropdown(label="Predictions", choices=[ALL], value=ALL, elem_id="legend-verdict")
    controls = pager("legend", "Group")
    status = gr.HTML(elem_id="legend-status")
    members = gr.HTML(elem_id="legend-grid")
    chain = gr.HTML(elem_id="legend-chain")
    outputs = [config, family, kind, verdict, controls[1], status, members, chain]

    @guarded(len(outputs), status_at=5)
    def render(preds, cfg, fam, knd, vrd, index):
        cfg = pick_config(source, RELEASE, cfg, "snapshot")
        split = keep("test", source.splits(RELEASE, cfg))
        p = group_page(source, preds, cfg, split, fam, knd, index, vrd)
        note = filter_note(p["header"], p["verdict"]) if p["n"] else info_box("No group matches these filters.")
        return (gr.update(choices=source.configs(RELEASE), value=cfg),
                gr.update(choices=p["families"], value=p["family"]),
                gr.update(choices=p["kinds"], value=p["kind"]),
                gr.update(choices=p["verdicts"], value=p["verdict"]), p["index"], note, p["grid"], p["chain"])

    wire(render, state, [config, family, kind, verdict], controls, outputs)
    return ViewHandle(TITLE, render, [state, config, family, kind, verdict, controls[1]], outputs)
