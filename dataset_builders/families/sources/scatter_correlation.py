"""Scatter, study hours vs exam score: "Is the relationship positive or negative?" (visual).

The answer is the sign of Pearson's r, required to be clear (|r| >= 0.5). Nine of ten
seeds flip the relationship (with different slopes and noise); seed 9 keeps its sign with
new points (a control), so a model answering "the opposite" is not always right.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

STUDENTS = tuple(f"Student {i}" for i in range(1, 16))
SERIES = "Exam score"
MIN_R = 0.5


@family_source("scatter_correlation")
class ScatterCorrelation(FamilySource):
    group = "distributions"
    kind = "scatter"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = ("Is the relationship between weekly study hours and exam score positive or "
                         "negative? Answer 'positive' or 'negative'.")
    regimes = ("flip", "flip_steep", "flip_noisy", "flip_weak", "flip",
               "flip_steep", "flip_noisy", "flip_weak", "flip", "keep")
    keep_regimes = frozenset({"keep"})

    def source_data(self, rng):
        n = int(rng.integers(10, 16))
        hours = np.round(np.sort(rng.uniform(1, 20, n)), 1)
        sign = float(rng.choice([-1.0, 1.0]))
        spec = make_spec("scatter", STUDENTS[:n], {SERIES: self._scores(rng, hours, sign * rng.uniform(1.5, 3), 6)},
                         rng=rng, unit="points", title="Study time and exam results",
                         x_label="Weekly study hours", y_label="Exam score (points)", legend="none", x_values=hours)
        return spec, {}

    @staticmethod
    def _scores(rng, hours, slope, noise):
        return np.round(np.clip(60 + slope * (hours - hours.mean()) + rng.normal(0, noise, len(hours)), 0, 100), 1)

    def generate_answer(self, spec, params):
        r = np.corrcoef(spec.data.x_values, spec.data.series[0].values)[0, 1]
        if not np.isfinite(r) or abs(r) < MIN_R:
            return None
        return "positive" if r > 0 else "negative"

    def _sign(self, spec):
        return 1.0 if self.generate_answer(spec, {}) == "positive" else -1.0

    def _redo(self, spec, rng, slope, noise):
        return with_values(spec, {SERIES: self._scores(rng, np.asarray(spec.data.x_values), slope, noise)})

    def regime_flip(self, spec, params, rng):
        return self._redo(spec, rng, -self._sign(spec) * rng.uniform(1.5, 3), 6)

    def regime_flip_steep(self, spec, params, rng):
        return self._redo(spec, rng, -self._sign(spec) * rng.uniform(3, 4), 4)

    def regime_flip_noisy(self, spec, params, rng):
        return self._redo(spec, rng, -self._sign(spec) * rng.uniform(1.5, 3), 10)

    def regime_flip_weak(self, spec, params, rng):
        return self._redo(spec, rng, -self._sign(spec) * rng.uniform(1.0, 1.5), 4)

    def regime_keep(self, spec, params, rng):
        return self._redo(spec, rng, self._sign(spec) * rng.uniform(1.5, 3), 6)
