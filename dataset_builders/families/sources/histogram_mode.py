"""Histogram of survey respondents by age group: "Which age group has the most respondents?"
(visual: the tallest bin, named by its bin label; no counts printed).

Regimes shift the mode to another bin, make the distribution bimodal, skew it, or
flatten it; counts stay non-negative integers.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

BINS = ("18–24", "25–34", "35–44", "45–54", "55–64", "65–74", "75+")
SERIES = "Respondents"
MARGIN = 12.0


def _hump(rng, n, centre, width, height):
    return height * np.exp(-0.5 * ((np.arange(n) - centre) / width) ** 2)


@family_source("histogram_mode")
class HistogramMode(FamilySource):
    group = "distributions"
    kind = "histogram"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = "Which age group has the most respondents?"
    regimes = ("shift_mode", "bimodal", "skew", "flatten", "shift_mode")

    def source_data(self, rng):
        n = len(BINS)
        counts = 20 + _hump(rng, n, rng.uniform(0, n - 1), rng.uniform(1, 2.5), rng.uniform(150, 350))
        spec = make_spec("histogram", BINS, {SERIES: np.round(counts + rng.normal(0, 5, n))}, rng=rng,
                         unit="people", title="Survey respondents by age group", x_label="Age group",
                         y_label="Respondents", legend="none")
        return spec, {}

    def generate_answer(self, spec, params):
        i = argmax_unique(spec.data.series[0].values, MARGIN)
        return None if i is None else spec.data.categories[i]

    def _with(self, spec, vals):
        return with_values(spec, {SERIES: np.round(np.clip(vals, 0, None))})

    def regime_shift_mode(self, spec, params, rng):
        return self._with(spec, np.roll(spec.data.series[0].values, int(rng.integers(1, len(BINS)))))

    def regime_bimodal(self, spec, params, rng):
        n = len(BINS)
        return self._with(spec, 15 + _hump(rng, n, rng.uniform(0, 2), 1, rng.uniform(100, 300))
                          + _hump(rng, n, rng.uniform(4, 6), 1, rng.uniform(100, 300)))

    def regime_skew(self, spec, params, rng):
        n = len(BINS)
        base = np.linspace(1, 0.2, n) if rng.random() < 0.5 else np.linspace(0.2, 1, n)
        return self._with(spec, base * rng.uniform(150, 350) + rng.normal(0, 15, n))

    def regime_flatten(self, spec, params, rng):
        return self._with(spec, rng.uniform(60, 160, len(BINS)))
