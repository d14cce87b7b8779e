"""Scatter, study hours vs exam score: "Is the relationship positive or negative?" (visual).

The answer is the sign of Pearson's r, required to be clear (|r| >= 0.5). The question is
binary, so no regime may be tied to the original's sign: every regime redraws the scores
over the same study hours with a direction drawn by the seed's generator (a fair coin), and
regimes differ in how the relationship looks (steep and tight, noisy, weak, curved). About
half of the variants keep the original's sign, so neither "repeat the original" nor
"answer the opposite" beats chance.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

STUDENTS = tuple(f"Student {i}" for i in range(1, 16))
SERIES = "Exam score"
MIN_R = 0.5


def _direction(rng: np.random.Generator) -> float:
    """+1 or -1 with equal odds: the relationship's sign is never derived from the data shown."""
    return float(rng.choice([-1.0, 1.0]))


@family_source("scatter_correlation")
class ScatterCorrelation(FamilySource):
    group = "distributions"
    kind = "scatter"
    reasoning_type = "visual"
    answer_type = "label"
    answer_vocabulary = "correlation"
    question_template = ("Is the relationship between weekly study hours and exam score positive or "
                         "negative? Answer 'positive' or 'negative'.")
    regimes = ("redraw", "steep", "noisy", "weak", "saturating",
               "redraw", "steep", "noisy", "weak", "saturating")

    def source_data(self, rng):
        n = int(rng.integers(10, 16))
        hours = np.round(np.sort(rng.uniform(1, 20, n)), 1)
        spec = make_spec("scatter", STUDENTS[:n], {SERIES: self._scores(rng, hours, _direction(rng) * rng.uniform(1.5, 3), 6)},
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

    def _redo(self, spec, rng, slope, noise):
        return with_values(spec, {SERIES: self._scores(rng, np.asarray(spec.data.x_values), slope, noise)})

    def regime_redraw(self, spec, params, rng):
        return self._redo(spec, rng, _direction(rng) * rng.uniform(1.5, 3), 6)

    def regime_steep(self, spec, params, rng):
        return self._redo(spec, rng, _direction(rng) * rng.uniform(3, 4), 4)

    def regime_noisy(self, spec, params, rng):
        return self._redo(spec, rng, _direction(rng) * rng.uniform(1.5, 3), 10)

    def regime_weak(self, spec, params, rng):
        return self._redo(spec, rng, _direction(rng) * rng.uniform(1.0, 1.5), 4)

    def regime_saturating(self, spec, params, rng):
        """A diminishing-returns curve (steep first, then flat): monotone but not a straight line."""
        hours = np.asarray(spec.data.x_values)
        curve = 35 * np.log1p(hours / rng.uniform(2, 5))
        curve = _direction(rng) * (curve - curve.mean())
        scores = np.clip(60 + curve + rng.normal(0, 5, len(hours)), 0, 100)
        return with_values(spec, {SERIES: np.round(scores, 1)})
