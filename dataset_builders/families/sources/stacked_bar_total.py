"""Stacked bars, energy use by sector per country: "Which country uses the most energy in total?"

Visual: the answer is the tallest stack, with no value labels. Regimes re-assign totals
among countries, lift a random country above the current largest total, or change the
sector composition (and the totals with it).
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

COUNTRIES = ("Norway", "Chile", "Kenya", "Poland", "Vietnam", "Portugal", "Canada", "Egypt", "Peru")
SECTORS = ("Industry", "Transport", "Residential")
MARGIN = 6.0  # TWh between the two tallest stacks


@family_source("stacked_bar_total")
class StackedBarTotal(FamilySource):
    group = "bars"
    kind = "stacked_bar"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = "Which country has the highest total energy consumption across all sectors?"
    regimes = ("reorder", "new_leader", "recompose", "new_leader", "reorder",
               "recompose", "new_leader", "reorder", "recompose", "new_leader")

    def source_data(self, rng):
        n = int(rng.integers(4, 7))
        cats = [COUNTRIES[int(i)] for i in rng.choice(len(COUNTRIES), size=n, replace=False)]
        parts = np.round(rng.uniform(10, 60, (len(SECTORS), n)))
        spec = make_spec("stacked_bar", cats, dict(zip(SECTORS, parts)), rng=rng, unit="TWh",
                         title="Final energy consumption by sector", x_label="Country",
                         y_label="Energy (TWh)")
        return spec, {}

    def generate_answer(self, spec, params):
        i = argmax_unique(self._totals(spec), MARGIN)
        return None if i is None else spec.data.categories[i]

    @staticmethod
    def _totals(spec):
        return np.sum([s.values for s in spec.data.series], axis=0)

    @staticmethod
    def _parts(spec):
        return np.asarray([s.values for s in spec.data.series])

    def _with(self, spec, parts):
        return with_values(spec, {name: np.round(np.maximum(p, 1)) for name, p in zip(SECTORS, parts)})

    def regime_reorder(self, spec, params, rng):
        return self._with(spec, self._parts(spec)[:, rng.permutation(len(spec.data.categories))])

    def regime_new_leader(self, spec, params, rng):
        parts = self._parts(spec).copy()
        j = int(rng.integers(parts.shape[1]))
        parts[:, j] += (self._totals(spec).max() - parts[:, j].sum() + rng.uniform(10, 40)) / len(SECTORS)
        return self._with(spec, parts)

    def regime_recompose(self, spec, params, rng):
        return self._with(spec, rng.uniform(10, 60, self._parts(spec).shape))
