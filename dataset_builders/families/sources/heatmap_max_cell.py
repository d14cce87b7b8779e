"""Heatmap, bike rentals per station and weekday: "At which station were rentals highest on
{day}?" (visual: compare cell colours down one column; no values printed).

Regimes raise a random station's cell above the column's maximum, permute the stations'
rows, or redraw the matrix.
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

STATIONS = ("Central", "Harbour", "Museum", "University", "Riverside", "Old Town", "Stadium")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MARGIN = 25.0  # rentals: the darkest cell must stand out from the next


@family_source("heatmap_max_cell")
class HeatmapMaxCell(FamilySource):
    group = "distributions"
    kind = "heatmap"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = "At which station were bike rentals highest on {day}?"
    regimes = ("move_max", "permute_rows", "redraw", "move_max", "permute_rows",
               "redraw", "move_max", "permute_rows", "redraw", "move_max")

    def source_data(self, rng):
        n = int(rng.integers(4, 7))
        rows = [STATIONS[int(i)] for i in rng.choice(len(STATIONS), size=n, replace=False)]
        spec = make_spec("heatmap", DAYS, dict(zip(rows, self._matrix(rng, n))), rng=rng, unit="rentals",
                         title="Average daily bike rentals", x_label="Day of week", legend="colorbar", grid=False)
        spec = spec.replace(legend=spec.legend.__class__(form="colorbar", title="Rentals per day"),
                            encodings=spec.encodings[:1])
        return spec, {"day": DAYS[int(rng.integers(len(DAYS)))]}

    @staticmethod
    def _matrix(rng, n):
        return np.round(rng.uniform(40, 400, (n, len(DAYS))))

    def _column(self, spec, params):
        c = spec.data.categories.index(params["day"])
        return np.asarray([s.values[c] for s in spec.data.series])

    def generate_answer(self, spec, params):
        i = argmax_unique(self._column(spec, params), MARGIN)
        return None if i is None else spec.series_names[i]

    def _with_column(self, spec, params, col):
        c = spec.data.categories.index(params["day"])
        vals = {}
        for s, v in zip(spec.data.series, col):
            row = list(s.values)
            row[c] = float(np.clip(round(v), 10, 500))
            vals[s.name] = row
        return with_values(spec, vals)

    def regime_move_max(self, spec, params, rng):
        col = self._column(spec, params).copy()
        col[int(rng.integers(len(col)))] = col.max() + rng.uniform(30, 90)
        return self._with_column(spec, params, col)

    def regime_permute_rows(self, spec, params, rng):
        order = rng.permutation(len(spec.data.series))
        return with_values(spec, {s.name: spec.data.series[int(j)].values for s, j in zip(spec.data.series, order)})

    def regime_redraw(self, spec, params, rng):
        return with_values(spec, dict(zip(spec.series_names, self._matrix(rng, len(spec.data.series)))))
