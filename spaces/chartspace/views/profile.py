"""Profile tab: the ``chartprobe report`` plots and comparison tables of the loaded models."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from chartspace.html import info_box
from chartspace.views._common import ViewHandle, guarded

__all__ = ["TITLE", "build"]

TITLE = "Profile"


def build(state: Any, workdir: Path) -> ViewHandle:
    """Create the tab's components; refreshing redraws the report of the session's models."""
    import gradio as gr

    from chartspace.profile import build_profile

    status = gr.HTML(elem_id="profile-status")
    plots = gr.Gallery(label="Report plots", columns=3, height=560, object_fit="contain", elem_id="profile-plots")
    comparison = gr.Markdown(elem_id="profile-comparison")
    with gr.Accordion("Capability profile per model and task", open=False):
        details = gr.Markdown(elem_id="profile-details")
    outputs = [status, plots, comparison, details]

    @guarded(len(outputs), status_at=0)
    def render(preds):
        if not preds.runs:
            return info_box("Load predictions in the Predictions tab to see the capability profile."), [], "", ""
        paths, text = build_profile(preds, Path(tempfile.mkdtemp(dir=workdir)))
        head, sep, tail = text.partition("## Capability profile")
        names = ", ".join(preds.runs)
        return (info_box(f"Capability profile of {names}."), [(str(p), p.stem) for p in paths], head,
                sep + tail)

    return ViewHandle(TITLE, render, [state], outputs)
