"""Draw one chart in every engine x theme into docs/images/engines/ (thumbnails and a labelled grid).

    python scripts/gen_engine_gallery.py [--seed 0]

The base chart is one grouped bar spec (3 series, 4 categories, a box legend outside the plot on
the right, no value labels, no hatch patterns: ``both_engines``), sampled from ``--seed``. It is
drawn with every theme each engine has (``ENGINE_THEMES``: matplotlib's own, Vega's own and the
published vega-themes), downscaled to ``--tile-width`` pixels (Lanczos) and quantized to
``--colors`` colours without dithering, then written as ``<engine>-<theme>.png``; ``grid.png``
puts every thumbnail under its ``engine/theme`` label. The same seed gives the same bytes: specs,
both engines and the font are pinned, and Pillow's PNG writer stores no time stamp.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
from pathlib import Path

from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec
from chartprobe.dataset_builders.core.style_axis import ENGINE_THEMES, DrawStyle, both_engines
from PIL import Image, ImageDraw, ImageFont

LABEL_PX = 16  # label font size in the grid
LABEL_BAND = 24  # height of the label band above each tile


def base_spec(seed: int) -> ChartSpec:
    """The one chart every style draws: grouped bars, 3 series, box legend outside right, no labels, no hatch."""
    spec = sample_spec("grouped_bar", rng_for(seed, "engine_gallery", "grouped_bar"),
                       SampleConfig(n_categories=(4, 4), n_series=(3, 3), legend_form="box", value_labels=False))
    spec = spec.replace(legend=dataclasses.replace(spec.legend, position="outside right"))
    return both_engines(spec).validate()


def styles() -> list[DrawStyle]:
    """Every engine x theme, in ``ENGINE_THEMES`` order."""
    return [DrawStyle(engine, theme) for engine, themes in ENGINE_THEMES.items() for theme in themes]


def thumbnail(style: DrawStyle, spec: ChartSpec, width: int) -> Image.Image:
    """``spec`` drawn in ``style``, downscaled to ``width`` pixels wide (RGB)."""
    img = Image.open(io.BytesIO(style.render(spec).png)).convert("RGB")
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def png_bytes(img: Image.Image, colors: int) -> bytes:
    """Deterministic, small PNG: median-cut palette of ``colors`` colours, no dithering, optimized."""
    pal = img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _font() -> ImageFont.FreeTypeFont:
    import matplotlib

    path = os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data", "fonts", "ttf", "DejaVuSans.ttf")
    return ImageFont.truetype(path, LABEL_PX)


def grid(tiles: list[tuple[str, Image.Image]], cols: int) -> Image.Image:
    """A contact sheet: each tile under its label, ``cols`` per row, white background."""
    w = max(t.width for _, t in tiles)
    h = max(t.height for _, t in tiles) + LABEL_BAND
    rows = -(-len(tiles) // cols)
    sheet = Image.new("RGB", (cols * w, rows * h), "white")
    draw = ImageDraw.Draw(sheet)
    font = _font()
    for i, (label, tile) in enumerate(tiles):
        x, y = (i % cols) * w, (i // cols) * h
        draw.text((x + w // 2, y + LABEL_BAND // 2), label, fill="black", font=font, anchor="mm")
        sheet.paste(tile, (x, y + LABEL_BAND))
    return sheet


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, draw every style, write thumbnails and the grid, print their sizes."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="seed the base chart is sampled from (default 0)")
    ap.add_argument("--tile-width", type=int, default=320, help="thumbnail width in pixels (default 320)")
    ap.add_argument("--cols", type=int, default=5, help="tiles per row of grid.png (default 5)")
    ap.add_argument("--colors", type=int, default=64, help="palette size of every PNG (default 64)")
    ap.add_argument("--out-dir", default="docs/images/engines", help="folder written (default docs/images/engines)")
    args = ap.parse_args(argv)

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    spec = base_spec(args.seed)
    tiles, total = [], 0
    for style in styles():
        thumb = thumbnail(style, spec, args.tile_width)
        data = png_bytes(thumb, args.colors)
        (out / f"{style.engine}-{style.theme}.png").write_bytes(data)
        tiles.append((style.name, thumb))
        total += len(data)
    data = png_bytes(grid(tiles, args.cols), args.colors)
    (out / "grid.png").write_bytes(data)
    total += len(data)
    print(f"{out}: {len(tiles)} thumbnails ({total - len(data):,} bytes) + grid.png ({len(data):,} bytes), "
          f"{total:,} bytes in all")


if __name__ == "__main__":
    main()
