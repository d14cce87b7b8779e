"""Probes view (``chartprobe-probes``): one chart with all its probes, grounding boxes drawn.

Filters: domain (the config: bar, hbar, pie, shapes and the held-out ``cr_*`` sets), split,
skill, template and, with predictions loaded, "only wrong" / "models disagree"
(:mod:`chartspace.verdicts`). Charts are the pages; a chart is listed when one of its probes
passes the filters, and the table shows those probes (a style-shift chart: one page per
drawing; a real-table chart: where its data came from, above the table). Gold boxes of ``bbox``
probes are outlined in green, each loaded model's parsed box in red.
"""

from __future__ import annotations

import json
from typing import Any

from chartspace.html import Markup, esc, info_box, marks, table
from chartspace.images import GOLD, PRED, draw_boxes
from chartspace.source import DataSource, group_rows
from chartspace.verdicts import filter_note, item_passes, verdict_choices
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

__all__ = ["RELEASE", "TITLE", "build", "chart_page"]

RELEASE = "probes"
TITLE = "Probes"
COLUMNS = ("id", "chart_id", "template_id", "skill", "question", "answer", "answer_type", "target_bbox",
           "style", "source")
"""``style`` (style-shift configs) and ``source`` (real-table configs) are read where a config has them."""


def _matches(cols: dict[str, list], i: int, skill: str, template: str) -> bool:
    return (skill in (ALL, None) or cols["skill"][i] == skill) and (
        template in (ALL, None) or cols["template_id"][i] == template)


def _boxes(cols: dict[str, list], rows: list[int], preds: Any) -> list[tuple]:
    """Gold boxes of the shown bbox probes, plus each model's predicted box when parsable."""
    from chartprobe.eval_tasks.scoring.parsing import parse_bbox

    gold, predicted = [], []
    for i in rows:
        if cols["answer_type"][i] != "bbox" or cols["target_bbox"][i] is None:
            continue
        gold.append((cols["target_bbox"][i], cols["template_id"][i], GOLD))
        for model, (_, answer) in preds.lookup(RELEASE, cols["id"][i]).items():
            box = parse_bbox(answer) if answer else None
            if box is not None:
                predicted.append((box, model, PRED))
    return predicted + gold  # the gold on top: a prediction equal to it must not hide it


def _provenance(cols: dict[str, list], i: int) -> Markup:
    """Where a real-table chart's data came from (the row's ``source``); empty for sampled data."""
    if not cols.get("source") or not cols["source"][i]:
        return Markup("")
    src = json.loads(cols["source"][i])
    t = src["table"]
    held = ", ".join(f"{k} = {v}" for k, v in src["filter"].items()) or "all records"
    return Markup(f'<p class="cp-provenance">Data: <code>{esc(t["name"])}</code> ({esc(t["package"])} '
                  f'{esc(t["version"])}, sha256 <code>{esc(t["sha256"][:12])}</code>), {esc(src["agg"])} of '
                  f'<code>{esc(src["measure"])}</code> per category, {esc(held)}</p>')


def chart_page(source: DataSource, preds: Any, config: str, split: str, skill: str, template: str,
               index: int, verdict: str | None = None) -> dict[str, Any]:
    """Everything one page shows: filter options, the chart image and its probe table."""
    cols = source.columns(RELEASE, config, split, COLUMNS)
    verdicts = verdict_choices(preds, ALL)
    verdict = keep(verdict, verdicts, ALL)

    def shows(i: int) -> bool:
        return _matches(cols, i, skill, template) and item_passes(preds, RELEASE, cols["id"][i], verdict)

    skills = choices(cols["skill"])
    skill = keep(skill, skills, ALL)
    templates = choices(t for t, s in zip(cols["template_id"], cols["skill"]) if skill == ALL or s == skill)
    template = keep(template, templates, ALL)
    # A style-shift chart is drawn in several styles: each drawing is a page of its own.
    styles = cols.get("style") or [""] * len(cols["chart_id"])
    keys = [f"{c} · {s}" if s else c for c, s in zip(cols["chart_id"], styles)]
    charts = [(cid, rows) for cid, rows in group_rows(keys).items() if any(shows(i) for i in rows)]
    page = {"skills": skills, "skill": skill, "templates": templates, "template": template,
            "verdicts": verdicts, "verdict": verdict,
            "n": len(charts), "index": page_of(index, len(charts)), "image": None, "table": "", "chart_id": None}
    if not charts:
        return page
    chart_id, rows = charts[page["index"] - 1]
    shown = [i for i in rows if shows(i)]
    image = source.image(RELEASE, config, split, rows[0])
    boxes = _boxes(cols, shown, preds)
    page["image"] = draw_boxes(image, boxes) if boxes else image
    headers = ["template", "skill", "question", "answer"] + (["predictions"] if preds.runs else [])
    body = [[cols["template_id"][i], cols["skill"][i], cols["question"][i],
             Markup(f"<b>{esc(cols['answer'][i])}</b>")]
            + ([marks(preds.lookup(RELEASE, cols["id"][i]))] if preds.runs else []) for i in shown]
    page["table"] = _provenance(cols, rows[0]) + table(headers, body)
    page["chart_id"] = chart_id
    return page


def build(source: DataSource, state: Any) -> ViewHandle:
    """Create the view's components inside the current Blocks context and wire them."""
    import gradio as gr

    with gr.Row():
        config = gr.Dropdown(label="Domain (config)", choices=[], elem_id="probes-config")
        split = gr.Dropdown(label="Split", choices=[], elem_id="probes-split")
        skill = gr.Dropdown(label="Skill", choices=[ALL], value=ALL, elem_id="probes-skill")
        template = gr.Dropdown(label="Template", choices=[ALL], value=ALL, elem_id="probes-template")
        verdict = gr.Dropdown(label="Predictions", choices=[ALL], value=ALL, elem_id="probes-verdict")
    controls = pager("probes", "Chart")
    status = gr.HTML(elem_id="probes-status")
    with gr.Row():
        image = gr.Image(label="Chart", type="pil", interactive=False, elem_id="probes-image", scale=1)
        probes = gr.HTML(elem_id="probes-table")
    outputs = [config, split, skill, template, verdict, controls[1], status, image, probes]

    @guarded(len(outputs), status_at=6)
    def render(preds, cfg, spl, skl, tpl, vrd, index):
        cfg = pick_config(source, RELEASE, cfg, "bar")
        splits = source.splits(RELEASE, cfg)
        spl = keep(spl, splits, "test")
        p = chart_page(source, preds, cfg, spl, skl, tpl, index, vrd)
        note = (filter_note(f"Chart {p['index']} of {p['n']} — <code>{esc(p['chart_id'])}</code>", p["verdict"])
                if p["n"]
                else info_box("No chart has a probe matching these filters."))
        return (gr.update(choices=source.configs(RELEASE), value=cfg), gr.update(choices=splits, value=spl),
                gr.update(choices=p["skills"], value=p["skill"]),
                gr.update(choices=p["templates"], value=p["template"]),
                gr.update(choices=p["verdicts"], value=p["verdict"]), p["index"], note, p["image"], p["table"])

    wire(render, state, [config, split, skill, template, verdict], controls, outputs)
    return ViewHandle("Probes", render, [state, config, split, skill, template, verdict, controls[1]], outputs)
