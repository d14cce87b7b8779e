"""Byte-neutral PNGs: images shown together share one file size and keep their pixels."""

from __future__ import annotations

import io

import numpy as np
import pytest
from chartprobe.dataset_builders.core.png_pad import PAD_KEYWORD, PngPadError, equalize, pad_to, strip_pad
from PIL import Image


def _png(seed: int, size=(40, 30)) -> bytes:
    rng = np.random.default_rng(seed)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (*size[::-1], 3), dtype=np.uint8)).save(out, format="PNG")
    return out.getvalue()


def test_equalized_pngs_have_one_size_and_the_same_pixels():
    small, large = _png(0, (10, 10)), _png(1, (60, 40))
    a, b = equalize(small, large)
    assert len(a) == len(b) > len(large)
    for before, after in ((small, a), (large, b)):
        img = Image.open(io.BytesIO(after))
        img.load()
        assert PAD_KEYWORD.decode() in img.info  # exactly one pad chunk, read as a text entry
        assert np.array_equal(np.asarray(img), np.asarray(Image.open(io.BytesIO(before))))


def test_strip_pad_gives_back_the_render():
    pngs = (_png(5), _png(6, (20, 20)))
    assert tuple(strip_pad(p) for p in equalize(*pngs)) == pngs
    assert strip_pad(b"\xff\xd8 a jpeg") == b"\xff\xd8 a jpeg"


def test_equalize_is_deterministic():
    pngs = (_png(2), _png(3))
    assert equalize(*pngs) == equalize(*pngs)


def test_pad_refuses_what_it_cannot_pad():
    png = _png(4)
    with pytest.raises(PngPadError, match="cannot pad"):
        pad_to(png, len(png) + 3)
    with pytest.raises(PngPadError, match="not a PNG"):
        pad_to(b"GIF89a", 100)


def test_judge_pairs_cannot_be_told_apart_by_file_size(release_root):
    """Every CPA and CRJ item's two images have the same byte length (the metadata agent's lever)."""
    import pyarrow.parquet as pq

    release = release_root / "chartprobe-judge"
    pairs = {"cpa": ("image_better", "image_worse"),
             "crj_reproduction": ("image_reference", "image_candidate"),
             "crj_editing": ("image_reference", "image_candidate")}
    for config, (left, right) in pairs.items():
        for path in sorted((release / config).glob("*.parquet")):
            for row in pq.read_table(path, columns=[left, right]).to_pylist():
                assert len(row[left]["bytes"]) == len(row[right]["bytes"])


def test_legend_rows_of_one_base_chart_share_one_file_size(release_root):
    """A masked legend draws less ink; the file size of its variant must not say so."""
    from collections import defaultdict

    import pyarrow.parquet as pq

    sizes: dict[str, set[int]] = defaultdict(set)
    for path in sorted((release_root / "chartprobe-legend").glob("*/*.parquet")):
        for row in pq.read_table(path, columns=["base_id", "image"]).to_pylist():
            sizes[row["base_id"]].add(len(row["image"]["bytes"]))
    assert sizes and all(len(s) == 1 for s in sizes.values())
