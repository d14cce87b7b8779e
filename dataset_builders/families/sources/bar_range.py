"""Bars with printed values, museum visitors by month: "What is the difference between the
highest and lowest monthly visitor numbers?" (text: both values are printed on the bars).

Regimes widen or narrow the spread, raise a new peak month, or lower the trough.
Permuting the months would keep the answer, so no regime does only that.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
SERIES = "Visitors"


@family_source("bar_range")
class BarRange(FamilySource):
    group = "bars"
    kind = "bar"
    reasoning_type = "text"
    answer_type = "number"
    tolerance_rule = "printed"
    question_template = ("What is the difference between the highest and the lowest monthly number "
                         "of visitors (in thousands)?")
    regimes = ("widen", "narrow", "new_peak", "new_trough", "widen")

    def source_data(self, rng):
        n = int(rng.integers(5, 9))
        start = int(rng.integers(0, 12 - n + 1))
        spec = make_spec("bar", MONTHS[start:start + n], {SERIES: np.round(rng.uniform(20, 90, n))}, rng=rng,
                         unit="thousand", title="Museum visitors per month", x_label="Month",
                         y_label="Visitors (thousands)", value_labels=True, legend="none")
        return spec, {}

    def generate_answer(self, spec, params):
        vals = spec.data.series[0].values
        return max(vals) - min(vals)

    def _vals(self, spec):
        return np.asarray(spec.data.series[0].values)

    def _with(self, spec, vals):
        return with_values(spec, {SERIES: np.round(np.clip(vals, 5, 150))})

    def regime_widen(self, spec, params, rng):
        v = self._vals(spec)
        return self._with(spec, v.mean() + (v - v.mean()) * rng.uniform(1.3, 1.8))

    def regime_narrow(self, spec, params, rng):
        v = self._vals(spec)
        return self._with(spec, v.mean() + (v - v.mean()) * rng.uniform(0.35, 0.7))

    def regime_new_peak(self, spec, params, rng):
        v = self._vals(spec).copy()
        v[int(rng.integers(len(v)))] = v.max() + rng.uniform(8, 40)
        return self._with(spec, v)

    def regime_new_trough(self, spec, params, rng):
        v = self._vals(spec).copy()
        v[int(rng.integers(len(v)))] = v.min() - rng.uniform(4, 15)
        return self._with(spec, v)
