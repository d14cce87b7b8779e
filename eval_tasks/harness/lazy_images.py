"""Release images for lm-eval decoded when a model reads them, and dropped again soon after.

lm-eval builds every request of a run before it runs one, and each request holds its document and
the images ``doc_to_image`` returned; with ``--log_samples`` it iterates the documents a second
time and keeps each one in its logged sample until the run ends. A ``datasets`` ``Image`` column
decodes every image as it is read (``PIL.Image.load``), so a run held every chart of every task
decoded twice: about 1.2 MB each (640 x 480, 4 bytes a pixel), 3.5 GB over the quick start's tasks.

:func:`lazy_images` wraps a task's ``custom_dataset`` loader so that its image columns come out as
:class:`LazyChart`: a ``PIL.Image`` opened on the release's PNG bytes (size and mode known, nothing
decoded). Anything that reads the pixels (a processor, ``convert``, ``save``, ``np.asarray``) decodes
it as usual; the last :data:`KEEP` decoded charts stay decoded, and an older one goes back to the
state it was opened in, its pixels decoded again if it is read again. A model reads an image in
the batch that sends it, so a run holds a batch's images decoded plus the PNG bytes of the rest.
The documents, prompts, answers and responses are the same: only when pixels are decoded changes.
"""

from __future__ import annotations

import functools
import io
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from PIL import Image
from PIL.PngImagePlugin import PngImageFile

__all__ = ["KEEP", "LazyChart", "decoded_count", "lazy_images", "open_chart"]

KEEP = 64
"""Charts kept decoded at once: several batches' worth (a batch of 8 two-image documents reads 16),
so a chart a model is reading is never the one dropped; about 75 MB at 640 x 480."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

_lock = threading.Lock()
_decoded: OrderedDict[int, weakref.ref] = OrderedDict()


class LazyChart(PngImageFile):
    """A PNG chart whose pixels are decoded on first read and dropped after :data:`KEEP` later reads."""

    def __init__(self, data: bytes) -> None:
        self._png = data
        self._is_decoded = False
        super().__init__(io.BytesIO(data))

    def load(self) -> Any:
        """Decode (or re-decode) the pixels; mark this chart as the most recently read."""
        pixels = super().load()
        self._is_decoded = True
        _touch(self)
        return pixels

    def forget(self) -> None:
        """Drop the decoded pixels: back to the state the PNG was opened in."""
        super().__init__(io.BytesIO(self._png))
        self._is_decoded = False

    def __reduce__(self) -> tuple[Callable[[bytes], LazyChart], tuple[bytes]]:
        # PIL pickles the decoded pixels; the PNG bytes are smaller and stay lazy.
        return LazyChart, (self._png,)


def _touch(chart: LazyChart) -> None:
    """Move ``chart`` to the recent end; forget the charts beyond the last :data:`KEEP` read."""
    key = id(chart)
    with _lock:
        ref = _decoded.pop(key, None)
        # No weakref callback (it could run inside this lock); a dead entry just ages out.
        _decoded[key] = ref if ref is not None and ref() is chart else weakref.ref(chart)
        stale = []
        while len(_decoded) > KEEP:
            _, old = _decoded.popitem(last=False)
            stale.append(old())
    for old in stale:  # outside the lock: forgetting re-reads a PNG header
        if old is not None and old is not chart and old._is_decoded:
            old.forget()


def decoded_count() -> int:
    """How many :class:`LazyChart` are decoded now (at most :data:`KEEP`)."""
    with _lock:
        charts = [ref() for ref in _decoded.values()]
    return sum(1 for c in charts if c is not None and c._is_decoded)


def open_chart(value: dict[str, Any] | None) -> Image.Image | None:
    """A stored image (``{"bytes", "path"}``, as ``Image(decode=False)`` reads it) as a PIL image:
    a :class:`LazyChart` for PNG bytes, else decoded at once as ``datasets`` would."""
    if value is None:
        return None
    data = value.get("bytes")
    if data is not None and data[:8] == PNG_SIGNATURE:
        return LazyChart(data)
    image = Image.open(io.BytesIO(data) if data is not None else value["path"])
    image.load()
    return image


def _open_columns(columns: tuple[str, ...]) -> Callable[[dict[str, list]], dict[str, list]]:
    def transform(batch: dict[str, list]) -> dict[str, list]:
        for name in columns:
            if name in batch:
                batch[name] = [open_chart(v) for v in batch[name]]
        return batch
    return transform


def lazy_dataset(ds: Any) -> Any:
    """``ds`` with every ``Image`` column read as :class:`LazyChart` (the same rows and features)."""
    import datasets

    columns = tuple(name for name, feature in ds.features.items() if isinstance(feature, datasets.Image))
    if not columns:
        return ds
    for name in columns:
        ds = ds.cast_column(name, datasets.Image(decode=False))
    ds.set_transform(_open_columns(columns))
    return ds


def lazy_images(loader: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a ``custom_dataset`` loader: every split of the ``DatasetDict`` it returns reads its
    images as :class:`LazyChart`."""

    @functools.wraps(loader)
    def load(*args: Any, **kwargs: Any) -> Any:
        import datasets

        return datasets.DatasetDict({split: lazy_dataset(ds) for split, ds in loader(*args, **kwargs).items()})

    return load
