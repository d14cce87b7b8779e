"""Timeline of "time wasters" over the lifespan: "Which activity spans the widest age range?"
(visual: compare band lengths along the age axis; no endpoints printed). This is the
ChartMuseum case the paper reports with high stale-prediction rates.

Regimes stretch a band past the current widest, shrink the widest band, or re-assign the
durations among activities (bands also move along the age axis).
"""

from __future__ import annotations

import numpy as np

from ..source import FamilySource, argmax_unique, family_source, make_spec, with_values

ACTIVITIES = ("Watching TV", "Video games", "Social media", "Going to concerts", "Board games",
              "Shopping", "Reading comics", "Daydreaming")
MARGIN = 4.0  # years between the widest and the second-widest band
LO, HI = 2.0, 85.0


@family_source("gantt_widest_span")
class GanttWidestSpan(FamilySource):
    group = "timelines"
    kind = "gantt"
    reasoning_type = "visual"
    answer_type = "label"
    question_template = "Which activity spans the widest age range?"
    regimes = ("stretch_other", "shrink_leader", "reassign", "stretch_other",
               "shrink_leader", "reassign", "stretch_other", "shrink_leader", "reassign", "stretch_other")

    def source_data(self, rng):
        n = int(rng.integers(4, 7))
        acts = [ACTIVITIES[int(i)] for i in rng.choice(len(ACTIVITIES), size=n, replace=False)]
        dur = rng.uniform(8, 50, n)
        start = rng.uniform(LO, HI - dur)
        spec = make_spec("gantt", acts, {"Start": np.round(start), "End": np.round(start + dur)}, rng=rng,
                         title="Time wasters across the lifespan", x_label="Age (years)", legend="none")
        return spec, {}

    @staticmethod
    def _ends(spec):
        return (np.asarray(s.values) for s in spec.data.series)

    def generate_answer(self, spec, params):
        start, end = self._ends(spec)
        i = argmax_unique(end - start, MARGIN)
        return None if i is None else spec.data.categories[i]

    def _place(self, spec, rng, dur, start=None):
        dur = np.clip(dur, 3, HI - LO)
        start = rng.uniform(LO, HI - dur) if start is None else np.clip(start, LO, HI - dur)
        return with_values(spec, {"Start": np.round(start), "End": np.round(start + dur)})

    def regime_stretch_other(self, spec, params, rng):
        start, end = self._ends(spec)
        dur = end - start
        j = int(rng.integers(len(dur)))
        dur[j] = dur.max() + rng.uniform(6, 20)
        return self._place(spec, rng, dur, start)

    def regime_shrink_leader(self, spec, params, rng):
        start, end = self._ends(spec)
        dur = end - start
        dur = dur + rng.uniform(-4, 4, len(dur))  # so a near tie among the rest can resolve
        dur[int(np.argmax(dur))] *= rng.uniform(0.3, 0.7)
        return self._place(spec, rng, dur, start)

    def regime_reassign(self, spec, params, rng):
        start, end = self._ends(spec)
        return self._place(spec, rng, rng.permutation(end - start))
