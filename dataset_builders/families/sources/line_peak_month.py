"""Multi-series line, monthly streaming hours: "In which month did {series} peak?" (visual/text).

The peak is found on the line (visual) and named from the month axis (text). Regimes move
the target's peak to another month, swap its curve with a competitor's, or reshape all the
seasonal curves.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
PLATFORMS = ("StreamBox", "Vidora", "PlayNow", "CineCloud")
MARGIN = 2.0  # million hours between the peak and the next-highest month


def _season(rng, n):
    """A smooth seasonal curve with one clear hump at a random month."""
    peak = rng.uniform(0, n - 1)
    width = rng.uniform(1.5, 3.5)
    return 20 + rng.uniform(10, 25) * np.exp(-0.5 * ((np.arange(n) - peak) / width) ** 2) + rng.normal(0, 1, n)


@family_source("line_peak_month")
class LinePeakMonth(FamilySource):
    group = "lines"
    kind = "line"
    reasoning_type = "visual_text"
    answer_type = "label"
    question_template = "In which month did {series} reach its highest monthly viewing hours?"
    regimes = ("move_peak", "swap_curves", "reshape", "move_peak", "swap_curves",
               "reshape", "move_peak", "swap_curves", "reshape", "move_peak")

    def source_data(self, rng):
        k = int(rng.integers(2, 4))
        names = [PLATFORMS[int(i)] for i in rng.choice(len(PLATFORMS), size=k, replace=False)]
        spec = make_spec("line", MONTHS, {n: np.round(_season(rng, 12), 1) for n in names}, rng=rng,
                         unit="million hours", title="Monthly viewing hours, 2024", x_label="Month",
                         y_label="Viewing hours (millions)")
        return spec, {"series": names[int(rng.integers(k))]}

    def generate_answer(self, spec, params):
        i = argmax_unique(self._target(spec, params), MARGIN)
        return None if i is None else spec.data.categories[i]

    @staticmethod
    def _target(spec, params):
        return np.asarray(next(s.values for s in spec.data.series if s.name == params["series"]))

    def _with(self, spec, params, vals):
        return with_values(spec, {params["series"]: np.round(np.clip(vals, 1, None), 1)})

    def regime_move_peak(self, spec, params, rng):
        v = self._target(spec, params)
        return self._with(spec, params, np.roll(v, int(rng.integers(2, 11))))

    def regime_swap_curves(self, spec, params, rng):
        others = [s for s in spec.series_names if s != params["series"]]
        other = others[int(rng.integers(len(others)))]
        mine = self._target(spec, params)
        theirs = np.asarray(next(s.values for s in spec.data.series if s.name == other))
        return with_values(spec, {params["series"]: theirs, other: mine})

    def regime_reshape(self, spec, params, rng):
        return with_values(spec, {n: np.round(_season(rng, 12), 1) for n in spec.series_names})
