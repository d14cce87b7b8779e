"""Profile tab: the ``chartprobe report`` plots and comparison tables of the loaded models."""

from __future__ import annotations

from typing import Any

from chartspace.html import info_box
from chartspace.views._common import ViewHandle, guarded

__all__ = ["TITLE", "build"]

TITLE = "Profile"


def build(state: Any, workspace: Any) -> ViewHandle:
    """Create the tab's components; refreshing redraws the report of the session's models.
    The report is drawn in a scratch folder that is deleted at once: the plots go to the page
    as images in memory (gradio keeps its own expiring copy), so nothing piles up per render."""
    import gradio as gr

    from chartspace.profile import build_profile

    status = gr.HTML(elem_id="profile-status")
    plots = gr.Gallery(label="Report plots", columns=3, height=560, object_fit="contain", format="png",
                       elem_id="profile-plots")
    comparison = gr.Markdown(elem_id="profile-comparison")
    with gr.Accordion("Capability profile per model and task", open=False):
        details = gr.Markdown(elem_id="profile-details")
    outputs = [status, plots, comparison, details]

    @guarded(len(outputs), status_at=0)
    def render(preds):
        if not preds.runs:
            return info_box("Load predictions in the Predictions tab to see the capability profile."), [], "", ""
        from PIL import Image

        with workspace.scratch() as out:
            paths, text = build_profile(preds, out)
            images = []
            for p in paths:
                with Image.open(p) as img:
                    images.append((img.copy(), p.stem))  # copy(): decoded before the file goes
        head, sep, tail = text.partition("## Capability profile")
        names = ", ".join(preds.runs)
        return info_box(f"Capability profile of {names}."), images, head, sep + tail

    return ViewHandle(TITLE, render, [state], outputs)
