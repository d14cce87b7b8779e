"""Families view (``chartprobe-families``): original, reconstruction and the 10 variants of a family.

Each member is a card with its gold answer; variants whose answer differs from the
original's are highlighted (amber border, "answer changed"), so one glance shows what a
model that repeats the original answer gets wrong. Filters: config (question group, ``all``
or ``resolution``), source template, reasoning type and, with predictions loaded, "only
wrong" / "models disagree" (a family is listed when one member passes); families are the pages.
"""

from __future__ import annotations

from typing import Any

from chartspace.html import Markup, badge, card, esc, grid, info_box, marks
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

__all__ = ["RELEASE", "TITLE", "build", "family_page"]

RELEASE = "families"
TITLE = "Families"
COLUMNS = ("id", "family_id", "source", "role", "variant_seed", "regime", "reasoning_type", "chart_kind",
           "question", "answer", "original_answer", "question_adapted", "scale")
_ROLE_ORDER = {"original": 0, "reconstruction": 1, "variant": 2}


def _title(cols: dict[str, list], i: int) -> str:
    role = cols["role"][i]
    if role == "variant":
        return f"variant {cols['variant_seed'][i]} · {cols['regime'][i]}"
    scale = cols["scale"][i] if "scale" in cols else None
    return f"{role} · {round(100 * scale)}%" if scale not in (None, 1.0) else role


def _card(source: DataSource, preds: Any, config: str, split: str, cols: dict[str, list], i: int) -> Markup:
    changed = cols["role"][i] == "variant" and cols["answer"][i] != cols["original_answer"][i]
    lines: list[Any] = [Markup(f"gold: <b>{esc(cols['answer'][i])}</b>")]
    if changed:
        lines.append(badge("answer changed", "cp-changed"))
    if cols["question_adapted"][i]:
        lines.append(f"adapted question: {cols['question'][i]}")
    if preds.runs:
        lines.append(marks(preds.lookup(RELEASE, cols["id"][i])))
    uri = source.thumbnail(RELEASE, config, split, i)
    css = "cp-changed" if changed else ("cp-base" if cols["role"][i] == "original" else "")
    return card(uri, _title(cols, i), lines, css)


def family_page(source: DataSource, preds: Any, config: str, split: str, src: str, rtype: str,
                index: int, verdict: str | None = None) -> dict[str, Any]:
    """Filter options, the family's header and its member cards."""
    cols = source.columns(RELEASE, config, split, COLUMNS)
    sources, rtypes = choices(cols["source"]), choices(cols["reasoning_type"])
    src, rtype = keep(src, sources, ALL), keep(rtype, rtypes, ALL)
    verdicts = verdict_choices(preds, ALL)
    verdict = keep(verdict, verdicts, ALL)
    families = [(fid, rows) for fid, rows in group_rows(cols["family_id"]).items()
                if src in (ALL, cols["source"][rows[0]]) and rtype in (ALL, cols["reasoning_type"][rows[0]])
                and unit_passes(preds, RELEASE, (cols["id"][i] for i in rows), verdict)]
    page = {"sources": sources, "source": src, "rtypes": rtypes, "rtype": rtype, "n": len(families),
            "verdicts": verdicts, "verdict": verdict,
            "index": page_of(index, len(families)), "header": "", "grid": ""}
    if not families:
        return page
    fid, rows = families[page["index"] - 1]
    rows = sorted(rows, key=lambda i: (_ROLE_ORDER.get(cols["role"][i], 3), cols["variant_seed"][i]))
    variants = [i for i in rows if cols["role"][i] == "variant"]
    n_changed = sum(cols["answer"][i] != cols["original_answer"][i] for i in variants)
    first = rows[0]
    page["header"] = Markup(
        f"Family {page['index']} of {page['n']} — <code>{esc(fid)}</code> · source "
        f"<code>{esc(cols['source'][first])}</code> · {esc(cols['chart_kind'][first])} · reasoning "
        f"{esc(cols['reasoning_type'][first])}<br><b>Q:</b> {esc(cols['question'][first])} "
        f"<b>original answer:</b> {esc(cols['original_answer'][first])}"
        + (f"<br>{n_changed} of {len(variants)} variants change the answer." if variants else ""))
    page["grid"] = grid(_card(source, preds, config, split, cols, i) for i in rows)
    return page


def build(source: DataSource, state: Any) -> ViewHandle:
    """Create the view's components inside the current Blocks context and wire them."""
    import gradio as gr

    with gr.Row():
        config = gr.Dropdown(label="Config", choices=[], elem_id="families-config")
        src = gr.Dropdown(label="Source template", choices=[ALL], value=ALL, elem_id="families-source")
        rtype = gr.Dropdown(label="Reasoning type", choices=[ALL], value=ALL, elem_id="families-reasoning")
        verdict = gr.Dropdown(label="Predictions", choices=[ALL], value=ALL, elem_id="families-verdict")
    controls = pager("families", "Family")
    status = gr.HTML(elem_id="families-status")
    members = gr.HTML(elem_id="families-grid")
    outputs = [config, src, rtype, verdict, controls[1], status, members]

    @guarded(len(outputs), status_at=5)
    def render(preds, cfg, s, r, v, index):
        cfg = pick_config(source, RELEASE, cfg, "all")
        split = keep("test", source.splits(RELEASE, cfg))
        p = family_page(source, preds, cfg, split, s, r, index, v)
        note = filter_note(p["header"], p["verdict"]) if p["n"] else info_box("No family matches these filters.")
        return (gr.update(choices=source.configs(RELEASE), value=cfg),
                gr.update(choices=p["sources"], value=p["source"]),
                gr.update(choices=p["rtypes"], value=p["rtype"]),
                gr.update(choices=p["verdicts"], value=p["verdict"]), p["index"], note, p["grid"])

    wire(render, state, [config, src, rtype, verdict], controls, outputs)
    return ViewHandle(TITLE, render, [state, config, src, rtype, verdict, controls[1]], outputs)
