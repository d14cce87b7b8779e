"""``real_<domain>`` configs: the probes asked over charts of real tables (``vega_datasets``'
offline copies, :mod:`chartprobe.dataset_builders.core.real`) instead of sampled data.

The data come from a registered recipe's slice (or, with ``params.tables: [mapping.yaml, ...]``,
only from the user's CSV files those mapping files describe): a titled run of (category,
integer value) with, per category, the source rows and the aggregation that made the value. The
rest is the probe bank's: the chart is dressed (palette, legend, theme) from the item's key,
rendered once, refused if a mark is hidden or a label overlaps, and asked ``probes_per_skill``
templates of each skill, whose answers the programs compute from the spec. Each row carries
``source``: the table (file digest, package version, upstream address, licence) and each
value's rows.

Which slice an item gets is fixed, and no two items share one: the fitting windows of every
recipe are dealt out in a seeded order that alternates between recipes, and item *m* of its
tier tries candidates *m*, *m* + M, *m* + 2M... (M items of that tier in the split), so the
choice never depends on the number of worker processes. A window whose values tie (a rank
would have two answers), run monotone (position would give away every extreme) or hold a mark
too small to see is skipped, as is one in another split's hash class (in a config of several
splits). Trend probes are left out: a real series' order is its own, not one chosen to make the
question fair.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterator
from typing import Any

from ..core.occlusion import occluded
from ..core.readability import readability_problems
from ..core.real.sources import slices_by_source
from ..core.rng import rng_for
from ..core.spec import Series
from .config_sets import pool_for
from .domains import PROBE_DOMAINS, TIERS
from .orders import is_monotone
from .row_columns import PROBE_SKILLS, config_domain, question_row
from .slots import split_slot, table_slot

__all__ = ["MIN_SHARE_OF_MAX", "real_candidates", "real_rows"]

MIN_SHARE_OF_MAX = 0.04
"""The smallest value a window may hold, as a share of its largest (sampled charts: >= 5%)."""


def _tier_of(domain: Any, n: int) -> str | None:
    return next((t for t, (lo, hi) in domain.tiers if lo <= n <= hi), None)


@functools.lru_cache(maxsize=16)
def real_candidates(domain_name: str, tier: str, seed: int, tables: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """Every window of a fitting slice whose length lies in ``tier`` (pies: whole slices only),
    shuffled per recipe and dealt out one recipe at a time; when no window fits the tier (no
    table has 9 or 10 parts of a whole for a complex pie), every tier's."""
    domain = PROBE_DOMAINS[domain_name]
    whole_only = domain.name == "pie"
    per_recipe: dict[str, list[Any]] = {}
    for name, slices in slices_by_source(domain.name, tables).items():
        found = []
        for s in slices:
            if whole_only:
                found += [s] if s.whole else []
                continue
            found += [s.window(start, n) for n in range(3, len(s.categories) + 1)
                      for start in range(len(s.categories) - n + 1)]
        per_recipe[name] = found
    in_tier = {k: [s for s in v if _tier_of(domain, len(s.categories)) == tier] for k, v in per_recipe.items()}
    if any(in_tier.values()):
        per_recipe = in_tier
    per_recipe = {k: [s for s in v if _tier_of(domain, len(s.categories))] for k, v in per_recipe.items()}
    rng = rng_for(seed, f"real-{domain_name}", tier)
    lists = []
    for name in sorted(per_recipe):
        order = rng.permutation(len(per_recipe[name]))
        lists.append([per_recipe[name][int(i)] for i in order])
    lists = [lists[int(i)] for i in rng.permutation(len(lists))]
    return tuple(s for group in itertools.zip_longest(*lists) for s in group if s is not None)


def _visible(values: tuple[float, ...]) -> bool:
    """Every mark drawn at a size the eye can count: a dry month's 0 mm (or 1 mm beside 200)
    would be a bar or wedge of no height, still counted by the perception probes."""
    return min(values) > 0 and min(values) >= MIN_SHARE_OF_MAX * max(values)


def real_rows(builder: Any, preset: Any, config: str, split: str, key: str) -> Iterator[dict]:
    """Rows of one chart of a ``real_<domain>`` config: its probes, each with the table's provenance."""
    domain_name, _ = config_domain(config)
    domain = PROBE_DOMAINS[domain_name]
    index = int(key.rsplit("-", 1)[1])
    tier = TIERS[index % len(TIERS)]
    same_tier = [i for i in range(preset.configs[config].splits[split]) if TIERS[i % len(TIERS)] == tier]
    params = preset.params(config)
    candidates = real_candidates(domain_name, tier, preset.seed, tuple(params.get("tables") or ()))
    # Splits of one config keep disjoint tables by hash class, as sampled charts do; a config
    # of one split has no other to keep apart from (and a user's small CSV few windows to spare).
    slot = split_slot(split, False) if len(preset.configs[config].splits) > 1 else None
    for j in range(same_tier.index(index), len(candidates), len(same_tier)):
        part = candidates[j]
        if len(set(part.values)) < len(part.values) or is_monotone(part.values) or not _visible(part.values):
            continue
        spec = domain.dress(rng_for(preset.seed, key, "real", j), part.categories,
                            Series(part.series, part.values, part.unit), part.category_label, part.title)
        if slot is not None and table_slot(spec) != slot:
            continue
        rendered = domain.render(spec)
        if not occluded(rendered.boxes) and not readability_problems(rendered.boxes, getattr(rendered, "slanted", ())):
            break
    else:
        raise RuntimeError(f"{key}: no real-table window left for this item among {len(candidates)} "
                           f"({len(same_tier)} items of tier {tier}); ask for fewer charts in {config}/{split}")
    view = domain.view(spec, rendered.boxes)
    pool = [t for t in pool_for(config, params) if not t.needs_trend]
    per_skill = int(params.get("probes_per_skill", 3))
    questions = [q for skill in PROBE_SKILLS for q in builder._pick(
        preset.seed, key, view, [t for t in pool if t.skill == skill], per_skill, skill, lambda t, q: True)]
    source = json.dumps(part.provenance(), sort_keys=True)
    image = {"bytes": rendered.png, "path": None}
    for q in questions:
        yield {**question_row(q, chart_id=key, image=image, spec=spec, seed=preset.seed, domain=domain_name,
                              tier=_tier_of(domain, view.n), held_out=False, rendered=rendered, view=view),
               "source": source}
