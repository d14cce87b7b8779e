"""Stacked area, electricity generation by source: "In which year did renewables account
for the largest share of total generation?" (synthesis: band thickness relative to the
stack height, named by the year axis).

Regimes move the renewables peak to another year, reverse its trend, or recompose every
band.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

SOURCES = ("Coal", "Gas", "Renewables")
MARGIN = 0.02  # share of the total


@family_source("area_share")
class AreaShare(FamilySource):
    group = "lines"
    kind = "area"
    reasoning_type = "synthesis"
    answer_type = "year"
    question_template = "In which year did renewables account for the largest share of total electricity generation?"
    regimes = ("move_peak", "reverse", "recompose", "move_peak", "reverse",
               "recompose", "move_peak", "reverse", "recompose", "move_peak")

    def source_data(self, rng):
        n = int(rng.integers(7, 11))
        first = int(rng.integers(2008, 2025 - n + 1))
        years = [str(y) for y in range(first, first + n)]
        spec = make_spec("area", years, self._bands(rng, n), rng=rng, unit="TWh",
                         title="Electricity generation by source", x_label="Year", y_label="Generation (TWh)")
        return spec, {}

    @staticmethod
    def _bands(rng, n, peak=None):
        peak = rng.uniform(0, n - 1) if peak is None else peak
        renew = 20 + rng.uniform(25, 60) * np.exp(-0.5 * ((np.arange(n) - peak) / rng.uniform(1.5, 3)) ** 2)
        return {"Coal": np.round(rng.uniform(40, 80, n)), "Gas": np.round(rng.uniform(30, 60, n)),
                "Renewables": np.round(renew + rng.normal(0, 2, n))}

    def generate_answer(self, spec, params):
        vals = {s.name: np.asarray(s.values) for s in spec.data.series}
        share = vals["Renewables"] / sum(vals.values())
        i = argmax_unique(share, MARGIN)
        return None if i is None else int(spec.data.categories[i])

    def regime_move_peak(self, spec, params, rng):
        n = len(spec.data.categories)
        return with_values(spec, self._bands(rng, n, float(rng.integers(n))))

    def regime_reverse(self, spec, params, rng):
        """The renewables trajectory runs backwards in time; the other bands are redrawn."""
        fresh = self._bands(rng, len(spec.data.categories))
        renew = next(s.values for s in spec.data.series if s.name == "Renewables")
        return with_values(spec, {**fresh, "Renewables": renew[::-1]})

    def regime_recompose(self, spec, params, rng):
        return with_values(spec, self._bands(rng, len(spec.data.categories)))
