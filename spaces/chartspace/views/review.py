"""Review tab: the needs-review items of a ``chartprobe reconstruct`` work folder (Chartographer A.3).

Shows each queued item's source chart beside its reconstruction, the question and source answer,
the model's verdict reason and its diagnosis rounds, and writes a person's approve / reject (with
a note) to ``review/decisions.jsonl``, which the next ``chartprobe reconstruct`` run reads. The
folder is the server's ``--review DIR`` (``CHARTPROBE_REVIEW``), never one the page names.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from chartspace.html import esc, info_box, pre, table
from chartspace.views._common import ViewHandle, guarded, keep

__all__ = ["TITLE", "build", "decide", "item_view"]

TITLE = "Review"


def _queue(folder: Path | None) -> list[dict]:
    from chartprobe.dataset_builders.families.reconstruct.review import read_queue

    return read_queue(folder) if folder is not None else []


def _image(folder: Path, rel: str):
    from PIL import Image

    path = (folder / rel).resolve()
    if folder.resolve() not in path.parents or not path.is_file():
        return None
    return Image.open(io.BytesIO(path.read_bytes())).convert("RGB")


def item_view(folder: Path | None, item: str | None):
    """(status HTML, item choices, chosen item, source image, render image, details HTML) for ``item``."""
    from chartprobe.dataset_builders.families.reconstruct.review import read_decisions

    if folder is None:
        return (info_box("No review folder: start the Space with --review WORK/review (chartprobe reconstruct's "
                         "work folder)."), [], None, None, None, "")
    queue = _queue(folder)
    ids = [e["item"] for e in queue]
    if not ids:
        return info_box(f"Nothing waits for review in {folder}."), [], None, None, None, ""
    item = keep(item, ids)
    entry = next(e for e in queue if e["item"] == item)
    decided = read_decisions(folder)
    done = sum(i in decided for i in ids)
    status = info_box(f"{len(ids)} items wait for review, {done} decided (the next chartprobe reconstruct run "
                      f"reads the decisions). {item}: " + (f"decided: {decided[item].decision}" if item in decided
                                                           else "not decided yet"))
    rounds = [[str(h.get("round")), "render failed" if "render_error" in h else
               ("significant" if h.get("significant") else "clean"),
               h.get("render_error") or "; ".join(str(i.get("summary", "")) for i in h.get("issues", []))]
              for h in entry.get("history", [])]
    details = (table(["question", "source answer", "model's reason"],
                     [[entry["question"], entry["answer"], entry.get("reason", "")]])
               + table(["round", "diagnosis", "issues"], rounds)
               + pre(json.dumps(entry.get("chart_data", {}), indent=1, ensure_ascii=False)))
    return (status, ids, item, _image(folder, entry["source_image"]), _image(folder, entry["render_image"]),
            details)


def decide(folder: Path | None, item: str | None, decision: str, note: str, reviewer: str) -> str:
    """Record one decision; returns the status line."""
    from chartprobe.dataset_builders.families.reconstruct.review import record_decision

    if folder is None or not item:
        return info_box("Pick a queued item first.")
    found = record_decision(folder, item, decision, note or "", reviewer or "")
    return info_box(f"{esc(found.item)}: {found.decision} recorded in {folder / 'decisions.jsonl'}")


def build(folder: Path | None) -> ViewHandle:
    """The tab's components: item picker, the two charts, details, note, approve / reject."""
    import gradio as gr

    status = gr.HTML(elem_id="review-status")
    pick = gr.Dropdown(label="Item", choices=[], elem_id="review-item")
    with gr.Row():
        source = gr.Image(label="Source chart", type="pil", interactive=False, elem_id="review-source")
        render = gr.Image(label="Reconstruction", type="pil", interactive=False, elem_id="review-render")
    details = gr.HTML(elem_id="review-details")
    with gr.Row():
        note = gr.Textbox(label="Note (assumptions for generation, or why rejected)", elem_id="review-note")
        reviewer = gr.Textbox(label="Reviewer", elem_id="review-reviewer")
        approve = gr.Button("Approve", variant="primary", elem_id="review-approve")
        reject = gr.Button("Reject", variant="stop", elem_id="review-reject")
    outputs = [status, pick, source, render, details]

    @guarded(len(outputs), status_at=0)
    def show(item):
        st, ids, chosen, src, rec, det = item_view(folder, item)
        return st, gr.update(choices=ids, value=chosen), src, rec, det

    @guarded(len(outputs), status_at=0)
    def act(item, text, who, decision):
        line = decide(folder, item, decision, text, who)
        out = list(show(item))
        out[0] = line
        return tuple(out)

    pick.change(show, [pick], outputs)
    approve.click(lambda i, t, w: act(i, t, w, "approve"), [pick, note, reviewer], outputs)
    reject.click(lambda i, t, w: act(i, t, w, "reject"), [pick, note, reviewer], outputs)
    return ViewHandle(TITLE, show, [pick], outputs)
