"""Where a released member's image is, and how it is embedded (Pillow only, deterministic).

The export writes ``image`` relative to its own folder (``images/<variant>/<chart_id>.png``; the
original keeps its source suffix: ``images/original/<chart_id><ext>``), so a path is looked up next
to the row file that names it, then under the released folder's root; it may not leave the
folder. The released card says the upstream chart images are not included ("Researchers can recover these
original images using the ``source_row_index`` field paired with upstream dataset identifiers"): an
original whose ``image`` is empty or names a file that is not there is looked up at the restore
location :func:`restore_path` (``originals/<source_dataset_split>/<source_row_index>.<png|jpg|jpeg|webp>``
under the released folder; README "The released families" says how to fill it), and refused with
that hint when it is not there either.

Embedding: an RGB PNG is kept byte for byte; anything else Pillow can read (JPEG originals, RGBA or
palette PNGs) is converted to RGB and saved as PNG, pixels unchanged (the lm-eval harness and our
tasks read RGB PNG). Images that Pillow cannot decode are refused.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from .released_rows import ReleasedFamiliesError

__all__ = ["MAX_IMAGE_BYTES", "RESTORE_DIR", "embed", "find_image", "restore_path"]

MAX_IMAGE_BYTES = 64 << 20
RESTORE_DIR = "originals"
RESTORE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _inside(root: Path, base: Path, rel: str, where: str) -> Path | None:
    """``base/rel`` when it is a file inside the released folder ``root`` (refused when it leaves it)."""
    path = (base / rel).resolve()
    if Path(rel).is_absolute() or root.resolve() not in path.parents:
        raise ReleasedFamiliesError(f"{where}: image {rel!r} points outside the released folder")
    return path if path.is_file() else None


def restore_path(source_split: str, row_index: int | None) -> str:
    """Where an original that is not in the release is looked up (suffix: any of RESTORE_SUFFIXES)."""
    return f"{RESTORE_DIR}/{source_split}/{'?' if row_index is None else row_index}"


def find_image(root: Path, row_file: Path, rel: str, where: str, *, original: tuple[str, int | None] | None = None) -> str:
    """The image's path relative to ``root``: next to the row file, else under ``root``; an
    original (``original`` = its source split and row index) also at its restore location."""
    for base in dict.fromkeys((row_file.parent, root)):
        path = _inside(root, base, rel, where) if rel else None
        if path is not None:
            return path.relative_to(root.resolve()).as_posix()
    if original is not None and original[1] is not None:
        stem = restore_path(*original)
        for suffix in RESTORE_SUFFIXES:
            if _inside(root, root, f"{stem}{suffix}", where) is not None:
                return f"{stem}{suffix}"
    if original is not None:
        raise ReleasedFamiliesError(
            f"{where}: the original chart image {rel or '(none)'!r} is not in the release (the released card: "
            f"upstream chart images are not included); put the source benchmark's image at "
            f"{root / restore_path(*original)}.png (README: the released families)")
    raise ReleasedFamiliesError(f"{where}: image {rel!r} is missing (looked next to {row_file.name} and under {root})")


def read_checked(root: Path, rel: str, where: str) -> tuple[bytes, str]:
    """(bytes, sha256) of an image file, refused when too large or not an image Pillow decodes."""
    from PIL import Image, UnidentifiedImageError

    path = root / rel
    if path.stat().st_size > MAX_IMAGE_BYTES:
        raise ReleasedFamiliesError(f"{where}: image {rel} is larger than {MAX_IMAGE_BYTES} bytes")
    data = path.read_bytes()
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ReleasedFamiliesError(f"{where}: image {rel} is not an image Pillow can read "
                                    f"({type(exc).__name__})") from None
    return data, hashlib.sha256(data).hexdigest()


def embed(data: bytes) -> tuple[bytes, bool]:
    """(RGB PNG bytes, whether they were converted): RGB PNGs as they are, the rest converted."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        if data.startswith(PNG_MAGIC) and img.mode == "RGB":
            return data, False
        out = io.BytesIO()
        img.convert("RGB").save(out, format="PNG")
    return out.getvalue(), True
