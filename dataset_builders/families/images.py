"""Image post-processing for Chartographer families (Pillow only, deterministic).

- ``scrape``: the original chart's look of a chart scraped from a report: re-encoded
  through a low-quality JPEG and back to PNG (block and ringing artifacts), as the
  paper's ChartQA/CharXiv/ChartMuseum originals are (§5.1, B.1).
- ``downscale``: the resolution ablation (A.7): RGB, each side scaled by a factor with
  bicubic interpolation, saved as PNG.
- ``degrade``: either of the two, by the string a row records in its ``degradation`` column
  (``jpeg:q30``, ``bicubic:0.75``; empty = none), so every stored image is
  ``degrade(render(spec), degradation)`` and anyone can reproduce it from the row.
- ``family_grid``: the 3x4 contact sheet of one family for the dataset card.
"""

from __future__ import annotations

import io

__all__ = ["DEGRADATIONS", "JPEG_QUALITY", "RESOLUTION_SCALES", "degrade", "downscale", "family_grid", "scrape"]

JPEG_QUALITY = 30
"""Low enough to show artifacts around text and edges, high enough to stay legible."""
RESOLUTION_SCALES = (1.0, 0.75, 0.5)
"""Per-side scales of the ``resolution`` config (the paper's resolution ablation)."""


def _png(img) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def scrape(png: bytes, quality: int = JPEG_QUALITY) -> bytes:
    """PNG -> JPEG(quality, 4:2:0 chroma subsampling) -> PNG. libjpeg is deterministic."""
    from PIL import Image

    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(buf, format="JPEG", quality=quality, subsampling=2)
    return _png(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def downscale(png: bytes, factor: float) -> bytes:
    """Each side multiplied by ``factor`` (rounded), bicubic, RGB PNG."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    size = (max(1, round(img.width * factor)), max(1, round(img.height * factor)))
    return _png(img.resize(size, Image.Resampling.BICUBIC))


DEGRADATIONS = {
    "jpeg": lambda png, arg: scrape(png, quality=int(arg.removeprefix("q"))),
    "bicubic": lambda png, arg: downscale(png, float(arg)),
}
"""Recorded degradation name -> how it is applied (the argument follows the colon)."""


def degrade(png: bytes, degradation: str) -> bytes:
    """Apply a row's recorded ``degradation`` (``""`` = the image is the render itself)."""
    if not degradation:
        return png
    name, _, arg = degradation.partition(":")
    if name not in DEGRADATIONS:
        raise ValueError(f"unknown degradation {degradation!r}; expected one of {sorted(DEGRADATIONS)}")
    return DEGRADATIONS[name](png, arg)


def family_grid(images: list[bytes], captions: list[str], cell: tuple[int, int] = (320, 240)) -> bytes:
    """Paste 12 chart images into a 3-row x 4-column sheet with a caption above each."""
    from PIL import Image, ImageDraw

    if len(images) != 12 or len(captions) != 12:
        raise ValueError(f"a family grid needs 12 images and captions, got {len(images)}/{len(captions)}")
    pad = 18
    w, h = cell
    sheet = Image.new("RGB", (4 * w, 3 * (h + pad)), "white")
    draw = ImageDraw.Draw(sheet)
    for k, (png, caption) in enumerate(zip(images, captions)):
        img = Image.open(io.BytesIO(png)).convert("RGB")
        img.thumbnail(cell, Image.Resampling.BICUBIC)
        x, y = (k % 4) * w, (k // 4) * (h + pad)
        draw.text((x + 4, y + 3), caption, fill="black")
        sheet.paste(img, (x + (w - img.width) // 2, y + pad))
    return _png(sheet)
