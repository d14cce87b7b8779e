"""Cheap pixel statistics of chart images: everything a learner that never reads a chart can see.

The ``image_stats`` agent of ``chartprobe validate`` (``eval_tasks/validity/agents/image_stats.py``)
answers from these numbers alone, so any
answer they predict beyond chance is a tell of the generator, not a skill. The list is data:
one small function per statistic, registered with its one-line docstring; a new tell found
from outside is added here and every config is checked against it from then on.

Per image (:data:`STATISTICS`) the file's size and, on a copy reduced to at most
:data:`WORK_SIDE` pixels a side, ink, colour, margin, texture and compressibility; per pair of
images shown together (:data:`PAIR_STATISTICS`: a CPA pair, a CRJ reference and candidate) the
pixel difference of two :data:`THUMB` thumbnails, and :func:`features` adds every per-image
statistic's difference, always in the order the model is shown the images.

Statistics are computed while ``chartprobe validate`` loads a release, only for image cells of
rows an agent asks pixels for (:class:`PixelReader`), each distinct image decoded once;
``chartprobe score`` never pays for them. The judge builder reads the same statistics to draw
CRJ Accept candidates whose differences look like a Reject's (``judge/benign.py``): it lives
with the builders so both sides measure with one ruler.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

__all__ = ["PAIR_STATISTICS", "STATISTICS", "PixelReader", "Pixels", "describe", "describe_or_none", "features"]

WORK_SIDE = 256
"""Longest side of the working copy the statistics are computed on (integer box reduction)."""
THUMB = (48, 48)
"""Common size both images of a pair are resized to for their pixel difference."""
INK = 24 / 255
"""A pixel is ink when some channel differs from the background colour by more than this."""


@dataclass
class View:
    """What one statistic reads: the file's size and the reduced image (``raw`` uint8, arrays 0..1)."""

    width: int
    height: int
    nbytes: int
    raw: np.ndarray
    rgb: np.ndarray
    lum: np.ndarray
    sat: np.ndarray
    ink: np.ndarray

    @cached_property
    def colour_counts(self) -> np.ndarray:
        """Pixels per colour quantised to 4 bits a channel (4096 bins)."""
        q = self.raw >> 4
        return np.bincount((q[..., 0].astype(np.int32) * 256 + q[..., 1] * 16 + q[..., 2]).ravel(), minlength=4096)

    @cached_property
    def hue(self) -> tuple[float, float]:
        """(cos, sin) of the saturation-weighted mean hue angle."""
        r, g, b = self.rgb[..., 0], self.rgb[..., 1], self.rgb[..., 2]
        angle = np.arctan2(np.sqrt(3) * (g - b), 2 * r - g - b)  # hue angle without a branchy HSV
        w = self.sat.sum()
        if w <= 0:
            return 0.0, 0.0
        return float((np.cos(angle) * self.sat).sum() / w), float((np.sin(angle) * self.sat).sum() / w)


@dataclass(frozen=True)
class Pixels:
    """The statistics of one image and its thumbnail (for pair differences)."""

    values: dict[str, float]
    thumb: np.ndarray


STATISTICS: dict[str, Callable[[View], float]] = {}
PAIR_STATISTICS: dict[str, Callable[[np.ndarray, np.ndarray], float]] = {}


def statistic(fn: Callable[[View], float]) -> Callable[[View], float]:
    STATISTICS[fn.__name__] = fn
    return fn


def pair_statistic(fn: Callable[[np.ndarray, np.ndarray], float]) -> Callable[[np.ndarray, np.ndarray], float]:
    PAIR_STATISTICS[fn.__name__] = fn
    return fn


# -- the file ------------------------------------------------------------------------------

@statistic
def width(v: View) -> float:
    """Image width in pixels."""
    return float(v.width)


@statistic
def height(v: View) -> float:
    """Image height in pixels."""
    return float(v.height)


@statistic
def aspect(v: View) -> float:
    """Width over height (a squeezed chart is narrower)."""
    return v.width / max(1, v.height)


@statistic
def file_bytes(v: View) -> float:
    """Encoded file size in bytes."""
    return float(v.nbytes)


