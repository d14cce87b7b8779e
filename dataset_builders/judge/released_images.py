"""Image cells of the released ChartJudgeBench parquet files -> the image bytes our rows embed.

A released image column is a ``datasets`` ``Image`` feature, stored in parquet as a
``{"bytes", "path"}`` struct. The released code turns a cell into a model input with
``chartjudge_bench/adapters/_multimodal.py`` ``to_pil_image`` (CSU-JPG/ChartJudgeBench at commit
63ea2449c6d037f54526b55a855d6f2a19dbf247): raw bytes, a path string, a dict's ``bytes`` or, failing
those, its ``path``, then ``.convert("RGB")``. :func:`cell_bytes` accepts the same forms; a path
(what a cell without embedded bytes holds) is read relative to the released folder and must stay
inside it, where the released code would open it relative to its working directory.

What a row embeds (:func:`embed`): an RGB PNG or RGB JPEG keeps the released bytes, byte for byte;
any other image (RGBA, palette or greyscale PNG, WebP...) becomes what the released code shows a
model, ``convert("RGB")``, saved as PNG. Our harness reads RGB images (an RGBA one needs lm-eval's
``convert_img_format``), and the pixels a model gets are the released protocol's either way. Images
are never padded to one byte length as synthetic items are (``core/png_pad.py``): the released
files are kept as they are, so the ``metadata`` validity agent measures them as released.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .released_rows import ReleasedError

__all__ = ["KEPT", "MAX_IMAGE_BYTES", "cell_bytes", "embed", "needs_conversion", "probe"]

MAX_IMAGE_BYTES = 64 << 20
"""Largest image read (the released charts are a few hundred KB)."""
KEPT = frozenset({("PNG", "RGB"), ("JPEG", "RGB")})
"""(format, mode) pairs embedded unchanged; every other image is converted to an RGB PNG."""


def _checked(data: bytes, where: str) -> bytes:
    if not data:
        raise ReleasedError(f"{where}: empty image")
    if len(data) > MAX_IMAGE_BYTES:
        raise ReleasedError(f"{where}: image larger than {MAX_IMAGE_BYTES} bytes")
    return bytes(data)


def _from_path(rel: Any, root: Path, where: str) -> bytes:
    path = (root / str(rel)).resolve()
    if root.resolve() not in path.parents:
        raise ReleasedError(f"{where}: image path {str(rel)!r} points outside the released folder")
    if not path.is_file():
        raise ReleasedError(f"{where}: image file {str(rel)!r} is missing (read relative to {root})")
    if path.stat().st_size > MAX_IMAGE_BYTES:
        raise ReleasedError(f"{where}: image file {str(rel)!r} larger than {MAX_IMAGE_BYTES} bytes")
    return _checked(path.read_bytes(), where)


def _from_dict(cell: dict, root: Path, where: str) -> bytes:
    if cell.get("bytes") is not None:
        return _checked(cell["bytes"], where)
    if cell.get("path"):
        return _from_path(cell["path"], root, where)
    raise ReleasedError(f"{where}: image cell has neither bytes nor a path")


_FORMS: dict[type, Callable[[Any, Path, str], bytes]] = {
    bytes: lambda cell, root, where: _checked(cell, where),
    str: _from_path,
    dict: _from_dict,
}
"""The cell forms ``to_pil_image`` accepts (a decoded PIL image never reaches parquet)."""


def cell_bytes(cell: Any, root: Path, where: str) -> bytes:
    """The encoded image of a released image cell; ReleasedError (one line) for anything else."""
    read = _FORMS.get(type(cell))
    if read is None:
        got = "missing" if cell is None else f"a {type(cell).__name__}"
        raise ReleasedError(f"{where}: image cell is {got}, expected image bytes or a path")
    return read(cell, root, where)


def probe(data: bytes, where: str) -> tuple[str, str, tuple[int, int]]:
    """(format, mode, size) from the image header, without decoding the pixels."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as im:
            return str(im.format), str(im.mode), tuple(im.size)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise ReleasedError(f"{where}: not an image PIL can read ({type(exc).__name__})") from None


def needs_conversion(data: bytes, where: str) -> bool:
    """True when :func:`embed` re-encodes the image (it is not an RGB PNG or RGB JPEG)."""
    fmt, mode, _ = probe(data, where)
    return (fmt, mode) not in KEPT


def embed(data: bytes, where: str) -> bytes:
    """The bytes a row embeds: the released ones when RGB PNG/JPEG, else ``convert("RGB")`` as PNG.

    Every image is decoded once here, so a truncated file fails the build with one line instead
    of failing a model run later.
    """
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            if (im.format, im.mode) in KEPT:
                return data
            out = io.BytesIO()
            im.convert("RGB").save(out, format="PNG")  # no text or time chunks: deterministic bytes
            return out.getvalue()
    except (OSError, ValueError) as exc:
        raise ReleasedError(f"{where}: image cannot be decoded ({type(exc).__name__}: {exc})") from None
