"""Judge items view (``chartprobe-judge``): CPA chart pairs and CRJ accept/reject items.

CPA (``cpa``): the better and the worse chart side by side, the flaw criterion, dimension
and strategy, and the evidence the flaw's ``verify`` stored, its boxes and the elements it
names outlined on the worse chart (:mod:`chartspace.evidence`), its other facts in a table;
each model's choice for both presentation orders and its two-pass verdict. CRJ
(``crj_reproduction``, ``crj_editing``): the reference and the candidate chart (evidence
boxes outlined) with the instruction and the gold label. Filters: config, criterion (CPA) or
injected failure (CRJ), chart kind and, with predictions loaded, "only wrong" / "models
disagree" (a CPA pair passes when one of its two orders does); items are the pages.
"""

from __future__ import annotations

from typing import Any

from chartspace.evidence import evidence_facts, judge_boxes
from chartspace.html import Markup, badge, card, esc, grid, info_box, marks, table
from chartspace.source import DataSource
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

__all__ = ["RELEASE", "TITLE", "build", "item_page"]

RELEASE = "judge"
TITLE = "Judge items"
CPA_COLUMNS = ("id", "pair_id", "criterion", "dimension", "strategy", "chart_kind", "evidence", "spec_worse")
CRJ_COLUMNS = ("id", "item_id", "task", "instruction", "question", "label", "failure", "edit", "chart_kind",
               "evidence")
ORDERS = (("better_first", "better chart shown first (gold A)"), ("worse_first", "worse chart shown first (gold B)"))


def _evidence(text: str, n_boxes: int) -> Markup:
    """The evidence's facts as a table; its boxes are drawn on the chart, not printed."""
    drawn = (f"{n_boxes} evidence box(es) outlined in orange on the chart." if n_boxes
             else "This evidence names no box on the chart.")
    return Markup(f"<div>{esc(drawn)}</div>" + table(["evidence", "value"], evidence_facts(text)))


def _row_ids(cols: dict[str, list], i: int, is_cpa: bool) -> list[str]:
    """The prediction ids of an item: a CPA pair's two orders, else the row id."""
    return [f"{cols['pair_id'][i]}-{o}" for o, _ in ORDERS] if is_cpa else [cols["id"][i]]


def _cpa(source: DataSource, preds: Any, where: tuple[str, str], cols: dict[str, list], i: int) -> tuple:
    flaw = f"{cols['criterion'][i]} / {cols['strategy'][i]}"
    boxes = judge_boxes(cols["evidence"][i], cols.get("spec_worse", [None] * (i + 1))[i])
    left = card(source.thumbnail(RELEASE, *where, i, "image_better", 480), "better", ["the unflawed chart"],
                "cp-base")
    right = card(source.marked_thumbnail(RELEASE, *where, i, "image_worse", boxes, 480), "worse",
                 [Markup(f"flaw: {badge(flaw, 'cp-changed')}"), f"dimension: {cols['dimension'][i]}"],
                 "cp-changed")
    verdict = ""
    if preds.runs:
        per_order = {o: preds.lookup(RELEASE, f"{cols['pair_id'][i]}-{o}") for o, _ in ORDERS}
        lines = [f"<div>{esc(label)}: {marks(per_order[o])}</div>" for o, label in ORDERS]
        for model in preds.runs:
            ok = all((per_order[o][model][0] or 0.0) >= 1.0 for o, _ in ORDERS)
            lines.append(str(badge(f"{model}: two-pass {'✓' if ok else '✗'}", "cp-ok" if ok else "cp-bad")))
        verdict = "".join(lines)
    header = Markup(f"<code>{esc(cols['pair_id'][i])}</code> · {esc(cols['chart_kind'][i])} · "
                    f"criterion <b>{esc(cols['criterion'][i])}</b> · strategy {esc(cols['strategy'][i])}")
    return header, Markup(grid([left, right], two=True) + verdict), _evidence(cols["evidence"][i], len(boxes))


