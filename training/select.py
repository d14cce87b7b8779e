"""Which probe rows a fine-tuning run sees: atomic skills, volume matching, bottleneck vs random.

Pure functions over *row metadata* (plain dicts with ``id``, ``skill``, ``template_id``,
``chart_kind``, ``domain``, ``held_out``...: the dataset columns without the image), so
selection is tested without torch and a run's choice is a list of ids in its manifest.

Modes (paper references in brackets):

- ``atomic``: every row of the chosen skill set P, G, SR, P+G or P+G+SR [ChartProbe §4].
  With ``volume_matched=N`` exactly N rows, split as evenly as the pool allows over the
  chosen skills, so all five configurations train on the same number of examples
  [ChartProbe supplementary §11, Table 7: 2700 train / 300 validation].
- ``bottleneck``: ``budget`` rows allocated over *capability regions* (the values of one
  dimension of :mod:`chartprobe.training.regions`: ChartProbe's skill, template, domain;
  LegendBench's capability by channel and chart family) from the base model's capability
  profile [LegendBench §5.3, "Bottleneck-LB FT"]. The rule is :func:`bottleneck_weights`: a
  region is a bottleneck only when its 95% interval lies below the model's mean; the
  bottlenecks share ``ratio`` of the budget (default 0.8), the others ``1 - ratio``, and
  without one the budget is uniform over the regions (the manifest says which rule applied).
  Within a region, rows are spread evenly over its templates.
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


def pool(rows: Iterable[Row], skills: Sequence[str], stratum: str = "skill") -> list[Row]:
    """Rows whose ``stratum`` column is one of ``skills``, complex reasoning dropped, sorted by id
    (input order never matters)."""
    out = sorted((r for r in rows if r.get(stratum) in skills and not is_complex(r)), key=lambda r: r["id"])
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


def sample_by_region(rows: Sequence[Row], region: str, counts: Mapping[str, int], seed: int,
                     template: str | None = None) -> list[Row]:
    """Draw ``counts[value]`` rows from each region ``value`` of column ``region``.

    With ``template`` (a column), a region's rows are spread as evenly as its templates allow
    (:func:`allocate` with equal weights, capped by each template's rows), so a region never
    fills its share from whichever template happens to have the most rows.
    """
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(str(r[region]), []).append(r)
    picked: list[Row] = []
    for v in sorted(counts):
        members = groups.get(v, [])
        if not counts[v]:
            continue
        if template is None:
            picked += _sample(members, counts[v], seed, f"{region}={v}")
            continue
        by_t: dict[str, list[Row]] = {}
        for r in members:
            by_t.setdefault(str(r.get(template)), []).append(r)
        per_t = allocate(counts[v], dict.fromkeys(by_t, 1.0), {t: len(x) for t, x in by_t.items()})
        for t in sorted(per_t):
            picked += _sample(by_t[t], per_t[t], seed, f"{region}={v}/{template}={t}")
    return sorted(picked, key=lambda r: r["id"])


def as_cells(accuracy: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Profile cells (``accuracy``, ``ci_low``, ``ci_high``) from cells or bare accuracies.

    A bare accuracy has no interval (a point estimate): it counts as below the mean whenever it
    is, the rule a caller without a profile's evidence asks for.
    """
    out = {}
    for v, c in accuracy.items():
        if isinstance(c, Mapping):
            acc = float(c["accuracy"])
            out[v] = {"accuracy": acc, "ci_low": float(c.get("ci_low", acc)), "ci_high": float(c.get("ci_high", acc)),
                      "n": c.get("n")}
        else:
            out[v] = {"accuracy": float(c), "ci_low": float(c), "ci_high": float(c), "n": None}
    return out


def bottleneck_weights(cells: Mapping[str, Any], mean: float | None = None, ratio: float = DEFAULT_RATIO,
                       k: int | None = None, unmeasured: Iterable[str] = ()) -> tuple[dict[str, float], list[str], str]:
    """The allocation rule: (weight per region, bottleneck regions, the rule that applied).

    A region is a *bottleneck* only when its whole 95% interval lies below ``mean`` (the
    model's mean accuracy on the benchmark; default: the mean of the measured regions), so a
    region of 0 of 36 beside 2 of 36 is no evidence of a gap. ``k`` keeps the ``k`` weakest
    bottlenecks. The bottlenecks share ``ratio`` of the budget in proportion to their error
    ``1 - accuracy`` (floored at ``MIN_ERROR``), the other regions share ``1 - ratio``
    evenly, which guards them against forgetting (ratio 1.0 is the strictest setting).
    Without a bottleneck every region gets the same weight (rule ``uniform``).
    ``unmeasured`` regions (no profile evidence) are never bottlenecks.
    """
    if not cells:
        raise SelectionError("the profile has no accuracy for any region of the training pool")
    if not 0.0 < ratio <= 1.0:
        raise SelectionError(f"bottleneck ratio must be in (0, 1], got {ratio}")
    cells = as_cells(cells)
    skip = set(unmeasured)
    order = sorted(cells, key=lambda r: (cells[r]["accuracy"], r))
    measured = [r for r in order if r not in skip]
    if mean is None:
        mean = sum(cells[r]["accuracy"] for r in measured) / len(measured) if measured else 0.0
    weak = [r for r in measured if cells[r]["ci_high"] < mean]
    if k is not None:
        weak = weak[: max(1, k)]
    if not weak:
        return dict.fromkeys(order, 1.0 / len(order)), [], "uniform"
    strong = [r for r in order if r not in weak]
    if not strong:
        ratio = 1.0
    err = {r: max(1.0 - cells[r]["accuracy"], MIN_ERROR) for r in weak}
    weights = {r: ratio * err[r] / sum(err.values()) for r in weak}
    weights.update({r: (1.0 - ratio) / len(strong) for r in strong})
    return weights, weak, "bottleneck"


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
                  seed: int = 42, stratum: str = "skill", template: str | None = None) -> Selection:
    """All rows of ``skills``, or exactly ``volume_matched`` rows split evenly over them."""
    eligible = pool(rows, skills, stratum)
    if volume_matched is None:
        return _selection("atomic", skills, stratum, eligible)
    capacity = {s: sum(r[stratum] == s for r in eligible) for s in skills}
    counts = allocate(volume_matched, dict.fromkeys(skills, 1.0), capacity)
    picked = sample_by_region(eligible, stratum, counts, seed, template)
    return _selection("atomic", skills, stratum, picked, volume_matched=volume_matched)


