"""Scatter, life expectancy vs GDP: "How many countries have a life expectancy above 75
years?" (visual: count points above a gridline; country names are not printed).

Regimes shift the cloud up or down, spread it, or redraw it; points never sit within
half a year of the threshold, so every count is readable.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

COUNTRIES = ("Chile", "Ghana", "Peru", "Kenya", "Spain", "Japan", "Egypt", "India", "Brazil", "Poland",
             "Vietnam", "Morocco", "Norway", "Turkey", "Mexico")
SERIES = "Life expectancy"
GAP = 0.5  # years: no point this close to the threshold


@family_source("scatter_count_above")
class ScatterCountAbove(FamilySource):
    group = "distributions"
    kind = "scatter"
    reasoning_type = "visual"
    answer_type = "integer"
    question_template = "How many countries have a life expectancy above {threshold} years?"
    regimes = ("shift_up", "shift_down", "spread", "redraw", "shift_up")

    def source_data(self, rng):
        n = int(rng.integers(9, 14))
        cats = [COUNTRIES[int(i)] for i in rng.choice(len(COUNTRIES), size=n, replace=False)]
        gdp = np.round(np.sort(rng.uniform(2, 70, n)), 1)
        spec = make_spec("scatter", cats, {SERIES: self._life(rng, gdp)}, rng=rng, unit="years",
                         title="Life expectancy vs. income", x_label="GDP per capita (USD k)",
                         y_label="Life expectancy (years)", legend="none", x_values=gdp)
        return spec, {"threshold": int(rng.choice([70, 75]))}

    @staticmethod
    def _life(rng, gdp, shift=0.0):
        return np.round(np.clip(62 + 6 * np.log1p(gdp / 5) + rng.normal(0, 3, len(gdp)) + shift, 50, 88), 1)

    def generate_answer(self, spec, params):
        vals = np.asarray(spec.data.series[0].values)
        if np.abs(vals - params["threshold"]).min() < GAP:
            return None
        return int((vals > params["threshold"]).sum())

    def _vals(self, spec):
        return np.asarray(spec.data.series[0].values)

    def _with(self, spec, vals):
        return with_values(spec, {SERIES: np.round(np.clip(vals, 50, 88), 1)})

    def regime_shift_up(self, spec, params, rng):
        return self._with(spec, self._vals(spec) + rng.uniform(2, 6))

    def regime_shift_down(self, spec, params, rng):
        return self._with(spec, self._vals(spec) - rng.uniform(2, 6))

    def regime_spread(self, spec, params, rng):
        v = self._vals(spec)
        return self._with(spec, params["threshold"] + (v - params["threshold"]) * rng.uniform(0.5, 1.6)
                          + rng.normal(0, 2, len(v)))

    def regime_redraw(self, spec, params, rng):
        return self._with(spec, self._life(rng, np.asarray(spec.data.x_values), rng.uniform(-4, 4)))