@statistic
def file_bits_per_pixel(v: View) -> float:
    """Encoded size per pixel: how much detail the encoder had to keep."""
    return 8.0 * v.nbytes / max(1, v.width * v.height)


@statistic
def compressibility(v: View) -> float:
    """zlib size of the reduced pixels over their raw size: re-encoding sees through padded files."""
    raw = v.raw.tobytes()
    return len(zlib.compress(raw, 1)) / max(1, len(raw))


# -- ink and colour ------------------------------------------------------------------------

@statistic
def ink_share(v: View) -> float:
    """Share of pixels that differ from the background colour."""
    return float(v.ink.mean())


@statistic
def dark_share(v: View) -> float:
    """Share of near-black pixels (luminance below 0.3): text, axes, outlines."""
    return float((v.lum < 0.3).mean())


@statistic
def lum_mean(v: View) -> float:
    """Mean luminance."""
    return float(v.lum.mean())


@statistic
def lum_std(v: View) -> float:
    """Standard deviation of luminance (contrast)."""
    return float(v.lum.std())


@statistic
def sat_mean(v: View) -> float:
    """Mean saturation (max - min channel over max)."""
    return float(v.sat.mean())


@statistic
def colourful_share(v: View) -> float:
    """Share of clearly coloured pixels (saturation above 0.3)."""
    return float((v.sat > 0.3).mean())


@statistic
def hue_x(v: View) -> float:
    """Cosine of the saturation-weighted mean hue (with ``hue_y``: the dominant hue)."""
    return v.hue[0]


@statistic
def hue_y(v: View) -> float:
    """Sine of the saturation-weighted mean hue."""
    return v.hue[1]


@statistic
def colours(v: View) -> float:
    """Distinct colours (4 bits a channel) covering at least 0.5% of the image each."""
    return float((v.colour_counts >= 0.005 * v.lum.size).sum())


@statistic
def colours_any(v: View) -> float:
    """Distinct colours (4 bits a channel) at all, anti-aliasing included."""
    return float((v.colour_counts > 0).sum())


# -- layout --------------------------------------------------------------------------------

@statistic
def margin_left(v: View) -> float:
    """Blank share of the width left of the first ink column."""
    return _extent(v.ink.any(axis=0))[0]


@statistic
def margin_right(v: View) -> float:
    """Blank share of the width right of the last ink column."""
    return _extent(v.ink.any(axis=0))[1]


@statistic
def margin_top(v: View) -> float:
    """Blank share of the height above the first ink row."""
    return _extent(v.ink.any(axis=1))[0]


@statistic
def margin_bottom(v: View) -> float:
    """Blank share of the height below the last ink row."""
    return _extent(v.ink.any(axis=1))[1]


@statistic
def ink_centre_x(v: View) -> float:
    """Horizontal centre of mass of the ink (0 left, 1 right)."""
    return _centre(v.ink.mean(axis=0))


@statistic
def ink_centre_y(v: View) -> float:
    """Vertical centre of mass of the ink (0 top, 1 bottom)."""
    return _centre(v.ink.mean(axis=1))


@statistic
def edge_density(v: View) -> float:
    """Share of pixels with a luminance step above 0.15 to their right or lower neighbour."""
    dx = np.abs(np.diff(v.lum, axis=1))[:-1, :] > 0.15
    dy = np.abs(np.diff(v.lum, axis=0))[:, :-1] > 0.15
    return float((dx | dy).mean()) if dx.size else 0.0


@statistic
def lum_entropy(v: View) -> float:
    """Entropy (bits) of the 32-bin luminance histogram."""
    counts = np.bincount(np.minimum((v.lum * 32).astype(np.int64), 31).ravel(), minlength=32)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


# -- two images shown together -------------------------------------------------------------

