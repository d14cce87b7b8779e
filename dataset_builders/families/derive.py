"""Configs computed from ``all`` instead of re-rendered: each family is drawn once per build.

A group config (``bars``, ``lines``...) holds the very families of ``all`` whose source is in
the group (family ``k`` names the same rows everywhere), and ``resolution`` holds each
family's reconstruction rescaled. Rendering them again costs two more full passes over
every family (each family renders 12-24 charts to decide its layout), so when every family
a config asks for is already in ``all`` its rows are selected or rescaled from there. The
rows are exactly what ``build_item`` yields (``FamiliesDataset.verify`` and
``tests/test_families_derive.py`` check it); a config asking for families outside ``all``
is generated as before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

__all__ = ["DERIVED", "derived", "regrouped", "rescaled"]


def _positions(all_ds: Any, roles: tuple[str, ...] | None = None) -> dict[str, list[int]]:
    cols = all_ds.select_columns(["family_id", "role"]).to_dict()
    out: dict[str, list[int]] = defaultdict(list)
    for i, (fid, role) in enumerate(zip(cols["family_id"], cols["role"], strict=True)):
        if roles is None or role in roles:
            out[fid].append(i)
    return out


def regrouped(all_ds: Any, family_ids: list[str], features: Any) -> Any | None:
    """The rows of ``family_ids`` in that order, taken from ``all`` (None: one is missing)."""
    where = _positions(all_ds)
    if any(f not in where for f in family_ids):
        return None
    # flatten_indices: the content hash and parquet writer read the table, not an index map.
    return all_ds.select([i for f in family_ids for i in where[f]]).flatten_indices()


def rescaled(all_ds: Any, family_ids: list[str], features: Any) -> Any | None:
    """Each family's reconstruction at every ``RESOLUTION_SCALES`` scale (None: one is missing)."""
    from datasets import Dataset

    from .images import RESOLUTION_SCALES, degrade

    where = _positions(all_ds, roles=("reconstruction",))
    if any(len(where.get(f, ())) != 1 for f in family_ids):
        return None
    # Arrow format keeps the image cells as stored bytes; decoding to PIL would re-encode them.
    recons = all_ds.select([where[f][0] for f in family_ids]).with_format("arrow")[:].to_pylist()
    rows = []
    for recon in recons:
        png = recon["image"]["bytes"]
        for scale in RESOLUTION_SCALES:
            degradation = "" if scale == 1.0 else f"bicubic:{scale:g}"
            rows.append({**recon, "id": f"{recon['family_id']}-reconstruction-{int(scale * 100)}",
                         "image": {"bytes": degrade(png, degradation), "path": None},
                         "scale": scale, "degradation": degradation})
    return Dataset.from_list(rows, features=features)


DERIVED: dict[str, Callable[[Any, list[str], Any], Any | None]] = {"resolution": rescaled}
"""How a config is computed from ``all``; every other config but ``all`` is regrouped."""


def derived(config: str, family_ids: list[str], all_ds: Any | None, features: Any) -> Any | None:
    """``config`` computed from the built ``all`` split, or None when it must be generated."""
    if config == "all" or all_ds is None:
        return None
    return DERIVED.get(config, regrouped)(all_ds, family_ids, features)
