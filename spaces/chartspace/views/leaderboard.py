"""Leaderboard tab: one row per loaded model, one column per (task, metric) (:mod:`chartspace.leaderboard`).

Source: lm-eval's own table (``results_*.json`` beside the samples, with its standard
errors) or ``chartprobe score``'s recomputation from the samples; the metric choice shows
the headline metrics (default; with coverage where the run has it), all metrics, or one
metric across tasks; each column header names its task's split; below it, each run's provenance (release, preset,
generator, content hash, lm-eval version, model and generation arguments). Re-rendered whenever
the tab opens.
"""

from __future__ import annotations

from typing import Any

from chartspace.html import Markup, esc, info_box, table
from chartspace.leaderboard import board, cell, split_of
from chartspace.provenance import provenance_table
from chartspace.views._common import ViewHandle, guarded

__all__ = ["TITLE", "board_html", "build"]

TITLE = "Leaderboard"


def board_html(preds: Any, source: str | None, metric: str | None) -> tuple[Any, Markup, Markup, Any]:
    """(board, status line, table HTML, the board's source) for the current choices."""
    b = board(preds, source, metric)
    if not b.rows:
        return b, info_box("Load predictions in the Predictions tab: the leaderboard lists their tasks."), Markup(""), None
    # models as rows: a wide task list stays readable, and a new model is one more row
    heads = [Markup(f"<code>{esc(task)}</code><br>{esc(name)} <small>[{esc(split_of(task))}]</small>")
             for task, name, _ in b.rows]
    rows = [[Markup(f"<b>{esc(model)}</b>"), *(cell(values[i]) for _, _, values in b.rows)]
            for i, model in enumerate(b.models)]
    note = Markup(f"{len(b.models)} model(s) × {len(b.tasks)} task(s) — source: <b>{esc(b.source)}</b>"
                  f" — {esc(b.metric)}")
    header, prov = provenance_table(preds)  # which release and run each number comes from
    body = Markup(table(["model", *heads], rows) + Markup("<h4>Provenance</h4>")
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