@pair_statistic
def pixel_mad(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of the two thumbnails (0..1)."""
    return float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean() / 255)


@pair_statistic
def pixel_changed(a: np.ndarray, b: np.ndarray) -> float:
    """Share of thumbnail pixels that differ by more than 16/255 in some channel."""
    return float((np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=-1) > 16).mean())


@pair_statistic
def pixel_identical(a: np.ndarray, b: np.ndarray) -> float:
    """1 when the thumbnails are equal pixel for pixel."""
    return float(np.array_equal(a, b))


# -- helpers -------------------------------------------------------------------------------

def _extent(mask: np.ndarray) -> tuple[float, float]:
    idx = np.flatnonzero(mask)
    if not idx.size:
        return 0.5, 0.5
    return idx[0] / mask.size, (mask.size - 1 - idx[-1]) / mask.size


def _centre(weights: np.ndarray) -> float:
    total = weights.sum()
    return float((weights * np.arange(weights.size)).sum() / total / max(1, weights.size - 1)) if total else 0.5


def _view(data: bytes) -> tuple[View, np.ndarray]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        w, h = im.size
        rgb = im.convert("RGB")
    factor = max(1, -(-max(w, h) // WORK_SIDE))
    small = rgb.reduce(factor) if factor > 1 else rgb
    raw = np.asarray(small)
    arr = raw.astype(np.float32) / 255
    r, g, b = arr[..., 0], arr[..., 1], arr[..., 2]
    hi, lo = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)  # axis=-1 of 3 is slow
    lum = arr @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    sat = np.where(hi > 0, (hi - lo) / np.maximum(hi, 1e-6), 0.0)
    border = np.concatenate([arr[0], arr[-1], arr[:, 0], arr[:, -1]])
    background = np.median(border, axis=0)
    ink = (np.abs(r - background[0]) > INK) | (np.abs(g - background[1]) > INK) | (np.abs(b - background[2]) > INK)
    thumb = np.asarray(small.resize(THUMB, Image.Resampling.BOX), dtype=np.uint8)
    return View(w, h, len(data), raw, arr, lum, sat, ink), thumb


def describe(data: bytes) -> Pixels:
    """Every statistic of one encoded image, and its thumbnail."""
    view, thumb = _view(data)
    return Pixels({name: float(fn(view)) for name, fn in STATISTICS.items()}, thumb)


def features(images: Sequence[Pixels]) -> dict[str, float]:
    """Features of a document from its images *in the order the model sees them*.

    ``i0.<stat>``, ``i1.<stat>`` per image; for two or more images ``d.<stat>`` (first minus
    second) and ``p.<pair statistic>`` of the first two.
    """
    out: dict[str, float] = {}
    for i, px in enumerate(images):
        out.update({f"i{i}.{k}": v for k, v in px.values.items()})
    if len(images) >= 2:
        a, b = images[0], images[1]
        out.update({f"d.{k}": v - b.values[k] for k, v in a.values.items()})
        out.update({f"p.{k}": fn(a.thumb, b.thumb) for k, fn in PAIR_STATISTICS.items()})
    return out


class PixelReader:
    """The loader hook of ``chartprobe validate``: statistics of the image cells of wanted rows.

    ``wanted(row)`` sees the row's text columns; each distinct image (by content hash) is
    decoded once, however many rows show it (a probe chart carries ~26 questions).
    """

    def __init__(self, wanted: Callable[[Mapping[str, Any]], bool]) -> None:
        self.wanted = wanted
        self._cache: dict[bytes, Pixels | None] = {}

    def __call__(self, row: Mapping[str, Any], column: str, cell: Any) -> Pixels | None:
        data = cell.get("bytes") if isinstance(cell, Mapping) else None
        if not data or not self.wanted(row):
            return None
        key = hashlib.blake2b(data, digest_size=16).digest()
        if key not in self._cache:
            self._cache[key] = self._describe(data)
        return self._cache[key]

    def _describe(self, data: bytes) -> Any:
        """The statistics of one distinct image (:class:`.pixel_pool.PooledPixelReader`: a future of them)."""
        return describe_or_none(data)


def describe_or_none(data: bytes) -> Pixels | None:
    """:func:`describe`, or None for what PIL cannot decode as an image (no statistics, no answer)."""
    try:
        return describe(data)
    except (OSError, ValueError):
        return None
