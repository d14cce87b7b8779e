"""Leaderboard tab: model × task metrics of the loaded runs (:mod:`chartspace.leaderboard`).

Source: lm-eval's own table (``results_*.json`` beside the samples, with its standard
errors) or ``chartprobe score``'s recomputation from the samples; a metric filter narrows
the table to one metric across tasks; below it, each run's provenance (release, preset,
generator, content hash, lm-eval version, model and generation arguments). Re-rendered whenever
the tab opens.
"""

from __future__ import annotations

from typing import Any

from chartspace.html import Markup, esc, info_box, table
from chartspace.leaderboard import board, cell
from chartspace.provenance import provenance_table
from chartspace.views._common import ViewHandle, guarded

__all__ = ["TITLE", "board_html", "build"]

TITLE = "Leaderboard"


def board_html(preds: Any, source: str | None, metric: str | None) -> tuple[Any, Markup, Markup, Any]:
    """(board, status line, table HTML, the board's source) for the current choices."""
    b = board(preds, source, metric)
    if not b.rows:
        return b, info_box("Load predictions in the Predictions tab: the leaderboard lists their tasks."), Markup(""), None
    rows = [[Markup(f"<code>{esc(task)}</code>"), name, *(cell(v) for v in values)] for task, name, values in b.rows]
    note = Markup(f"{len(b.models)} model(s) × {len(b.tasks)} task(s) — source: <b>{esc(b.source)}</b>")
    header, prov = provenance_table(preds)  # which release and run each number comes from
    body = Markup(table(["task", "metric", *b.models], rows) + Markup("<h4>Provenance</h4>")
                  + table(header, prov))
    return b, note, body, b.source


def build(state: Any) -> ViewHandle:
    """Create the tab's components (source and metric dropdowns, status, table) and wire them."""
    import gradio as gr

    with gr.Row():
        source = gr.Dropdown(label="Source", choices=[], elem_id="leaderboard-source")
        metric = gr.Dropdown(label="Metric", choices=[], elem_id="leaderboard-metric")
    status = gr.HTML(elem_id="leaderboard-status")
    body = gr.HTML(elem_id="leaderboard-table")
    outputs = [source, metric, status, body]

    @guarded(len(outputs), status_at=2)
    def render(preds, src, met):
        from chartspace.leaderboard import sources

        b, note, html, chosen = board_html(preds, src, met)
        return (gr.update(choices=sources(preds), value=chosen), gr.update(choices=b.metrics, value=b.metric),
                note, html)

    for control in (source, metric):
        control.input(render, [state, source, metric], outputs)
    return ViewHandle(TITLE, render, [state, source, metric], outputs)