def _crj(source: DataSource, preds: Any, where: tuple[str, str], cols: dict[str, list], i: int) -> tuple:
    left = card(source.thumbnail(RELEASE, *where, i, "image_reference", 480), "reference", [], "cp-base")
    boxes = judge_boxes(cols["evidence"][i])  # boxes the verification measured on the candidate
    right = card(source.marked_thumbnail(RELEASE, *where, i, "image_candidate", boxes, 480), "candidate",
                 [Markup(f"gold label: <b>{esc(cols['label'][i])}</b>"),
                  f"injected failure: {cols['failure'][i]}"], "cp-changed" if cols["failure"][i] != "none" else "")
    ask = cols["instruction"][i] or cols["question"][i]
    header = Markup(f"<code>{esc(cols['item_id'][i])}</code> · {esc(cols['task'][i])} · "
                    f"{esc(cols['chart_kind'][i])}" + (f" · edit {esc(cols['edit'][i])}" if cols["edit"][i] else "")
                    + f"<br><b>Instruction:</b> {esc(ask)} <b>label:</b> {esc(cols['label'][i])}")
    body = grid([left, right], two=True)
    if preds.runs:
        body = Markup(body + f"<div>{marks(preds.lookup(RELEASE, cols['id'][i]))}</div>")
    return header, body, _evidence(cols["evidence"][i], len(boxes))


def item_page(source: DataSource, preds: Any, config: str, split: str, flaw: str, kind: str,
              index: int, verdict: str | None = None) -> dict[str, Any]:
    """Filter options and the item's header, side-by-side charts and stored evidence."""
    is_cpa = config == "cpa"
    cols = source.columns(RELEASE, config, split, CPA_COLUMNS if is_cpa else CRJ_COLUMNS)
    key = "criterion" if is_cpa else "failure"
    flaws, kinds = choices(cols[key]), choices(cols["chart_kind"])
    flaw, kind = keep(flaw, flaws, ALL), keep(kind, kinds, ALL)
    verdicts = verdict_choices(preds, ALL)
    verdict = keep(verdict, verdicts, ALL)
    rows = [i for i in range(len(cols["id"]))
            if flaw in (ALL, cols[key][i]) and kind in (ALL, cols["chart_kind"][i])
            and unit_passes(preds, RELEASE, _row_ids(cols, i, is_cpa), verdict)]
    page = {"verdicts": verdicts, "verdict": verdict, "flaws": flaws, "flaw": flaw, "flaw_label": "Flaw criterion" if is_cpa else "Injected failure",
            "kinds": kinds, "kind": kind, "n": len(rows), "index": page_of(index, len(rows)),
            "header": "", "body": "", "evidence": ""}
    if rows:
        i = rows[page["index"] - 1]
        header, page["body"], page["evidence"] = (_cpa if is_cpa else _crj)(source, preds, (config, split), cols, i)
        page["header"] = Markup(f"Item {page['index']} of {page['n']} — {header}")
    return page


def build(source: DataSource, state: Any) -> ViewHandle:
    """Create the view's components inside the current Blocks context and wire them."""
    import gradio as gr

    with gr.Row():
        config = gr.Dropdown(label="Config", choices=[], elem_id="judge-config")
        flaw = gr.Dropdown(label="Flaw criterion", choices=[ALL], value=ALL, elem_id="judge-flaw")
        kind = gr.Dropdown(label="Chart kind", choices=[ALL], value=ALL, elem_id="judge-kind")
        verdict = gr.Dropdown(label="Predictions", choices=[ALL], value=ALL, elem_id="judge-verdict")
    controls = pager("judge", "Item")
    status = gr.HTML(elem_id="judge-status")
    body = gr.HTML(elem_id="judge-pair")
    with gr.Accordion("Stored evidence", open=True):
        evidence = gr.HTML(elem_id="judge-evidence")
    outputs = [config, flaw, kind, verdict, controls[1], status, body, evidence]

    @guarded(len(outputs), status_at=5)
    def render(preds, cfg, flw, knd, vrd, index):
        cfg = pick_config(source, RELEASE, cfg, "cpa")
        split = keep("test", source.splits(RELEASE, cfg))
        p = item_page(source, preds, cfg, split, flw, knd, index, vrd)
        note = filter_note(p["header"], p["verdict"]) if p["n"] else info_box("No item matches these filters.")
        return (gr.update(choices=source.configs(RELEASE), value=cfg),
                gr.update(choices=p["flaws"], value=p["flaw"], label=p["flaw_label"]),
                gr.update(choices=p["kinds"], value=p["kind"]),
                gr.update(choices=p["verdicts"], value=p["verdict"]), p["index"], note, p["body"], p["evidence"])

    wire(render, state, [config, flaw, kind, verdict], controls, outputs)
    return ViewHandle(TITLE, render, [state, config, flaw, kind, verdict, controls[1]], outputs)
