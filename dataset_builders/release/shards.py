"""One shard of a build: the ``i``-th of ``n`` key ranges of every generated split.

Every item depends only on ``(preset, config, split, key)``, and the content hash runs over
rows in key order, so a build can be split across machines: ``chartprobe build NAME
--shard i/N`` on each (a Slurm job array, any scheduler), then ``chartprobe merge`` on the
shard folders, which gives the release the unsharded build gives, hash included.

A shard folder, ``chartprobe-<name>-shard-<i>-of-<n>/``, holds one parquet file per
generated split (derived configs are made at merge time, over the whole ``all``) and
``shard.json``: the format, the dataset, ``[i, n]``, the exact recipe (JSON text, in preset order), the generator
version, and each split's item and row counts. It is written atomically like a release.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.atomic import atomic_write
from .dataset import GENERATOR_VERSION
from .digest import content_hash
from .parquet import write_split
from .plan import generate, key_range, split_steps
from .pool import item_pool, preset_to_json
from .recipe import Preset

__all__ = ["SHARD_FORMAT", "check_shard", "parse_shard", "read_manifest", "shard_name", "write_shard"]

SHARD_FORMAT = "chartprobe-shard/1"
MANIFEST = "shard.json"


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/N"`` -> ``(i, N)`` with ``0 <= i < N`` (``ValueError`` with one clear line otherwise)."""
    left, sep, right = text.partition("/")
    try:
        i, n = int(left), int(right)
    except ValueError:
        raise ValueError(f"must be I/N (0-based shard I of N, e.g. 0/3), got {text!r}") from None
    if not sep or n < 1 or not 0 <= i < n:
        raise ValueError(f"must be I/N with 0 <= I < N, got {text!r}")
    return i, n


def shard_name(repo_name: str, shard: tuple[int, int]) -> str:
    """The folder a shard is written to (a sibling of the release it belongs to)."""
    return f"{repo_name}-shard-{shard[0]:05d}-of-{shard[1]:05d}"


def write_shard(builder: Any, recipe: Preset, shard: tuple[int, int], tmp: Path, num_proc: int,
                progress: bool) -> tuple[str, dict[str, dict[str, int]]]:
    """Generate shard ``shard`` into ``tmp/release`` (parquet + ``shard.json``).

    Returns the shard's own content hash (over its rows; the merged release has its own) and
    its row counts.
    """
    direct, _ = split_steps(builder, recipe)
    with item_pool(builder.name, recipe, num_proc) as run:
        built = generate(builder, recipe, direct, run, tmp / "cache", shard=shard, progress=progress)
    release = tmp / "release"
    splits: dict[str, dict[str, Any]] = {}
    for config, by_split in built.items():
        for split, ds in by_split.items():
            items = len(key_range(builder.item_keys(recipe, config, split), shard))
            splits.setdefault(config, {})[split] = {"items": items, "rows": len(ds),
                                                    "files": write_split(ds, release, config, split)}
    digest = content_hash(built)
    manifest = {"format": SHARD_FORMAT, "dataset": builder.name, "shard": list(shard),
                "generator_version": GENERATOR_VERSION, "recipe": preset_to_json(recipe),
                "content_hash": digest, "splits": splits}
    atomic_write(release / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    built.clear()
    num_rows = {c: {s: v["rows"] for s, v in ss.items()} for c, ss in splits.items()}
    return digest, num_rows


def read_manifest(folder: Path) -> dict[str, Any]:
    """A shard folder's ``shard.json``, checked for its format (``ValueError`` otherwise)."""
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{folder}: not a shard folder (no {MANIFEST}; made by `chartprobe build --shard I/N`)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != SHARD_FORMAT:
        raise ValueError(f"{path}: format is not {SHARD_FORMAT}")
    return manifest


def check_shard(folder: Path, num_rows: dict[str, dict[str, int]]) -> None:
    """The written shard holds what was built: every split's files, with its row count."""
    import pyarrow.parquet as pq

    manifest = read_manifest(folder)
    for config, splits in num_rows.items():
        for split, want in splits.items():
            files = manifest["splits"].get(config, {}).get(split, {}).get("files", [])
            got = sum(pq.read_metadata(folder / f).num_rows for f in files)
            if not files or got != want:
                raise ValueError(f"{config}/{split}: files hold {got} rows, the shard made {want}")
