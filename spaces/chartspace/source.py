"""Where the Space reads releases from, lazily: one split at a time, one image at a time.

By default a release is the Hub repo at the revision pinned in ``chartprobe.eval_tasks.rescoring.data.HUB_REPOS``;
with ``CHARTPROBE_DATA`` set (``app.py --data DIR`` sets it) it is
``$CHARTPROBE_DATA/chartprobe-<name>``, offline — the same switch the lm-eval tasks use, so
the Space shows exactly the rows a score was computed on.

Nothing materialises a split of images: a split is opened with ``datasets.load_dataset``
(Arrow, memory-mapped), text columns are read without the image columns, and images are
decoded one row at a time through small LRU caches keyed by
``(release, config, split, index, column)``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["DataSource", "ReleaseUnavailable", "group_rows"]

IMAGE_CACHE = 256
"""Decoded full-size charts kept in memory (~1 MB each as RGB)."""
THUMB_CACHE = 2048
"""Encoded thumbnails kept in memory (~20 KB each)."""
SPLIT_CACHE = 32
"""Open splits (memory-mapped Arrow tables: cheap to keep)."""


class ReleaseUnavailable(RuntimeError):
    """A release (or config/split) the page asked for cannot be read; the message says why."""


def group_rows(keys: Sequence[Any]) -> dict[Any, list[int]]:
    """Row indices grouped by key, groups and members in first-seen order."""
    out: dict[Any, list[int]] = {}
    for i, k in enumerate(keys):
        out.setdefault(k, []).append(i)
    return out


class DataSource:
    """Release reader with per-process caches (shared by every browser session)."""

    def __init__(self) -> None:
        self.image = functools.lru_cache(maxsize=IMAGE_CACHE)(self._image)
        self.thumbnail = functools.lru_cache(maxsize=THUMB_CACHE)(self._thumbnail)
        self.marked_thumbnail = functools.lru_cache(maxsize=THUMB_CACHE)(self._marked_thumbnail)
        self.split = functools.lru_cache(maxsize=SPLIT_CACHE)(self._split)
        self.columns = functools.lru_cache(maxsize=SPLIT_CACHE * 4)(self._columns)
        self.layout = functools.lru_cache(maxsize=16)(self._layout)

    @property
    def local_root(self) -> Path | None:
        """The local releases folder when the switch is on, else None (Hub)."""
        from chartprobe.eval_tasks.rescoring.data import ENV_VAR

        root = os.environ.get(ENV_VAR)
        return Path(root).expanduser() if root else None

    def describe(self) -> str:
        """One line naming where releases come from (shown in the page header)."""
        from chartprobe.eval_tasks.rescoring.data import HUB_REPOS

        if self.local_root is not None:
            return f"local releases under `{self.local_root}`"
        pins = ", ".join(f"`{repo}@{rev}`" for repo, rev in HUB_REPOS.values())
        return f"Hub releases at their pinned revisions ({pins})"

    def _load_args(self, release: str) -> dict[str, Any]:
        from chartprobe.eval_tasks.rescoring.data import resolve_release

        try:
            return resolve_release(release)
        except (KeyError, FileNotFoundError) as exc:
            raise ReleaseUnavailable(str(exc).strip("'\"")) from None

    def _layout(self, release: str) -> dict[str, dict[str, str]]:
        """config -> split -> parquet path pattern, from the dataset card's YAML header (no data loaded)."""
        from chartprobe.dataset_builders.release.card import read_card_metadata

        args = self._load_args(release)
        folder = Path(args["path"])
        if "revision" in args:  # Hub: fetch only the card
            from huggingface_hub import hf_hub_download

            try:
                card = hf_hub_download(args["path"], "README.md", repo_type="dataset",
                                       revision=args["revision"])
            except Exception as exc:  # offline, missing repo or tag: say so in the page
                raise ReleaseUnavailable(f"cannot fetch the card of {args['path']}: {exc}") from exc
            folder = Path(card).parent
        meta = read_card_metadata(folder)
        if "revision" not in args:  # a local folder: its data must be what its card's content hash names
            from chartprobe.dataset_builders.release.integrity import IntegrityError, check_release_integrity

            try:
                check_release_integrity(folder, meta)
            except IntegrityError as exc:  # shown in the page instead of the tampered gold
                raise ReleaseUnavailable(f"release '{release}' refused: {exc}") from None
        return {c["config_name"]: {f["split"]: f["path"] for f in c["data_files"]} for c in meta.get("configs", [])}

    def configs(self, release: str) -> list[str]:
        """Config names of ``release`` in card order."""
        return list(self.layout(release))

    def splits(self, release: str, config: str) -> list[str]:
        """Splits of ``config``, ``test`` first (the split every task evaluates)."""
        splits = self.layout(release).get(config)
        if not splits:
            raise ReleaseUnavailable(f"release '{release}' has no config '{config}'")
        return sorted(splits, key=lambda s: (s != "test", s))  # dict keys: the split names

    def _split(self, release: str, config: str, split: str) -> Any:
        """One split through ``load_dataset``, restricted to that split's files: preparing a
        whole config (every split) first would cost a cold start several seconds on the full
        release, and the Hub path downloads only what is shown."""
        import datasets
        from chartprobe.dataset_builders.release.labels import as_text

        args = self._load_args(release)
        pattern = self.layout(release).get(config, {}).get(split)
        if pattern is None:
            raise ReleaseUnavailable(f"release '{release}' has no split {config}/{split}")
        try:
            return as_text(datasets.load_dataset(data_files={split: pattern}, split=split, **args))
        except Exception as exc:  # a broken or half-written release must not take the app down
            raise ReleaseUnavailable(f"cannot load {release}/{config}/{split}: {exc}") from exc

    def _columns(self, release: str, config: str, split: str, names: tuple[str, ...]) -> dict[str, list]:
        """Plain Python lists of the text columns ``names`` (missing ones are absent)."""
        ds = self.split(release, config, split)
        present = [n for n in names if n in ds.column_names]
        table = ds.data.table.select(present)
        return {n: table.column(n).to_pylist() for n in present}

    def _image(self, release: str, config: str, split: str, index: int, column: str = "image") -> Any:
        """The decoded PIL image (RGB) of one row; decodes that row's column only."""
        ds = self.split(release, config, split)
        if not 0 <= index < len(ds):
            raise ReleaseUnavailable(f"{release}/{config}/{split} has no row {index}")
        return ds.select_columns([column])[int(index)][column].convert("RGB")

    def _thumbnail(self, release: str, config: str, split: str, index: int, column: str = "image",
                   width: int = 360) -> str:
        """A ``data:`` URI of the row's image scaled to ``width`` pixels (JPEG, for HTML grids)."""
        from chartspace.images import data_uri, scaled

        return data_uri(scaled(self.image(release, config, split, index, column), width))

    def _marked_thumbnail(self, release: str, config: str, split: str, index: int, column: str,
                          boxes: tuple, width: int = 360) -> str:
        """:meth:`thumbnail` with ``boxes`` (``(box, label, colour)`` tuples) drawn on a copy of
        the full-size chart first, so outlines stay sharp; no boxes: the plain thumbnail."""
        from chartspace.images import data_uri, draw_boxes, scaled

        if not boxes:
            return self.thumbnail(release, config, split, index, column, width)
        image = draw_boxes(self.image(release, config, split, index, column), boxes)
        return data_uri(scaled(image, width))

    def cache_info(self) -> dict[str, Any]:
        """Hit/miss counters of the caches (for benchmarks and the about box)."""
        return {name: getattr(self, name).cache_info()._asdict()
                for name in ("image", "thumbnail", "marked_thumbnail", "split", "columns", "layout")}
