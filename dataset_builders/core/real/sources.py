"""Where a real config's slices come from: every registered recipe, or a user's mapping files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["slices_by_source"]


def slices_by_source(kind: str, tables: Sequence[str] = ()) -> dict[str, list[Any]]:
    """Slices that fit chart ``kind``, by recipe: every registered recipe's, or only those of
    the mapping files ``tables`` (a user's CSVs, :mod:`.mapping`; ValueError naming a bad one)."""
    from .mapping import load_mapping
    from .recipes import RECIPES

    found: dict[str, list[Any]] = {}
    if tables:
        for path in tables:
            part, kinds = load_mapping(path)
            if kind in kinds:
                found.setdefault(part.recipe, []).append(part)
        return found
    return {name: list(make()) for name, make in RECIPES.items() if kind in make.kinds}
