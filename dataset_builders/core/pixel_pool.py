"""The pixel statistics of a release's images computed in worker processes while it loads.

``chartprobe validate`` reads a release a few hundred rows at a time and describes each distinct
image it meets (:class:`.image_statistics.PixelReader`): decoding and measuring 3,946 images of
the full probes release took 21 of the 27 s its load took, in one process. With ``--num-proc N``
each new image is handed to one of N worker processes as it is met, the loader reads on, and
:meth:`PooledPixelReader.finish` puts every result in place once the last row is read. The
numbers are :func:`.image_statistics.describe`'s, whichever process computed them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Any

from .image_statistics import PixelReader, describe_or_none

__all__ = ["PooledPixelReader"]


class PooledPixelReader(PixelReader):
    """A :class:`PixelReader` whose images are described by ``num_proc`` worker processes: a row's
    ``pixels`` is a future until :meth:`finish` (call :meth:`close` when loading stops early)."""

    def __init__(self, wanted: Callable[[Mapping[str, Any]], bool], num_proc: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from .vega.runtime import start_method

        super().__init__(wanted)
        # fork unless this process has started Vega's runtime (a forked child would wait on its threads)
        self._pool = ProcessPoolExecutor(num_proc, mp_context=multiprocessing.get_context(start_method()))

    def _describe(self, data: bytes) -> Future:
        return self._pool.submit(describe_or_none, data)

    def finish(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Replace every future in ``rows``' ``image_meta[...]["pixels"]`` by its statistics (an image
        PIL could not decode loses its ``pixels`` key, as in one process), then stop the workers."""
        try:
            for row in rows:
                for meta in (row.get("image_meta") or {}).values():
                    if meta is not None and isinstance(meta.get("pixels"), Future):
                        value = meta["pixels"].result()
                        if value is None:
                            del meta["pixels"]
                        else:
                            meta["pixels"] = value
        finally:
            self.close()

    def close(self) -> None:
        """Stop the workers (what is still queued is dropped)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
