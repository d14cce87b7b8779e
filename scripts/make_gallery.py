"""Render every registered chart kind from one seed into docs/images/gallery.png.

Mark boxes returned by the renderer are outlined in red, to show what grounding probes
and occlusion checks get with every image. Usage: python scripts/make_gallery.py [--seed 0]
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from PIL import Image, ImageDraw


def tile(kind: str, seed: int, width: int) -> Image.Image:
    """One chart of ``kind`` with its mark boxes outlined, scaled to ``width`` pixels."""
    out = render(sample_spec(kind, rng_for(seed, "gallery", kind)))
    img = Image.open(io.BytesIO(out.png)).convert("RGB")
    draw = ImageDraw.Draw(img)
    for key, (x0, y0, x1, y1) in out.boxes.items():
        if key.startswith("mark/"):
            draw.rectangle([x0 * out.width, y0 * out.height, x1 * out.width, y1 * out.height],
                           outline=(220, 30, 30), width=1)
    return img.resize((width, round(img.height * width / img.width)), Image.LANCZOS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cols", type=int, default=5)
    ap.add_argument("--tile-width", type=int, default=320)
    ap.add_argument("--out", default="docs/images/gallery.png")
    args = ap.parse_args()
    tiles = [tile(k, args.seed, args.tile_width) for k in CHARTS.names()]
    rows = -(-len(tiles) // args.cols)
    h = max(t.height for t in tiles)
    sheet = Image.new("RGB", (args.cols * args.tile_width, rows * h), "white")
    for i, t in enumerate(tiles):
        sheet.paste(t, ((i % args.cols) * args.tile_width, (i // args.cols) * h))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out, optimize=True)
    print(f"{args.out}: {len(tiles)} kinds")


if __name__ == "__main__":
    main()
