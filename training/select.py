"""Which probe rows a fine-tuning run sees: atomic skills, volume matching, bottleneck vs random.

Pure functions over *row metadata* (plain dicts with ``id``, ``skill``, ``template_id``,
``chart_kind``, ``domain``, ``held_out``...: the dataset columns without the image), so
selection is tested without torch and a run's choice is a list of ids in its manifest.

Modes (paper references in brackets):

- ``atomic``: every row of the chosen skill set P, G, SR, P+G or P+G+SR [ChartProbe §4].
  With ``volume_matched=N`` exactly N rows, split as evenly as the pool allows over the
  chosen skills, so all five configurations train on the same number of examples
  [ChartProbe supplementary §11, Table 7: 2700 train / 300 validation].
- ``bottleneck``: ``budget`` rows allocated over *capability regions* (the values of one row
  column: ``skill``, ``template_id``, ``chart_kind``, ``domain``; legend capabilities later)
  from the base model's capability profile [LegendBench §5.3, "Bottleneck-LB FT"]. The rule
  is :func:`bottleneck_weights`: the weak regions share ``ratio`` of the budget (default
  0.8), the others ``1 - ratio``.
- ``random``: ``budget`` rows drawn uniformly from the same pool ["Random-LB FT"].

Complex-reasoning rows (skill ``complex`` or ``held_out``) are never selected: every mode
goes through :func:`check_no_complex`, which raises rather than ``assert`` so ``python -O``
cannot switch the guard off.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

SKILL_CODES = {"P": "perception", "G": "grounding", "SR": "reasoning"}
SKILL_SETS = ("P", "G", "SR", "P+G", "P+G+SR")
MODES = ("atomic", "bottleneck", "random")
COMPLEX_SKILL = "complex"
DEFAULT_RATIO = 0.8
# A region the model already aces still keeps a sliver of weight, so the strong side of
# the split never divides by zero and never vanishes entirely.
MIN_ERROR = 0.01
VALIDATION_FRACTION = 1 / 9  # the paper's 90/10 train/validation split (2700/300)

Row = Mapping[str, Any]


class SelectionError(ValueError):
    """A selection request that cannot be met (unknown skills, budget too large, CR rows...)."""


def parse_skills(spec: str) -> tuple[str, ...]:
    """``"P+G"`` -> ``("perception", "grounding")``; CR and unknown codes are refused."""
    codes = [c.strip().upper() for c in spec.split("+") if c.strip()]
    bad = [c for c in codes if c not in SKILL_CODES]
    if not codes or bad:
        raise SelectionError(f"skills {spec!r}: use P, G, SR or a '+' combination such as "
                             f"{', '.join(SKILL_SETS)} (complex reasoning is never trained on)")
    return tuple(dict.fromkeys(SKILL_CODES[c] for c in codes))


def is_complex(row: Row) -> bool:
    """Held-out complex-reasoning row (by skill or by the ``held_out`` flag)."""
    return row.get("skill") == COMPLEX_SKILL or bool(row.get("held_out"))


def check_no_complex(rows: Iterable[Row]) -> None:
    """Raise :class:`SelectionError` if any row is a complex-reasoning item."""
    bad = [r.get("id") for r in rows if is_complex(r)]
    if bad:
        raise SelectionError(f"{len(bad)} complex-reasoning rows reached a training selection, e.g. {bad[:3]}")


def pool(rows: Iterable[Row], skills: Sequence[str]) -> list[Row]:
    """Rows of ``skills``, complex reasoning dropped, sorted by id (input order never matters)."""
    out = sorted((r for r in rows if r["skill"] in skills and not is_complex(r)), key=lambda r: r["id"])
    check_no_complex(out)
    return out


def allocate(budget: int, weights: Mapping[str, float], capacity: Mapping[str, int]) -> dict[str, int]:
    """Integer counts per region summing to ``budget``, proportional to ``weights``, capped by ``capacity``.

    Largest-remainder rounding; what a capped region cannot take is re-shared among the
    others in proportion to their weights (water filling), so the total is always exact.
    """
    if budget < 1:
        raise SelectionError(f"budget must be a positive number of rows, got {budget}")
    if budget > sum(capacity.values()):
        raise SelectionError(f"budget {budget} exceeds the {sum(capacity.values())} rows available")
    counts = {r: 0 for r in capacity}
    remaining = budget
    active = [r for r in sorted(capacity) if capacity[r] > 0]
    while remaining > 0:
        w = {r: weights.get(r, 0.0) for r in active if weights.get(r, 0.0) > 0}
        w = w or dict.fromkeys(active, 1.0)  # only zero-weight regions left: fill them evenly
        total = sum(w.values())
        shares = {r: remaining * x / total for r, x in w.items()}
        give = {r: math.floor(s) for r, s in shares.items()}
        by_remainder = sorted(w, key=lambda r: (give[r] - shares[r], r))
        for r in by_remainder[: remaining - sum(give.values())]:
            give[r] += 1
        for r in w:
            take = min(give[r], capacity[r] - counts[r])
            counts[r] += take
            remaining -= take
        active = [r for r in active if counts[r] < capacity[r]]
    return counts


def _sample(rows: Sequence[Row], k: int, seed: int, stream: str) -> list[Row]:
    """``k`` rows without replacement from a local RNG keyed by (seed, stream)."""
    return random.Random(f"{seed}:{stream}").sample(list(rows), k)


def sample_by_region(rows: Sequence[Row], region: str, counts: Mapping[str, int], seed: int) -> list[Row]:
    """Draw ``counts[value]`` rows from each region ``value`` of column ``region``."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(str(r[region]), []).append(r)
    picked = [x for v in sorted(counts) for x in _sample(groups.get(v, []), counts[v], seed, f"{region}={v}")]
    return sorted(picked, key=lambda r: r["id"])


