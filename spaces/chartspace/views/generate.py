"""Generate tab: pick a chart kind, a seed and a tier; see the chart and its probes, made live."""

from __future__ import annotations

import io
import json

from chartspace.html import Markup, esc, info_box, pre, table
from chartspace.images import GOLD, PRED, draw_boxes
from chartspace.views._common import ViewHandle, guarded

__all__ = ["build"]


def _picture(png: bytes, boxes: list[tuple]):
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    return draw_boxes(image, boxes, width=2) if boxes else image


def build() -> ViewHandle:
    """Create the tab's components and wire the generate button (needs no predictions)."""
    import gradio as gr

    from chartspace.generate import generate, kinds

    choices = kinds()
    with gr.Row():
        kind = gr.Dropdown(label="Chart kind", choices=choices, value=choices[0], elem_id="generate-kind")
        seed = gr.Number(label="Seed", value=0, precision=0, minimum=0, elem_id="generate-seed")
        tier = gr.Dropdown(label="Complexity tier (probe domains)", choices=["simple", "medium", "complex"],
                           value="medium", elem_id="generate-tier")
        button = gr.Button("Generate", variant="primary", elem_id="generate-run")
    status = gr.HTML(elem_id="generate-status")
    with gr.Row():
        image = gr.Image(label="Chart", type="pil", interactive=False, elem_id="generate-image")
        probes = gr.HTML(elem_id="generate-probes")
    with gr.Accordion("Spec (JSON)", open=False):
        spec = gr.HTML(elem_id="generate-spec")
    outputs = [status, image, probes, spec]

    @guarded(len(outputs), status_at=0)
    def run(k, s, t):
        g = generate(k, int(s or 0), t)
        if g.probes:
            boxes = [(p["target_bbox"], p["template_id"], GOLD) for p in g.probes if p["target_bbox"]]
            body = table(["template", "skill", "question", "answer"],
                         [[p["template_id"], p["skill"], p["question"], Markup(f"<b>{esc(p['answer'])}</b>")]
                          for p in g.probes])
        else:
            boxes = [(b, "", PRED) for key, b in g.boxes.items() if key.startswith("mark/")]
            body = info_box(g.note)
        spec_text = json.dumps(json.loads(g.spec_json), indent=1)
        return info_box(f"{k}, seed {int(s or 0)}: {g.note}"), _picture(g.png, boxes), body, pre(spec_text)

    button.click(run, [kind, seed, tier], outputs)
    return ViewHandle("Generate", run, [kind, seed, tier], outputs)
