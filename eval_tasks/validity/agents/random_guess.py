"""``random``: a seeded uniform guess over each row's answer space (the chance level).

The answer space comes from the suite (yes/no, the chart's categories, counts up to the
number of marks, a closed label set, else the golds of the same template in the split).
Each row draws from its own stream ``rng_for(seed, row id, "random")``, so results do not
depend on row order or process count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from chartprobe.dataset_builders.core.rng import rng_for

from . import agent
from ._base import Agent

Row = Mapping[str, Any]


@agent("random")
class RandomGuess(Agent):
    description = "seeded uniform guess over the answer space"
    seed = 0

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        # Candidate golds per group, remembering which units (charts, families) they come from:
        # a row's own unit is left out, or a family asked thrice would "guess" its own answer.
        pools: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for r in rows:
            pools[suite.group_key(r)][str(r["answer"])].add(suite.unit_key(r))
        # Per group its golds in order and, for a gold only one unit has, that unit: a row's candidates
        # are the golds not its own unit's alone (one set difference per gold and row took seconds).
        golds = {g: sorted(group) for g, group in pools.items()}
        only = {g: {a: next(iter(units)) for a, units in group.items() if len(units) == 1} for g, group in pools.items()}
        out: list[str | None] = []
        for i, r in enumerate(rows):
            key, unit = suite.group_key(r), suite.unit_key(r)  # a unit key is a str, never None
            others = [a for a in golds[key] if only[key].get(a) != unit]
            space = list(suite.answer_space(r, others or golds[key]))
            rng = rng_for(self.seed, str(r.get("id", i)), "random")
            out.append(space[int(rng.integers(len(space)))] if space else "")
        return out
