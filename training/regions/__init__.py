"""Capability regions: which slices of a benchmark a profile measures and a selection targets.

A :class:`RegionSet` describes one trainable benchmark (``--data probes`` or ``--data legend``):
the release it reads, the configs it trains from, how a row is scored and prompted, which
rows are evaluation-only, and its *dimensions*. A dimension names a way to cut rows into
regions, as a function of the row (a dataset row, an lm-eval sample's ``doc`` or a scored
record: the same columns), e.g. ChartProbe's ``skill`` (perception, grounding, reasoning) or
LegendBench's ``capability`` (guide reading, binding, value extraction, reasoning,
abstention). Region sets register with ``@region_set(name)``; profiles, selection and the
study tables are written once over the registry.
"""

from __future__ import annotations

from ._base import REGION_SETS, Dimension, RegionSet, Row, column, crossed, region_set

__all__ = ["REGION_SETS", "Dimension", "RegionSet", "Row", "column", "crossed", "get_region_set", "region_set",
           "region_sets"]


def get_region_set(name: str) -> RegionSet:
    """The registered region set ``name`` (imports the built-in ones on first use)."""
    from . import legend, probes  # noqa: F401  (register)

    if name not in REGION_SETS:
        raise KeyError(f"--data {name}: choose one of {', '.join(sorted(REGION_SETS))}")
    return REGION_SETS[name]()


def region_sets() -> dict[str, RegionSet]:
    """Every registered region set, by name."""
    from . import legend, probes  # noqa: F401  (register)

    return {name: cls() for name, cls in sorted(REGION_SETS.items())}
