"""Two lines, EV vs petrol car sales share: "In which year did EV sales first exceed petrol?"

Synthesis: the crossing is located visually and named by the year axis. The EV line starts
below the petrol line and ends above it. Regimes move the crossing earlier or later, or
redraw both lines with new slopes and a crossing anywhere.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

MARGIN = 1.5  # share points: the first year above must be visibly above, the one before visibly below


def _paths(rng, n, cross):
    """EV rising and petrol falling, crossing between index cross-1 and cross."""
    t = np.arange(n) - (cross - 0.5)
    gap = np.sign(t) * (MARGIN + 0.5 + np.abs(t) * rng.uniform(2.0, 5.0))
    mid = rng.uniform(35, 50) + rng.normal(0, 0.4, n)
    return np.round(mid + gap / 2, 1), np.round(mid - gap / 2, 1)


@family_source("line_crossing")
class LineCrossing(FamilySource):
    group = "lines"
    kind = "line"
    reasoning_type = "synthesis"
    answer_type = "year"
    question_template = "In which year did the share of {a} first exceed the share of {b}?"
    regimes = ("earlier", "later", "reslope", "earlier", "later",
               "reslope", "earlier", "later", "reslope", "reslope")

    def source_data(self, rng):
        n = int(rng.integers(8, 13))
        first = int(rng.integers(2008, 2025 - n + 1))
        years = [str(y) for y in range(first, first + n)]
        ev, petrol = _paths(rng, n, int(rng.integers(2, n - 1)))
        spec = make_spec("line", years, {"Electric": ev, "Petrol": petrol}, rng=rng, unit="%",
                         title="New car sales by fuel type", x_label="Year", y_label="Share of sales (%)",
                         tick_format="{x:g}%")
        return spec, {"a": "electric cars", "b": "petrol cars"}

    def generate_answer(self, spec, params):
        ev, petrol = (np.asarray(s.values) for s in spec.data.series)
        diff = ev - petrol
        above = np.flatnonzero(diff > 0)
        if diff[0] > -MARGIN or not len(above) or diff[above[0]] < MARGIN or diff[above[0] - 1] > -MARGIN:
            return None  # must start below and cross visibly
        return int(spec.data.categories[above[0]])

    @staticmethod
    def _cross(spec):
        """Index of the first year the EV line is above petrol, read off the data (the regimes
        move the crossing relative to it; whether the answer changes is left to the draw)."""
        ev, petrol = (np.asarray(s.values) for s in spec.data.series)
        return int(np.flatnonzero(ev > petrol)[0])

    def _redraw(self, spec, rng, cross):
        n = len(spec.data.categories)
        ev, petrol = _paths(rng, n, int(np.clip(cross, 1, n - 1)))
        return with_values(spec, {"Electric": ev, "Petrol": petrol})

    def regime_earlier(self, spec, params, rng):
        return self._redraw(spec, rng, int(rng.integers(1, self._cross(spec) + 1)))

    def regime_later(self, spec, params, rng):
        return self._redraw(spec, rng, int(rng.integers(self._cross(spec), len(spec.data.categories))))

    def regime_reslope(self, spec, params, rng):
        return self._redraw(spec, rng, int(rng.integers(1, len(spec.data.categories))))
