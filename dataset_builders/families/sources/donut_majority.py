"""Donut of parliament seats with printed counts: "How many more seats does the largest
party need to reach a majority?" (text: seat counts are printed; the majority threshold
is in the question).

Seats are integers summing to the fixed parliament size. Regimes let the largest party
gain or lose seats, crown another party, or redraw the composition; no party ever holds
a majority already (the question would then be moot).
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, ints_summing_to, make_spec, with_values

PARTIES = ("Civic Union", "Green Alliance", "Labour Front", "Liberal Party", "People's Bloc", "Reform")
SERIES = "Seats"
SIZES = (120, 150, 200, 250)


@family_source("donut_majority")
class DonutMajority(FamilySource):
    group = "shares"
    kind = "donut"
    reasoning_type = "text"
    answer_type = "integer"
    question_template = ("How many more seats does the largest party need to reach a majority "
                         "({majority} of {total} seats)?")
    regimes = ("gain", "lose", "new_leader", "recompose", "gain")

    def source_data(self, rng):
        total = int(rng.choice(SIZES))
        n = int(rng.integers(4, 7))
        spec = make_spec("donut", PARTIES[:n], {SERIES: ints_summing_to(rng, n, total, 2.0, 3)}, rng=rng,
                         title="Seats won in the general election", value_labels=True,
                         per_category_items=True, grid=False)
        return spec, {"total": total, "majority": total // 2 + 1}

    def check(self, spec, params):
        vals = spec.data.series[0].values
        return (sum(vals) == params["total"] and all(float(v).is_integer() and v >= 1 for v in vals)
                and max(vals) < params["majority"])

    def generate_answer(self, spec, params):
        vals = sorted(spec.data.series[0].values)
        if vals[-1] == vals[-2]:
            return None  # two largest parties: "the largest" is ambiguous
        return int(params["majority"] - vals[-1])

    def _move(self, spec, params, rng, sign):
        vals = np.asarray(spec.data.series[0].values, dtype=int)
        lead = int(np.argmax(vals))
        room = params["majority"] - 1 - vals[lead] if sign > 0 else vals[lead] // 3
        moved = int(rng.integers(1, max(2, room + 1)))
        for _ in range(moved):  # take or give one seat at a time so no party drops below 1
            other = int(rng.choice([i for i in range(len(vals)) if i != lead and (sign < 0 or vals[i] > 1)]))
            vals[lead] += sign
            vals[other] -= sign
        return with_values(spec, {SERIES: vals})

    def regime_gain(self, spec, params, rng):
        return self._move(spec, params, rng, +1)

    def regime_lose(self, spec, params, rng):
        return self._move(spec, params, rng, -1)

    def regime_new_leader(self, spec, params, rng):
        vals = np.asarray(spec.data.series[0].values, dtype=int)
        lead = int(np.argmax(vals))
        other = int(rng.choice([i for i in range(len(vals)) if i != lead]))
        vals[[lead, other]] = vals[[other, lead]]
        swing = int(rng.integers(1, 6))
        vals[other] += swing
        vals[lead] -= swing
        return with_values(spec, {SERIES: vals})

    def regime_recompose(self, spec, params, rng):
        return with_values(spec, {SERIES: ints_summing_to(rng, len(spec.data.categories), params["total"], 2.0, 3)})