def bottleneck_weights(accuracy: Mapping[str, float], ratio: float = DEFAULT_RATIO, k: int | None = None,
                       unmeasured: Iterable[str] = ()) -> tuple[dict[str, float], list[str]]:
    """The allocation rule: (weight per region, weak regions).

    Weak regions W are the ``k`` lowest-accuracy regions, or, when ``k`` is None, every
    region below the mean region accuracy (at least the single weakest). W shares
    ``ratio`` of the budget and the rest share ``1 - ratio``; inside each side, a region's
    part is proportional to its error ``1 - accuracy`` (floored at ``MIN_ERROR``). Keeping
    ``1 - ratio`` on the strong regions guards them against forgetting; ratio 1.0 is the
    strictest setting. ``unmeasured`` regions (no profile evidence) are never called weak
    and do not move the mean; they sit on the strong side.
    """
    if not accuracy:
        raise SelectionError("the profile has no accuracy for any region of the training pool")
    if not 0.0 < ratio <= 1.0:
        raise SelectionError(f"bottleneck ratio must be in (0, 1], got {ratio}")
    order = sorted(accuracy, key=lambda r: (accuracy[r], r))
    skip = set(unmeasured)
    measured = [r for r in order if r not in skip] or order
    if k is None:
        mean = sum(accuracy[r] for r in measured) / len(measured)
        weak = [r for r in measured if accuracy[r] < mean] or measured[:1]
    else:
        weak = measured[: max(1, k)]
    strong = [r for r in order if r not in weak]
    if not strong:
        ratio = 1.0
    err = {r: max(1.0 - float(accuracy[r]), MIN_ERROR) for r in order}
    weights: dict[str, float] = {}
    for side, share in ((weak, ratio), (strong, 1.0 - ratio)):
        total = sum(err[r] for r in side)
        weights.update({r: share * err[r] / total for r in side})
    return weights, weak


@dataclass
class Selection:
    """The rows a run trains on, and why: what the manifest records."""

    mode: str
    skills: list[str]
    region: str
    ids: list[str]
    counts: dict[str, int]
    details: dict[str, Any] = field(default_factory=dict)

    def share(self, values: Iterable[str]) -> float:
        """Fraction of the selected rows whose region is in ``values``."""
        values = set(values)
        return sum(n for v, n in self.counts.items() if v in values) / max(1, len(self.ids))

    def manifest(self) -> dict[str, Any]:
        """JSON-able record (ids included) written next to the adapter."""
        return {**asdict(self), "n": len(self.ids)}


def _selection(mode: str, skills: Sequence[str], region: str, rows: Sequence[Row], **details: Any) -> Selection:
    check_no_complex(rows)
    counts = dict(sorted(Counter(str(r[region]) for r in rows).items()))
    return Selection(mode, list(skills), region, [r["id"] for r in rows], counts, details)


