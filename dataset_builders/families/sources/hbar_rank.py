"""Horizontal bars with printed values, airline punctuality: "Which airline ranks third?"

Visual/text: the rank can be read from bar lengths or from the printed percentages.
Regimes re-rank the airlines, move an airline from below the top three into third place,
or redraw the scores.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

AIRLINES = ("SkyJet", "AeroNord", "Pacifica", "BlueWing", "Condora", "Transalp", "Meridian",
            "Aurora Air", "Sunline")
MARGIN = 0.8  # percentage points between neighbouring ranks


@family_source("hbar_rank")
class HBarRank(FamilySource):
    group = "bars"
    kind = "hbar"
    reasoning_type = "visual_text"
    answer_type = "label"
    question_template = "Which airline ranks third by on-time arrival rate?"
    regimes = ("reorder", "promote", "redraw", "promote", "reorder",
               "redraw", "promote", "reorder", "redraw", "promote")

    def source_data(self, rng):
        n = int(rng.integers(5, 8))
        cats = [AIRLINES[int(i)] for i in rng.choice(len(AIRLINES), size=n, replace=False)]
        spec = make_spec("hbar", cats, {"On-time arrivals": np.round(rng.uniform(62, 94, n), 1)}, rng=rng,
                         unit="%", title="On-time arrival rate, 2024", x_label="On-time arrivals (%)",
                         y_label="Airline", tick_format="{x:g}%", value_labels=True, legend="none")
        return spec, {}

    def generate_answer(self, spec, params):
        vals = np.asarray(spec.data.series[0].values)
        order = np.argsort(vals)[::-1]
        gaps = -np.diff(vals[order][:4])
        return None if gaps.min() < MARGIN else spec.data.categories[int(order[2])]

    def _vals(self, spec):
        return np.asarray(spec.data.series[0].values)

    def _with(self, spec, vals):
        return with_values(spec, {"On-time arrivals": np.round(np.clip(vals, 50, 99), 1)})

    def regime_reorder(self, spec, params, rng):
        return self._with(spec, rng.permutation(self._vals(spec)))

    def regime_promote(self, spec, params, rng):
        vals = self._vals(spec).copy()
        order = np.argsort(vals)[::-1]
        j = int(rng.choice(order[3:])) if len(order) > 3 else int(order[-1])
        vals[j] = (vals[order[1]] + vals[order[2]]) / 2  # lands between second and third
        return self._with(spec, vals)

    def regime_redraw(self, spec, params, rng):
        return self._with(spec, rng.uniform(62, 94, len(self._vals(spec))))
