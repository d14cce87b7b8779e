"""Predictions tab: load a model's predictions (upload, or the server's allowlisted folder).

Accepted: lm-eval ``--log_samples`` files (``samples_<task>_<date>.jsonl``, one model per
load; name it; with lm-eval's ``results_<date>.json`` for the leaderboard) and ``chartprobe
score`` results (``.json``, every model in the file). Load
several models to compare them: every view then shows one badge per model on each item.
Problems are reported in the page; the session's other models stay loaded.

Disk (``chartspace.workspace``): what sits in the upload box counts against the session's
quota and is deleted when the box is cleared, the tab closed, or a load ends, accepted or
rejected; the box is emptied after every load, so a file is never parsed twice.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import gradio as gr  # at module level: handlers' ``gr.Request`` annotations must resolve here

from chartspace.html import Markup, error_box, esc, info_box, table
from chartspace.predictions import (
    MAX_FILE_BYTES,
    MAX_TOTAL_BYTES,
    PredictionsError,
    PredictionSet,
    allowed_entries,
    load_allowed,
    load_uploads,
)
from chartspace.workspace import QuotaError

__all__ = ["build", "session_of", "unload_handler"]

log = logging.getLogger("chartspace")

INTRO = f"""Load predictions to mark every item in the views as correct (✓) or wrong (✗) with the
model's answer. **lm-eval samples**: the `samples_<task>_<date>.jsonl` files that
`lm_eval --log_samples` (or `chartprobe validate --predictions-out`) writes, for one model per load
(give it a name), with lm-eval's `results_<date>.json` for the leaderboard; a server folder is an
lm-eval `--output_path` model folder as it was written (`out/eval/<model>/`). Samples of tasks that
are not chartprobe's are skipped with a note. **Results**: the `.json` written by `chartprobe
score` (all its models).
At most {MAX_FILE_BYTES // 2**20} MB per file and {MAX_TOTAL_BYTES // 2**20} MB per load; files are deleted from
the server as soon as they are read. Load a second model to compare them side by side."""


def _models(preds: PredictionSet) -> Markup:
    if not preds.runs:
        return info_box("No predictions loaded.")
    return table(["model", "loaded"], [[run.name, run.summary] for run in preds.runs.values()])


def _load(preds: PredictionSet, loader: Any, workspace: Any) -> tuple:
    """Run ``loader(scratch folder)``; on any problem keep ``preds`` and show the message."""
    try:
        with workspace.scratch() as scratch:
            runs = loader(scratch)
    except PredictionsError as exc:
        message = str(exc)
    except Exception as exc:  # never a traceback in the page, never a dead app
        log.exception("loading predictions failed")
        message = f"could not read these predictions ({type(exc).__name__}: {exc})"
    else:
        for run in runs:
            preds = preds.with_run(run)
        names = ", ".join(f"<b>{esc(r.name)}</b> ({esc(r.summary)})" for r in runs)
        return preds, Markup(f'<div class="cp-info">Loaded {names}.</div>'), _models(preds)
    gr.Warning(message)
    return preds, error_box(message), _models(preds)


def session_of(request: Any) -> str:
    """The browser session a request belongs to (one upload box each)."""
    return str(getattr(request, "session_hash", None) or "anonymous")


def unload_handler(workspace: Any):
    """For ``demo.unload``: a closed or reloaded tab's upload box is deleted with it."""
    def end_session(request: gr.Request) -> None:
        workspace.release(session_of(request))

    return end_session


def build(state: Any, root: Path | None, workspace: Any) -> None:
    """Create the tab's components; views pick the new predictions up when their tab opens."""
    gr.Markdown(INTRO)
    with gr.Row():
        files = gr.File(label="Samples .jsonl or results .json", file_count="multiple",
                        file_types=[".jsonl", ".json"], elem_id="predictions-files")
        with gr.Column():
            model = gr.Textbox(label="Model name (for samples files)", value="my-model",
                               elem_id="predictions-model")
            upload = gr.Button("Load upload", variant="primary", elem_id="predictions-load")
    if root is not None:
        with gr.Row():
            entries = allowed_entries(root)
            choice = gr.Dropdown(label=f"Server folder {root.name}/", choices=entries,
                                 value=entries[0] if entries else None, elem_id="predictions-server")
            from_server = gr.Button("Load from server", elem_id="predictions-load-server")
    status = gr.HTML(elem_id="predictions-status")
    models = gr.HTML(_models(PredictionSet()), elem_id="predictions-models")
    clear = gr.Button("Clear all predictions", size="sm", elem_id="predictions-clear")

    def on_box(paths, request: gr.Request):
        """The box changed (upload, one file removed, cleared): hold exactly what it shows."""
        try:
            workspace.hold(session_of(request), paths or [])
        except QuotaError as exc:
            gr.Warning(str(exc))
            return None, error_box(str(exc))
        return gr.update(), gr.update()

    def on_upload(preds, paths, name, request: gr.Request):
        try:
            new, message, table_ = _load(preds, lambda d: load_uploads(paths or [], name, d), workspace)
        finally:  # accepted or not, the upload has been read: it leaves the disk now
            workspace.release(session_of(request), paths or [])
        return new, message, table_, None  # the files are gone: empty the box

    files.change(on_box, files, [files, status])
    upload.click(on_upload, [state, files, model], [state, status, models, files])
    if root is not None:
        def on_server(preds, entry):
            return _load(preds, lambda d: load_allowed(root, entry or "", d), workspace)

        from_server.click(on_server, [state, choice], [state, status, models])
        choice.focus(lambda: gr.update(choices=allowed_entries(root)), None, choice)  # new runs appear
    clear.click(lambda: (PredictionSet(), info_box("Cleared."), _models(PredictionSet())), None,
                [state, status, models])
