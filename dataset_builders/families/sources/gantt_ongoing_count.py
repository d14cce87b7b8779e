"""Project Gantt chart with printed start/end weeks: "How many tasks are in progress during
week {week}?" (synthesis: read the week labels and compare every band against one week).

A task is in progress during week w when start <= w < end; no band starts or ends at w
itself, so the count never hinges on an endpoint. Regimes reschedule tasks, extend or
compress durations, move the whole plan, or rebalance the plan around the asked week (each
task runs through it with a probability the seed draws, so the count can land anywhere from
none to all tasks; with the other regimes alone it would cluster at one or two).
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, family_source, make_spec, with_values

TASKS = ("Research", "Design", "Prototype", "Testing", "Marketing", "Launch", "Support", "Hiring")
WEEKS = 52


@family_source("gantt_ongoing_count")
class GanttOngoingCount(FamilySource):
    group = "timelines"
    kind = "gantt"
    reasoning_type = "synthesis"
    answer_type = "integer"
    question_template = "How many tasks are in progress during week {week}?"
    regimes = ("rebalance", "extend", "rebalance", "compress", "rebalance",
               "shift_plan", "rebalance", "reschedule", "rebalance", "reschedule")

    def source_data(self, rng):
        n = int(rng.integers(5, 9))
        start, end = self._plan(rng, n)
        spec = make_spec("gantt", TASKS[:n], {"Start": start, "End": end}, rng=rng, title="Project schedule",
                         x_label="Week", value_labels=True, legend="none")
        return spec, {"week": int(rng.integers(12, 40))}

    @staticmethod
    def _plan(rng, n, scale=1.0):
        start = rng.integers(1, 40, n)
        end = np.minimum(start + np.maximum(2, np.round(rng.integers(4, 20, n) * scale)), WEEKS)
        return start.astype(float), end.astype(float)

    def generate_answer(self, spec, params):
        start, end = (np.asarray(s.values) for s in spec.data.series)
        w = params["week"]
        if (start == w).any() or (end == w).any():
            return None
        return int(((start < w) & (w < end)).sum())

    def _with(self, spec, start, end):
        start = np.clip(np.round(start), 1, WEEKS - 2)
        return with_values(spec, {"Start": start, "End": np.clip(np.round(np.maximum(end, start + 2)), 3, WEEKS)})

    def _cur(self, spec):
        return (np.asarray(s.values) for s in spec.data.series)

    def regime_reschedule(self, spec, params, rng):
        return self._with(spec, *self._plan(rng, len(spec.data.categories)))

    def regime_extend(self, spec, params, rng):
        start, end = self._cur(spec)
        return self._with(spec, start, end + rng.integers(3, 12, len(end)))

    def regime_compress(self, spec, params, rng):
        start, end = self._cur(spec)
        return self._with(spec, start, start + (end - start) * rng.uniform(0.3, 0.7))

    def regime_shift_plan(self, spec, params, rng):
        start, end = self._cur(spec)
        delta = float(rng.choice([-1, 1]) * rng.integers(4, 12))
        return self._with(spec, start + delta, end + delta)

    def regime_rebalance(self, spec, params, rng):
        """Each task spans the asked week with probability p ~ U(0.1, 0.9), else lies clear of it."""
        w, n = params["week"], len(spec.data.categories)
        p = rng.uniform(0.1, 0.9)
        dur = rng.integers(4, 20, n)
        start = np.empty(n)
        for i in range(n):
            if rng.random() < p:  # in progress: start < w < start + dur
                start[i] = rng.integers(max(1, w - dur[i] + 1), w)
            elif rng.random() < 0.5:  # finished before w
                start[i] = rng.integers(1, max(2, w - dur[i]))
            else:  # starts after w
                start[i] = rng.integers(w + 1, WEEKS - 2)
        return self._with(spec, start, start + dur)
