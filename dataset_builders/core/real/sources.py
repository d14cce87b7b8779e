"""Where a real config's slices come from: every registered recipe, or a user's mapping files."""

from __future__ import annotations

import functools
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
    return {name: list(_recipe_slices(name)) for name, make in RECIPES.items() if kind in make.kinds}


@functools.cache
def _recipe_slices(name: str) -> tuple[Any, ...]:
    """Every slice of one registered recipe, made once per process: a recipe reads and groups its
    whole table (~0.1 s), and every (domain, tier) of a build asks for the same slices."""
    from .recipes import RECIPES

    return tuple(RECIPES.get(name)())
