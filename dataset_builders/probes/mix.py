"""The template mix of the probe bank: which ``probes_per_skill`` templates a chart is asked.

A chart can only be asked the templates of a skill that are non-degenerate on it, and
applicability varies a lot: P-COUNT-ABOVE-AVG needs every mark clear of the mean (about a
quarter of bar charts), the pie value templates need printed values (about one pie in
four), G-TV-COLOR needs plainly named colours. Drawn uniformly among the applicable ones,
the always-valid templates absorb the slots of the rare ones (before this module
P-COUNT-ABOVE-AVG was 3-5% of bar perception, R-ARITH-PERCENT 23% of pie reasoning).

So each template gets a weight, fitted once per domain on calibration charts drawn by the
domain's own sampler (no render: a template reading ``render.boxes`` counts as applicable
wherever it applies), such that the *expected* rows per template are equal, or as equal as
applicability allows (a template valid on one chart in four cannot reach 1/n of a skill
asked on every chart). A chart takes its templates with inclusion probabilities
proportional to those weights (capped at 1), by systematic sampling along a fixed order of
its split whose offset walks a golden-ratio sequence over the chart index: consecutive charts
of a split spread over the templates instead of repeating chance clumps. Everything is a
function of (seed, key) and the registries, so the release still does not depend on the
number of workers.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cache
from typing import Any

from ..core.rng import rng_for
from .config_sets import config_set

__all__ = ["choose", "inclusion", "systematic", "template_weights"]

CALIBRATION_CHARTS = 100
"""Charts per domain the weights are fitted on (under a second per domain and process)."""
_GOLDEN = (math.sqrt(5) - 1) / 2


def inclusion(weights: Sequence[float], k: int) -> list[float]:
    """Inclusion probabilities proportional to ``weights``, capped at 1, summing to min(k, n)."""
    n = len(weights)
    k = min(k, n)
    capped: set[int] = set()
    while True:
        free = [i for i in range(n) if i not in capped]
        room = k - len(capped)
        total = sum(weights[i] for i in free)
        if room <= 0 or total <= 0:
            return [1.0 if i in capped else 0.0 for i in range(n)]
        over = {i for i in free if weights[i] * room / total >= 1.0}
        if not over:
            return [1.0 if i in capped else weights[i] * room / total for i in range(n)]
        capped |= over


def systematic(probs: Sequence[float], u: float) -> list[int]:
    """Indices hit by the points u, u+1, ... on the line of consecutive ``probs`` intervals
    (each index is hit with probability probs[i] over a uniform u in [0, 1))."""
    out, lo = [], 0.0
    for i, p in enumerate(probs):
        if u + math.ceil(lo - u) < lo + p:  # the first point at or after lo falls inside
            out.append(i)
        lo += p
    return out


def choose(seed: int, key: str, skill: str, pool: tuple[str, ...], candidates: list[tuple[Any, Any]],
           k: int, taken: int = 0) -> list[Any]:
    """``k - taken`` questions of ``candidates`` ((template, question) pairs of ``skill``, all
    usable on the chart ``key``; ``taken`` slots already hold its trend probe), drawn by the
    weights fitted for ``k`` probes per skill; ``pool`` names the domain's probe templates."""
    want = k - taken
    if len(candidates) <= want:
        return [q for _, q in candidates]
    prefix, index = key.rsplit("-", 1)  # "<config>-<split>", chart index
    weights = template_weights(config_set(prefix.split("-", 1)[0])[1], skill, pool, k)
    # one fixed order per split: the golden-ratio offsets then spread consecutive charts
    cands = sorted(candidates, key=lambda c: rng_for(seed, prefix, "mix-order", skill, c[0].name).random())
    u = (int(index) * _GOLDEN + rng_for(seed, prefix, "mix-offset", skill).random()) % 1.0
    probs = inclusion([weights.get(t.name, 1.0) for t, _ in cands], want)
    hit = systematic(probs, u)
    hit += sorted(set(range(len(cands))) - set(hit), key=lambda i: -probs[i])[:want - len(hit)]  # float slack
    return [cands[i][1] for i in sorted(hit[:want])]


@cache
def template_weights(domain: str, skill: str, pool: tuple[str, ...], k: int) -> dict[str, float]:
    """Weights of the non-trend ``skill`` templates of ``pool`` (the domain's probe templates)
    that equalize their expected rows on the calibration charts (iterative proportional fitting)."""
    sets = _calibration_sets(domain, pool).get(skill, [])
    names = sorted({n for s, _ in sets for n in s})
    w = dict.fromkeys(names, 1.0)
    for _ in range(40):
        got: Counter[str] = Counter()
        for s, trend in sets:
            for name, p in zip(s, inclusion([w[n] for n in s], k - trend)):
                got[name] += p
        target = sum(got.values()) / max(len(names), 1)
        # damped (square root) update; a template short of its share keeps growing only
        # until the cap at 1 makes it as common as its applicability allows
        w = {n: min(w[n] * math.sqrt(target / max(got[n], 1e-9)), 1e6) for n in names}
    return w


@cache
def _calibration_sets(domain_name: str, pool: tuple[str, ...]) -> dict[str, list[tuple[tuple[str, ...], int]]]:
    """Per skill, for each calibration chart: the usable non-trend templates of ``pool`` and
    whether a trend probe takes one of the skill's slots on it."""
    from .domains import PROBE_DOMAINS, TIERS
    from .orders import ORDER_REGIMES, TREND_SHARE, is_monotone, order_decides
    from .templates import TEMPLATES

    TEMPLATES.load()
    domain = PROBE_DOMAINS[domain_name]
    templates = [TEMPLATES.get(name)() for name in pool]
    trend_skills = {t.skill for t in templates if t.needs_trend}
    out: dict[str, list] = defaultdict(list)
    for i in range(CALIBRATION_CHARTS):
        key = f"calibration-{domain_name}-{i}"
        # the builder's draw: a trend chart in TREND_SHARE of the charts of a domain with a
        # trend probe, in one of ORDER_REGIMES
        trend = bool(trend_skills) and rng_for(0, key, "trend").random() < TREND_SHARE
        order = ORDER_REGIMES[int(rng_for(0, key, "order").integers(3))] if trend else "shuffled"
        view = domain.view(domain.sample(rng_for(0, key, "spec"), TIERS[i % len(TIERS)], order), {})
        sorted_chart = trend and is_monotone(tuple(view.values[j] for j in view.order))
        usable: dict[str, list[str]] = defaultdict(list)
        for t in templates:
            if t.needs_trend:
                continue
            if "render.boxes" in t.reads:  # a box needs a render; it rarely degenerates
                if t.applies_to(view):
                    usable[t.skill].append(t.name)
                continue
            q = t.instantiate(view, rng_for(0, key, t.name))
            if q is not None and not (sorted_chart and order_decides(q, view)):
                usable[t.skill].append(t.name)
        for skill, names in usable.items():
            out[skill].append((tuple(names), int(trend and skill in trend_skills)))
    return dict(out)