def select_random(rows: Iterable[Row], skills: Sequence[str], budget: int, seed: int = 42,
                  region: str = "skill", stratum: str = "skill") -> Selection:
    """``budget`` rows uniformly from the pool of ``skills`` (the Random-LB FT baseline)."""
    eligible = pool(rows, skills, stratum)
    if budget > len(eligible):
        raise SelectionError(f"budget {budget} exceeds the {len(eligible)} rows available")
    picked = sorted(_sample(eligible, budget, seed, "random"), key=lambda r: r["id"])
    return _selection("random", skills, region, picked, budget=budget)


def select_bottleneck(rows: Iterable[Row], skills: Sequence[str], budget: int,
                      accuracy: Mapping[str, Any], region: str = "skill", ratio: float = DEFAULT_RATIO,
                      k: int | None = None, seed: int = 42, mean: float | None = None,
                      stratum: str = "skill", template: str | None = None) -> Selection:
    """``budget`` rows allocated by :func:`bottleneck_weights` over the regions of column ``region``.

    ``accuracy`` maps region values to the base model's profile cells (accuracy and 95%
    interval; bare accuracies are point estimates) and ``mean`` is the model's mean accuracy.
    Regions of the pool that the profile lacks are unmeasured (never bottlenecks); profile
    regions absent from the pool (e.g. ``complex``) are ignored. Rows within a region are
    spread evenly over the values of column ``template``.
    """
    eligible = pool(rows, skills, stratum)
    capacity = dict(Counter(str(r[region]) for r in eligible))
    cells = {v: c for v, c in as_cells(accuracy).items() if v in capacity}
    if not cells:
        raise SelectionError(f"profile has no '{region}' region among {sorted(capacity)}")
    missing = sorted(set(capacity) - set(cells))
    filler = {"accuracy": mean if mean is not None else sum(c["accuracy"] for c in cells.values()) / len(cells)}
    full = {v: cells.get(v, {**filler, "ci_low": 0.0, "ci_high": 1.0, "n": 0}) for v in capacity}
    weights, weak, rule = bottleneck_weights(full, mean, ratio, k, unmeasured=missing)
    counts = allocate(budget, weights, capacity)
    picked = sample_by_region(eligible, region, counts, seed, template)
    note = ("" if weak else "no region's 95% interval lies below the model's mean accuracy"
            f"{f' ({mean:.3f})' if mean is not None else ''}: the budget is spread uniformly over the regions")
    sel = _selection("bottleneck", skills, region, picked, budget=budget, ratio=ratio, k=k, weak=weak, rule=rule,
                     mean=mean, accuracy={v: c["accuracy"] for v, c in full.items()},
                     intervals={v: [c["ci_low"], c["ci_high"]] for v, c in full.items()},
                     missing_from_profile=missing, weights={v: round(w, 6) for v, w in weights.items()}, note=note)
    sel.details["weak_share"] = sel.share(weak)  # below `ratio` only when weak regions ran out of rows
    return sel


def validation_budget(budget: int) -> int:
    """Validation rows that go with ``budget`` training rows (90/10, so 2700 -> 300)."""
    return max(1, round(budget * VALIDATION_FRACTION))


def select_rows(rows: Iterable[Row], mode: str, skills: Sequence[str], *, budget: int | None = None,
                volume_matched: int | None = None, accuracy: Mapping[str, Any] | None = None,
                region: str = "skill", ratio: float = DEFAULT_RATIO, k: int | None = None,
                seed: int = 42, mean: float | None = None, stratum: str = "skill",
                template: str | None = None) -> Selection:
    """Dispatch on ``mode``; ``budget`` falls back to ``volume_matched`` for bottleneck/random."""
    if mode not in MODES:
        raise SelectionError(f"unknown selection mode {mode!r}; choose from {', '.join(MODES)}")
    if mode == "atomic":
        if budget is not None:
            raise SelectionError("atomic selection takes every row of the skills; fix the total with "
                                 "--volume-matched N (--budget is for bottleneck and random)")
        return select_atomic(rows, skills, volume_matched, seed, stratum, template)
    n = budget if budget is not None else volume_matched
    if n is None:
        raise SelectionError(f"--select {mode} needs --budget N (the number of training rows)")
    if mode == "random":
        return select_random(rows, skills, n, seed, region, stratum)
    if accuracy is None:
        raise SelectionError("--select bottleneck needs --profile (a capability profile of the base model)")
    return select_bottleneck(rows, skills, n, accuracy, region, ratio, k, seed, mean, stratum, template)
