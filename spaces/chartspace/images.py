"""Image helpers: thumbnails, ``data:`` URIs for HTML grids, and boxes drawn on charts.

Boxes are normalized ``(x0, y0, x1, y1)`` with the origin top-left, as the renderer measures
them and as grounding answers are written.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

__all__ = ["EVIDENCE", "GOLD", "PRED", "atomic_image_cache", "data_uri", "draw_boxes", "scaled"]

GOLD = (20, 150, 60)
"""Gold boxes: green."""
PRED = (220, 40, 40)
"""A model's predicted boxes: red."""
EVIDENCE = (230, 120, 0)
"""What a row's evidence points at (legend entries a question needs, a judge flaw's elements): orange."""


def scaled(image: Any, width: int) -> Any:
    """``image`` resized to ``width`` pixels wide (aspect kept; never upscaled)."""
    from PIL import Image

    if image.width <= width:
        return image
    return image.resize((width, max(1, round(image.height * width / image.width))), Image.LANCZOS)


def data_uri(image: Any, quality: int = 85) -> str:
    """A JPEG ``data:`` URI of ``image`` (charts are flat colours: JPEG q85 stays crisp, ~5x smaller)."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="JPEG", quality=quality)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def draw_boxes(image: Any, boxes: Sequence[tuple[Sequence[float], str, tuple[int, int, int]]],
               width: int = 3) -> Any:
    """A copy of ``image`` with each ``(box, label, colour)`` outlined and labelled.

    Later boxes are drawn on top and thinner (the last one ``width`` pixels, each earlier one 2
    more, up to 6 more), so two identical boxes show as nested outlines instead of one hiding the other; a
    label that would land on an earlier label moves right of it."""
    from PIL import ImageDraw

    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    w, h = out.size
    tags: list[tuple[float, float, float]] = []  # (x0, x1, y) of the labels drawn so far
    for k, (box, label, colour) in enumerate(boxes):
        x0, y0, x1, y1 = (float(v) for v in box)
        rect = [x0 * w, y0 * h, max(x0 * w, x1 * w), max(y0 * h, y1 * h)]
        draw.rectangle(rect, outline=colour, width=width + 2 * min(len(boxes) - 1 - k, 3))  # at most 6 px more
        if label:
            tx, ty = rect[0] + 2, max(0.0, rect[1] - 12)
            for a, b, y in tags:
                if abs(y - ty) < 12 and a - 1 <= tx <= b + 3:
                    tx = b + 4
            tags.append((tx, tx + 6 * len(label) + 2, ty))
            draw.rectangle([tx - 1, ty, tx + 6 * len(label) + 2, ty + 11], fill=colour)
            draw.text((tx, ty), label, fill=(255, 255, 255))
    return out


def atomic_image_cache() -> None:
    """Make gradio store the images views return (``gr.Image``/``gr.Gallery`` of PIL images)
    by write-then-rename instead of rewriting the file in place.

    Why: gradio names a cached image by the hash of its bytes and writes it with
    ``write_bytes``, which truncates the file first. Two sessions (or a tab re-rendered while
    many models load) returning the same chart rewrite the one file while the server is
    sending it: the response declared the full size, the file shrank to zero under it
    (``h11 LocalProtocolError: Too little data for declared Content-Length``) and the page
    showed a broken image. A rename swaps in a complete file, and a reader still holding
    the old one reads all of it."""
    import os
    import tempfile
    from pathlib import Path

    from gradio import processing_utils

    if getattr(processing_utils.save_pil_to_cache, "_chartspace_atomic", False):
        return

    def save_pil_to_cache(img, cache_dir: str, name: str = "image", format: str = "webp") -> str:
        data = processing_utils.encode_pil_to_bytes(img, format)
        folder = Path(cache_dir) / processing_utils.hash_bytes(data)
        folder.mkdir(exist_ok=True, parents=True)
        target = (folder / f"{name}.{format}").resolve()
        if target.is_file() and target.stat().st_size == len(data):
            return str(target)  # the same bytes are there already (the name is their hash)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return str(target)

    save_pil_to_cache._chartspace_atomic = True
    processing_utils.save_pil_to_cache = save_pil_to_cache
