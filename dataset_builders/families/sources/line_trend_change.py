"""Line with printed values, house prices: "By how much did the average price change from
{first} to {last}?" (text: both endpoint values are printed).

The question is neutral about the direction and identical for every member of a family
(an adapter that wrote "increase" or "decrease" after the new data would give the trend
away); the answer is the signed change (negative for a fall), so a flipped trend changes
the answer. Regimes flip the trend, steepen or flatten it, or redraw the path.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

SERIES = "Average price"


def _path(rng, n, start, end):
    """A bumpy path from start to end."""
    t = np.linspace(0, 1, n)
    bumps = rng.normal(0, 6, n)
    bumps[[0, -1]] = 0
    return np.round(start + (end - start) * t + bumps)


@family_source("line_trend_change")
class LineTrendChange(FamilySource):
    group = "lines"
    kind = "line"
    reasoning_type = "text"
    answer_type = "number"
    tolerance_rule = "printed"
    question_template = ("By how much did the average house price change from {first} to {last}, in USD "
                         "thousands? Give a negative number if it fell.")
    regimes = ("flip_trend", "steepen", "flatten", "flip_trend", "redraw")

    def source_data(self, rng):
        n = int(rng.integers(6, 10))
        first = int(rng.integers(2010, 2025 - n + 1))
        years = [str(y) for y in range(first, first + n)]
        start = rng.uniform(180, 320)
        spec = make_spec("line", years, {SERIES: _path(rng, n, start, start + rng.uniform(30, 140))}, rng=rng,
                         unit="USD k", title="Average house price", x_label="Year",
                         y_label="Price (USD thousands)", value_labels=True, legend="none")
        return spec, {"first": years[0], "last": years[-1]}

    def generate_answer(self, spec, params):
        vals = spec.data.series[0].values
        change = vals[-1] - vals[0]
        return None if abs(change) < 5 else change  # a change under 5k reads as "flat"

    def _redraw(self, spec, rng, delta):
        vals = spec.data.series[0].values
        return with_values(spec, {SERIES: np.clip(_path(rng, len(vals), vals[0], vals[0] + delta), 50, None)})

    def _delta(self, spec):
        vals = spec.data.series[0].values
        return vals[-1] - vals[0]

    def regime_flip_trend(self, spec, params, rng):
        return self._redraw(spec, rng, -self._delta(spec) * rng.uniform(0.4, 1.2))

    def regime_steepen(self, spec, params, rng):
        return self._redraw(spec, rng, self._delta(spec) * rng.uniform(1.3, 2.0))

    def regime_flatten(self, spec, params, rng):
        return self._redraw(spec, rng, self._delta(spec) * rng.uniform(0.2, 0.7))

    def regime_redraw(self, spec, params, rng):
        return self._redraw(spec, rng, rng.uniform(-120, 160))
