"""Grouped bars, rent in two years per city: "In which city did rent rise the most?" (visual).

The answer is the city with the largest (later - earlier) gap, read from bar heights
alone (no value labels). Regimes re-assign the rises among cities, give a city a rise
above the current largest, or rebuild the base rents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

CITIES = ("Austin", "Denver", "Seattle", "Boston", "Miami", "Phoenix", "Atlanta", "Portland", "Chicago")
MARGIN = 40.0  # USD: a smaller lead over the runner-up is not readable from bar heights


@family_source("grouped_bar_rise")
class GroupedBarRise(FamilySource):
    group = "bars"
    kind = "grouped_bar"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = "In which city did the average monthly rent rise the most between {a} and {b}?"
    regimes = ("reorder", "new_leader", "rebase", "new_leader", "reorder",
               "rebase", "new_leader", "reorder", "rebase", "new_leader")

    def source_data(self, rng: np.random.Generator):
        n = int(rng.integers(4, 7))
        cities = [CITIES[int(i)] for i in rng.choice(len(CITIES), size=n, replace=False)]
        a, b = "2019", "2024"
        base = np.round(rng.uniform(900, 2200, n), -1)
        rise = np.round(rng.uniform(-50, 520, n), -1)
        spec = make_spec("grouped_bar", cities, {a: base, b: base + rise}, rng=rng, unit="USD",
                         title="Average monthly rent by city", x_label="City",
                         y_label="Rent (USD per month)", tick_format="{x:,.0f}")
        return spec, {"a": a, "b": b}

    def generate_answer(self, spec, params: dict[str, Any]):
        rises = self._rises(spec, params)
        i = argmax_unique(rises, MARGIN)
        return None if i is None else spec.data.categories[i]

    def _rises(self, spec, params):
        vals = {s.name: np.asarray(s.values) for s in spec.data.series}
        return vals[params["b"]] - vals[params["a"]]

    def _with(self, spec, params, base, rise):
        return with_values(spec, {params["a"]: np.round(base, -1), params["b"]: np.round(base + rise, -1)})

    def _base(self, spec, params):
        return np.asarray(next(s.values for s in spec.data.series if s.name == params["a"]))

    def regime_reorder(self, spec, params, rng):
        return self._with(spec, params, self._base(spec, params), rng.permutation(self._rises(spec, params)))

    def regime_new_leader(self, spec, params, rng):
        rise = self._rises(spec, params).copy()
        j = int(rng.integers(len(rise)))
        rise[j] = rise.max() + rng.uniform(60, 250)
        return self._with(spec, params, self._base(spec, params), rise)

    def regime_rebase(self, spec, params, rng):
        n = len(spec.data.categories)
        return self._with(spec, params, rng.uniform(900, 2200, n), rng.uniform(-50, 520, n))