def select_atomic(rows: Iterable[Row], skills: Sequence[str], volume_matched: int | None = None,
                  seed: int = 42) -> Selection:
    """All rows of ``skills``, or exactly ``volume_matched`` rows split evenly over them."""
    eligible = pool(rows, skills)
    if volume_matched is None:
        return _selection("atomic", skills, "skill", eligible)
    capacity = {s: sum(r["skill"] == s for r in eligible) for s in skills}
    counts = allocate(volume_matched, dict.fromkeys(skills, 1.0), capacity)
    picked = sample_by_region(eligible, "skill", counts, seed)
    return _selection("atomic", skills, "skill", picked, volume_matched=volume_matched)


def select_random(rows: Iterable[Row], skills: Sequence[str], budget: int, seed: int = 42,
                  region: str = "skill") -> Selection:
    """``budget`` rows uniformly from the pool of ``skills`` (the Random-LB FT baseline)."""
    eligible = pool(rows, skills)
    if budget > len(eligible):
        raise SelectionError(f"budget {budget} exceeds the {len(eligible)} rows available")
    picked = sorted(_sample(eligible, budget, seed, "random"), key=lambda r: r["id"])
    return _selection("random", skills, region, picked, budget=budget)


def select_bottleneck(rows: Iterable[Row], skills: Sequence[str], budget: int,
                      accuracy: Mapping[str, float], region: str = "skill", ratio: float = DEFAULT_RATIO,
                      k: int | None = None, seed: int = 42) -> Selection:
    """``budget`` rows allocated by :func:`bottleneck_weights` over the regions of column ``region``.

    ``accuracy`` maps region values to the base model's accuracy (a profile section).
    Regions of the pool that the profile lacks get the mean accuracy (no evidence either
    way); profile regions absent from the pool (e.g. ``complex``) are ignored.
    """
    eligible = pool(rows, skills)
    capacity = dict(Counter(str(r[region]) for r in eligible))
    known = {v: float(a) for v, a in accuracy.items() if v in capacity}
    if not known:
        raise SelectionError(f"profile has no '{region}' region among {sorted(capacity)}")
    mean = sum(known.values()) / len(known)
    acc = {v: known.get(v, mean) for v in capacity}
    weights, weak = bottleneck_weights(acc, ratio, k, unmeasured=set(capacity) - set(known))
    counts = allocate(budget, weights, capacity)
    picked = sample_by_region(eligible, region, counts, seed)
    sel = _selection("bottleneck", skills, region, picked, budget=budget, ratio=ratio, k=k, weak=weak,
                     accuracy=acc, missing_from_profile=sorted(set(capacity) - set(known)),
                     weights={v: round(w, 6) for v, w in weights.items()})
    sel.details["weak_share"] = sel.share(weak)  # below `ratio` only when weak regions ran out of rows
    return sel


def validation_budget(budget: int) -> int:
    """Validation rows that go with ``budget`` training rows (90/10, so 2700 -> 300)."""
    return max(1, round(budget * VALIDATION_FRACTION))


def select_rows(rows: Iterable[Row], mode: str, skills: Sequence[str], *, budget: int | None = None,
                volume_matched: int | None = None, accuracy: Mapping[str, float] | None = None,
                region: str = "skill", ratio: float = DEFAULT_RATIO, k: int | None = None,
                seed: int = 42) -> Selection:
    """Dispatch on ``mode``; ``budget`` falls back to ``volume_matched`` for bottleneck/random."""
    if mode not in MODES:
        raise SelectionError(f"unknown selection mode {mode!r}; choose from {', '.join(MODES)}")
    if mode == "atomic":
        if budget is not None:
            raise SelectionError("atomic selection takes every row of the skills; fix the total with "
                                 "--volume-matched N (--budget is for bottleneck and random)")
        return select_atomic(rows, skills, volume_matched, seed)
    n = budget if budget is not None else volume_matched
    if n is None:
        raise SelectionError(f"--select {mode} needs --budget N (the number of training rows)")
    if mode == "random":
        return select_random(rows, skills, n, seed, region)
    if accuracy is None:
        raise SelectionError("--select bottleneck needs --profile (a capability profile of the base model)")
    return select_bottleneck(rows, skills, n, accuracy, region, ratio, k, seed)
