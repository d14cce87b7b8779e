"""``chartprobe validate --pool-seeds``: releases of one preset built with different seeds, validated as one.

A small preset holds a few dozen rows a config (36 judge items), too few for a learned agent
(``image_stats``) to find a tell or for its interval to exclude one. Pooling releases built
with other seeds gives it the rows without a bigger build: rows of one config/split are
concatenated, and every identifier a unit is keyed by gets the seed as a prefix
(``s1/cpa-test-0003``), so a unit of one seed is never grouped with its namesake in another
and grouped cross-validation still holds every unit out whole. The releases must be one
dataset, preset and split layout with distinct seeds, as for ``--across-seeds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .seed_check import _checked, _recipe
from .validate import ValidityReport, load_for_agents, release_dataset, report_for_rows

__all__ = ["UNIT_FIELDS", "pool_rows", "validate_pooled"]

UNIT_FIELDS = ("id", "chart_id", "family_id", "pair_id", "item_id", "group_id", "base_id", "chain_id")
"""Row fields naming a row or a unit (``Suite.unit_key``): prefixed by seed when pooled."""


def pool_rows(releases: Sequence[str | Path], agents: Sequence[str] | None = None, num_proc: int = 1
              ) -> tuple[str, dict[tuple[str, str], list[dict]]]:
    """(dataset, config/split -> rows of every release in order, unit identifiers prefixed by seed)."""
    paths = _checked(releases, "--pool-seeds")
    dataset = release_dataset(paths[0])
    pooled: dict[tuple[str, str], list[dict]] = {}
    for path in paths:
        seed = _recipe(path)[3]
        for key, rows in load_for_agents(path, dataset, agents, num_proc).items():
            for row in rows:
                for field in UNIT_FIELDS:
                    if row.get(field) is not None:
                        row[field] = f"s{seed}/{row[field]}"
            pooled.setdefault(key, []).extend(rows)
    return dataset, pooled


def validate_pooled(releases: Sequence[str | Path], agents: Sequence[str] | None = None,
                    num_proc: int = 1) -> ValidityReport:
    """One validity report over the rows of ``releases`` pooled (see the module docstring;
    ``num_proc`` as for :func:`.validate.validate_release`)."""
    dataset, rows = pool_rows(releases, agents, num_proc)
    name = " + ".join(Path(r).name for r in releases) + f" (pooled over {len(releases)} seeds)"
    return report_for_rows(name, dataset, rows, agents=agents, num_proc=num_proc)
