"""Pie with printed percentages, smartphone OS shares: "What is the combined share of the
two smallest segments?" (text: the percentages are printed on the wedges).

Shares are integers summing to exactly 100. Regimes redraw the composition, move share
from the largest to the smallest segments, concentrate the market, or fragment it.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, ints_summing_to, make_spec, with_values

VENDORS = ("Android", "iOS", "HarmonyOS", "KaiOS", "Tizen", "Other")
SERIES = "Share"


@family_source("pie_two_smallest")
class PieTwoSmallest(FamilySource):
    group = "shares"
    kind = "pie"
    reasoning_type = "text"
    answer_type = "number"
    tolerance_rule = "printed"
    question_template = "What is the combined market share of the two smallest segments, in percent?"
    regimes = ("recompose", "shift", "concentrate", "fragment", "recompose")

    def source_data(self, rng):
        n = int(rng.integers(4, 7))
        spec = make_spec("pie", VENDORS[:n], {SERIES: ints_summing_to(rng, n, 100, 1.5, 2)}, rng=rng,
                         unit="%", title="Smartphone OS market share", tick_format="{x:.0f}%",
                         value_labels=True, per_category_items=True, grid=False)
        return spec, {}

    def check(self, spec, params):
        vals = spec.data.series[0].values
        return sum(vals) == 100 and all(float(v).is_integer() and v >= 1 for v in vals)

    def generate_answer(self, spec, params):
        return sum(sorted(spec.data.series[0].values)[:2])

    def _with(self, spec, vals):
        return with_values(spec, {SERIES: vals})

    def regime_recompose(self, spec, params, rng):
        return self._with(spec, ints_summing_to(rng, len(spec.data.categories), 100, 1.5, 2))

    def regime_shift(self, spec, params, rng):
        vals = np.asarray(spec.data.series[0].values, dtype=int)
        moved = int(rng.integers(3, max(4, vals.max() // 3)))
        vals[int(np.argmax(vals))] -= moved
        vals[int(np.argmin(vals))] += moved
        return self._with(spec, vals)

    def regime_concentrate(self, spec, params, rng):
        return self._with(spec, ints_summing_to(rng, len(spec.data.categories), 100, 0.5, 1))

    def regime_fragment(self, spec, params, rng):
        return self._with(spec, ints_summing_to(rng, len(spec.data.categories), 100, 6.0, 3))
