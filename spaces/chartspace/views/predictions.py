"""Predictions tab: load a model's predictions (upload, or the server's allowlisted folder).

Accepted: lm-eval ``--log_samples`` files (``samples_<task>_<date>.jsonl``, one model per
load; name it) and ``chartprobe score`` results (``.json``, every model in the file). Load
several models to compare them: every view then shows one badge per model on each item.
Problems are reported in the page; the session's other models stay loaded.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

from chartspace.html import Markup, error_box, esc, info_box, table
from chartspace.predictions import (
    MAX_FILE_BYTES,
    PredictionsError,
    PredictionSet,
    allowed_entries,
    load_allowed,
    load_uploads,
)

__all__ = ["build"]

log = logging.getLogger("chartspace")

INTRO = f"""Load predictions to mark every item in the views as correct (✓) or wrong (✗) with the
model's answer. **lm-eval samples**: the `samples_<task>_<date>.jsonl` files that
`lm_eval --log_samples` (or `chartprobe validate --samples-out`) writes, for one model per load
(give it a name). **Results**: the `.json` written by `chartprobe score` (all its models).
At most {MAX_FILE_BYTES // 2**20} MB per file. Load a second model to compare them side by side."""


def _models(preds: PredictionSet) -> Markup:
    if not preds.runs:
        return info_box("No predictions loaded.")
    return table(["model", "loaded"], [[run.name, run.summary] for run in preds.runs.values()])


def _load(preds: PredictionSet, loader: Any, workdir: Path) -> tuple:
    """Run ``loader(folder)``; on any problem keep ``preds`` and show the message."""
    import gradio as gr

    try:
        runs = loader(Path(tempfile.mkdtemp(dir=workdir)))
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


def build(state: Any, root: Path | None, workdir: Path) -> None:
    """Create the tab's components; views pick the new predictions up when their tab opens."""
    import gradio as gr

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

    def on_upload(preds, paths, name):
        new, message, table_ = _load(preds, lambda d: load_uploads(paths or [], name, d), workdir)
        return new, message, table_, (None if new is not preds else gr.update())  # loaded: empty the box

    upload.click(on_upload, [state, files, model], [state, status, models, files])
    if root is not None:
        def on_server(preds, entry):
            return _load(preds, lambda d: load_allowed(root, entry or "", d), workdir)

        from_server.click(on_server, [state, choice], [state, status, models])
        choice.focus(lambda: gr.update(choices=allowed_entries(root)), None, choice)  # new runs appear
    clear.click(lambda: (PredictionSet(), info_box("Cleared."), _models(PredictionSet())), None,
                [state, status, models])
