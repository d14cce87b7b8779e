"""Byte-neutral PNG files: images shown together get the same file size.

A flaw changes what is drawn (an extra series adds ink, a faded palette removes contrast),
so the compressed size of a flawed render differs from its clean twin's in a direction that
follows the flaw. A judge item's label must come from the pixels, not from ``len(png)``
(issue 14, the ``metadata`` agent), so :func:`equalize` pads every image of an item with one
ancillary ``tEXt`` chunk, inserted before ``IEND``, until all have the byte length of the
largest plus one minimal chunk. Every image carries exactly one padding chunk, so neither its
presence nor the sizes tell the images apart; the pixel data (``IDAT``) is untouched.
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["PAD_KEYWORD", "PngPadError", "equalize", "equalize_rows", "pad_to", "strip_pad"]

PAD_KEYWORD = b"chartprobe-pad"
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_MIN_CHUNK = 12 + len(PAD_KEYWORD) + 1
"""length + type + CRC (12 bytes), then the keyword and its NUL separator."""


class PngPadError(ValueError):
    """The bytes are not a PNG that ends in a bare ``IEND`` chunk."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def pad_to(png: bytes, size: int) -> bytes:
    """``png`` with one ``tEXt`` padding chunk so that it is exactly ``size`` bytes long."""
    if not png.startswith(_SIGNATURE) or not png.endswith(_IEND):
        raise PngPadError("not a PNG ending in IEND; cannot pad it")
    fill = size - len(png) - _MIN_CHUNK
    if fill < 0:
        raise PngPadError(f"cannot pad a {len(png)}-byte PNG to {size} bytes (a pad chunk needs {_MIN_CHUNK})")
    # Spaces are printable Latin-1, as tEXt requires; the chunk compresses nothing and means nothing.
    pad = _chunk(b"tEXt", PAD_KEYWORD + b"\x00" + b" " * fill)
    return png[: -len(_IEND)] + pad + _IEND


def equalize(*pngs: bytes) -> tuple[bytes, ...]:
    """Every PNG padded to the same length: the largest one's plus one minimal pad chunk."""
    size = max(len(p) for p in pngs) + _MIN_CHUNK
    return tuple(pad_to(p, size) for p in pngs)


def equalize_rows(rows: list[dict], column: str = "image") -> list[dict]:
    """``rows`` with every ``column`` image padded to one byte length (:func:`equalize` over
    the distinct images): the rows of one item (a base chart and its legend variants) can no
    longer be told apart by file size, e.g. a masked legend's smaller file."""
    distinct = list(dict.fromkeys(r[column]["bytes"] for r in rows))
    if not distinct:
        return rows
    padded = dict(zip(distinct, equalize(*distinct), strict=True))
    return [{**r, column: {**r[column], "bytes": padded[r[column]["bytes"]]}} for r in rows]


def strip_pad(data: bytes) -> bytes:
    """``data`` without its padding chunk: the PNG exactly as rendered (anything else unchanged).

    ``chartprobe render`` reproduces a stored image byte for byte once the pad is stripped.
    """
    if not data.startswith(_SIGNATURE):
        return data
    out, pos = [data[:8]], 8
    while pos + 12 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        end = pos + 12 + length
        chunk = data[pos:end]
        if not (chunk[4:8] == b"tEXt" and chunk[8:8 + len(PAD_KEYWORD) + 1] == PAD_KEYWORD + b"\x00"):
            out.append(chunk)
        pos = end
    return b"".join(out)
