"""``chartprobe merge``: shard folders -> the release, exactly as the unsharded build makes it.

The shards must come from one recipe and one generator version, and be exactly shards
``0..n-1`` of ``n``. Each generated split is the shards' rows concatenated in shard order
(shard ``i`` built the ``i``-th key range, so this is key order); derived configs are then
derived over the whole, and the release is verified, hashed, described and written by the
same ``hub.finish`` a build uses, so its content hash equals the unsharded build's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.targets import refuse_foreign
from .dataset import DATASETS, GENERATOR_VERSION
from .hub import ReleaseError, ReleaseInfo, finish
from .lock import release_lock
from .plan import complete, datasets_bars_off, split_steps
from .pool import ItemFailed, item_pool, preset_from_json
from .shards import read_manifest
from .swap import check_written, clean_leftovers, swap_into_place, workdir

__all__ = ["merge_shards"]


def _checked(folders: list[Path]) -> list[tuple[Path, dict[str, Any]]]:
    """The shards in shard order, after checking that they make one whole build."""
    if not folders:
        raise ReleaseError("merge: no shard folders given")
    try:
        shards = [(Path(f), read_manifest(Path(f))) for f in folders]
    except ValueError as exc:
        raise ReleaseError(f"merge: {exc}") from None
    first = shards[0][1]
    for folder, m in shards[1:]:
        for key in ("dataset", "recipe", "generator_version"):
            if m[key] != first[key]:
                raise ReleaseError(f"merge: {folder} has another {key} than {shards[0][0]}: "
                                   "shards must come from one `chartprobe build ... --shard I/N` recipe")
    if first["generator_version"] != GENERATOR_VERSION:
        raise ReleaseError(f"merge: the shards were built by chartprobe {first['generator_version']}, "
                           f"this is {GENERATOR_VERSION}: merge with the version that built them")
    n = {m["shard"][1] for _, m in shards}
    if len(n) != 1:
        raise ReleaseError(f"merge: the shards disagree on the shard count: {sorted(n)}")
    total = n.pop()
    index = sorted(m["shard"][0] for _, m in shards)
    if index != list(range(total)):
        missing = sorted(set(range(total)) - set(index))
        twice = sorted({i for i in index if index.count(i) > 1})
        what = (f"missing {', '.join(f'{i}/{total}' for i in missing)}" if missing else
                f"given twice: {', '.join(f'{i}/{total}' for i in twice)}")
        raise ReleaseError(f"merge: shards of {total} are incomplete ({what})")
    return sorted(shards, key=lambda s: s[1]["shard"][0])


def _concatenated(builder: Any, recipe: Any, shards: list[tuple[Path, dict[str, Any]]], cache: Path,
                  steps: list[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Each generated split: its shards' rows in shard order, memory-mapped from one Arrow file."""
    import pyarrow.parquet as pq
    from datasets import Dataset
    from datasets.arrow_writer import ArrowWriter

    cache.mkdir(parents=True, exist_ok=True)
    built: dict[str, dict[str, Any]] = {}
    for config, split in steps:
        entries = [(folder, m["splits"].get(config, {}).get(split)) for folder, m in shards]
        if any(e is None for _, e in entries):
            raise ReleaseError(f"merge: {config}/{split} is missing from a shard")
        want = len(builder.item_keys(recipe, config, split))
        if sum(e["items"] for _, e in entries) != want:
            raise ReleaseError(f"merge: the shards hold {sum(e['items'] for _, e in entries)} items of "
                               f"{config}/{split}, the recipe has {want}")
        path = cache / f"{config}-{split}.arrow"
        with ArrowWriter(features=builder.features(config), path=str(path)) as writer:
            for folder, entry in entries:
                for rel in entry["files"]:
                    table = pq.read_table(folder / rel)
                    if len(table):
                        writer.write_table(table)
            writer.finalize()
        built.setdefault(config, {})[split] = Dataset.from_file(str(path), split=split)
    return built


def merge_shards(folders: list[str | Path], out_root: str | Path, *, overwrite: bool = False,
                 num_proc: int = 1, command: str | None = None, progress: bool = False) -> ReleaseInfo:
    """Assemble shard folders into ``out_root/chartprobe-<name>`` (verified, hashed, with its card).

    Nothing is written unless the shards make one whole build; an existing release is
    replaced only with ``overwrite`` and only once the merged one is complete.
    """
    shards = _checked([Path(f) for f in folders])
    manifest = shards[0][1]
    builder = DATASETS.get(manifest["dataset"])()
    recipe = preset_from_json(manifest["recipe"])
    out_root = Path(out_root)
    final = out_root / builder.repo_name
    refuse_foreign(final, folder=True)  # renamed aside by the swap: only a real folder may be replaced
    with release_lock(out_root, builder.repo_name):  # one writer per release name (as build_release)
        clean_leftovers(out_root)
        if final.exists() and not overwrite:
            raise ReleaseError(f"{final} already exists (pass --overwrite to replace it)")
        return _merge_locked(builder, recipe, shards, out_root, num_proc, command, progress)


def _merge_locked(builder, recipe, shards, out_root: Path, num_proc: int, command: str | None,
                  progress: bool) -> ReleaseInfo:
    """The merge proper, once :func:`merge_shards` holds the release's lock and has checked its name."""
    final = out_root / builder.repo_name
    direct, later = split_steps(builder, recipe)
    with workdir(out_root, builder.repo_name) as tmp, datasets_bars_off():
        built = _concatenated(builder, recipe, shards, tmp / "cache", direct)
        try:
            with item_pool(builder.name, recipe, num_proc) as run:
                built = complete(builder, recipe, built, later, run, tmp / "cache", progress=progress)
        except ItemFailed as exc:
            raise ReleaseError(f"building {builder.name} {exc}") from None
        digest, num_rows = finish(builder, recipe, built, tmp, command, progress)
        try:
            check_written(tmp / "release", num_rows)
        except ValueError as exc:
            raise ReleaseError(f"{builder.repo_name}: the written files are not the merge: {exc}") from None
        swap_into_place(tmp / "release", final, tmp)
    return ReleaseInfo(path=final, content_hash=digest, num_rows=num_rows)
