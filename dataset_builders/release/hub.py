"""Releases: build a dataset into a Hub-layout folder, hash it, and push it.

A release folder looks exactly like a Hub dataset repo::

    chartprobe-<name>/
      README.md                                  # dataset card (YAML configs, features, provenance)
      <config>/<split>-00000-of-00001.parquet    # images embedded as the datasets Image feature

so ``load_dataset(folder, config, split=...)`` reads it offline exactly as
``load_dataset("chartprobe/chartprobe-<name>", config, revision=tag)`` reads the Hub.

Rows are produced item by item by one worker pool per build (``pool.py``), in key order;
``--num-proc`` only decides how many processes build the items, so the rows, their order
and the content hash never depend on it. Each distinct image is stored once per row group
(``parquet.py``). Everything is written into a
temporary sibling folder, verified, and renamed into place by ``swap.py``, so a crash leaves
no half release and the previous release stays in place until the new one is complete.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.atomic import atomic_write
from ..core.targets import refuse_foreign
from .card import write_card
from .dataset import DATASETS, GENERATOR_VERSION
from .digest import content_hash
from .labels import as_text
from .lock import release_lock
from .parquet import MAX_SHARD_BYTES, write_split
from .plan import datasets_bars_off
from .preset import Preset, load_preset, preset_path
from .shards import check_shard, shard_name, write_shard
from .swap import check_written, clean_leftovers, swap_into_place, workdir

__all__ = ["MAX_SHARD_BYTES", "ReleaseError", "ReleaseInfo", "build_release", "content_hash", "finish"]


class ReleaseError(RuntimeError):
    """A release cannot be built or written."""


@dataclass(frozen=True)
class ReleaseInfo:
    """What a finished build produced."""

    path: Path
    content_hash: str
    num_rows: dict[str, dict[str, int]]


def build_release(name: str, out_root: str | Path, preset: str | Path | Preset = "small", *,
                  num_proc: int = 1, seed: int | None = None, overwrite: bool = False,
                  command: str | None = None, progress: bool = False,
                  params: dict[str, Any] | None = None, shard: tuple[int, int] | None = None) -> ReleaseInfo:
    """Build dataset ``name`` with a preset (bundled name, YAML path, or a :class:`Preset` made in
    code, e.g. an importer's recipe for released data) into ``out_root``.

    ``params`` are added to every config's params (checked against the builder like the
    preset's own, and recorded with them in the card): e.g. legend's ``--tables``.

    Returns the release path, its content hash and row counts. The folder is
    ``out_root/chartprobe-<name>``; an existing one is replaced only with ``overwrite``, and
    only once the new one is written and verified: if this raises (``KeyboardInterrupt``
    included), the previous release is in place as it was. What killed builds left in
    ``out_root`` is cleaned up first (see :func:`~.swap.clean_leftovers`).

    ``shard=(i, n)`` builds only the ``i``-th of ``n`` key ranges of every generated split into
    ``chartprobe-<name>-shard-<i>-of-<n>`` (``shards.py``); ``chartprobe merge`` assembles them.
    """
    builder = DATASETS.get(name)()
    if isinstance(preset, Preset):  # made in code: checked against the builder with its params below
        source, recipe = f"the {preset.preset} recipe", preset
    else:
        source = Path(preset) if str(preset).endswith((".yaml", ".yml")) else preset_path(name, str(preset))
        recipe = load_preset(source)
    if recipe.dataset != name:
        raise ReleaseError(f"preset {source} is for dataset {recipe.dataset!r}, not {name!r}")
    if seed is not None:
        recipe = Preset(**{**recipe.__dict__, "seed": seed})
    if params or isinstance(preset, Preset):
        recipe = _with_params(recipe, params or {}, source)
    if num_proc < 1:
        raise ReleaseError(f"--num-proc must be >= 1, got {num_proc}")
    if shard is not None and not (len(shard) == 2 and 0 <= shard[0] < shard[1]):
        raise ReleaseError(f"shard must be (i, n) with 0 <= i < n, got {shard!r}")
    out_root = Path(out_root)
    target = builder.repo_name if shard is None else shard_name(builder.repo_name, shard)
    final = out_root / target
    refuse_foreign(final, folder=True)  # renamed aside by the swap: only a real folder may be replaced
    # The lock comes before the existence check: two builds must not both find the name free.
    with release_lock(out_root, target):
        clean_leftovers(out_root)  # first, so that a previous release a killed build left aside is back
        if final.exists() and not overwrite:
            raise ReleaseError(f"{final} already exists (pass --overwrite to replace it)")
        return _build_locked(builder, recipe, out_root, target, shard, num_proc, command, progress)


def _build_locked(builder, recipe: Preset, out_root: Path, target: str, shard: tuple[int, int] | None,
                  num_proc: int, command: str | None, progress: bool) -> ReleaseInfo:
    """The build proper, once :func:`build_release` holds the release's lock and has checked its name."""
    final = out_root / target
    with workdir(out_root, target) as tmp, datasets_bars_off():
        if shard is not None:
            digest, num_rows = write_shard(builder, recipe, shard, tmp, num_proc, progress)
        else:
            digest, num_rows = _build_splits_and_card(builder, recipe, tmp, num_proc, command, progress)
        try:
            (check_shard if shard is not None else check_written)(tmp / "release", num_rows)
        except ValueError as exc:
            raise ReleaseError(f"{target}: the written files are not the build: {exc}") from None
        swap_into_place(tmp / "release", final, tmp)
    return ReleaseInfo(path=final, content_hash=digest, num_rows=num_rows)


def _with_params(recipe: Preset, params: dict[str, Any], source: Path | str) -> Preset:
    from .preset import ConfigPreset, check_against_builder
    from .schema import FieldError, PresetError

    configs = {name: ConfigPreset(splits=dict(c.splits), params={**c.params, **params})
               for name, c in recipe.configs.items()}
    recipe = Preset(**{**recipe.__dict__, "configs": configs})
    try:
        check_against_builder(recipe)
    except FieldError as exc:
        raise PresetError(f"{source}: {exc}") from None
    return recipe


def _build_splits_and_card(builder, recipe: Preset, tmp: Path, num_proc: int, command: str | None,
                           progress: bool):
    from .plan import complete, generate, split_steps
    from .pool import ItemFailed, item_pool

    direct, later = split_steps(builder, recipe)
    try:
        with item_pool(builder.name, recipe, num_proc) as run:
            built = generate(builder, recipe, direct, run, tmp / "cache", progress=progress)
            built = complete(builder, recipe, built, later, run, tmp / "cache", progress=progress)
    except ItemFailed as exc:  # the builder's own error, in one line naming the item
        raise ReleaseError(f"building {builder.name} {exc}") from None
    return finish(builder, recipe, built, tmp, command, progress)


def finish(builder, recipe: Preset, built: dict[str, dict[str, Any]], tmp: Path, command: str | None,
           progress: bool):
    """Verify, hash and write a complete release into ``tmp/release`` (card and files).

    Shared by a build and by ``chartprobe merge``, so a merged release is checked, hashed and
    described exactly as an unsharded one. Returns ``(content hash, row counts)``.
    """
    release_dir = tmp / "release"
    texts = {c: {s: as_text(ds) for s, ds in splits.items()} for c, splits in built.items()}
    try:
        builder.verify(texts)  # builders check names, not a ClassLabel's integers
    except ValueError as exc:
        raise ReleaseError(f"{builder.repo_name} failed verification: {exc}") from None
    digest = content_hash(built)  # over names: the hash does not follow the label encoding
    files = {c: {s: write_split(ds, release_dir, c, s) for s, ds in splits.items()}
             for c, splits in built.items()}
    num_rows = {c: {s: len(ds) for s, ds in splits.items()} for c, splits in built.items()}
    write_card(release_dir, builder, recipe, built, files, digest,
               command=command or f"chartprobe build {builder.name} --preset {recipe.preset}",
               generator_version=GENERATOR_VERSION)
    for rel, payload in builder.card_files(built).items():
        target = (release_dir / rel).resolve()
        if release_dir.resolve() not in target.parents:  # a builder bug must not write elsewhere
            raise ReleaseError(f"card file {rel!r} escapes the release folder")
        atomic_write(target, payload)
    built.clear()  # drop the memory-mapped datasets before their cache folder is deleted
    texts.clear()
    shutil.rmtree(tmp / "cache", ignore_errors=True)
    return digest, num_rows
