"""``oracle``: answers from the row's spec through the benchmark's own answer programs.

It never reads the stored ``answer``: it re-derives it, so scoring below 100% means a stored
answer, a program or the scorer disagree, and the release must not ship.

A box answer is re-derived by laying the chart out again (``render(pixels=False)``: the same draws
with no pixel painted or encoded, about 45 ms a chart): on a full probes release that is most of
``chartprobe validate``'s time, so with ``--num-proc N`` (``Agent.num_proc``) a config/split of at
least :data:`PARALLEL_MIN_ROWS` rows is answered in ``N`` processes, in order; the answers are the
same as in one process. The processes are started once per run, after this process has loaded
the renderer and its fonts (forked warm), and serve every config/split: a pool per config/split
started its workers cold eight times on the full probes release.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import agent
from ._base import Agent

PARALLEL_MIN_ROWS = 200
"""Fewer rows are answered in this process: handing them out would cost more than it saves."""
CHUNKS_PER_PROCESS = 4


def _answer_chunk(dataset: str, rows: Sequence[Any]) -> list[str]:
    """One worker's share, with its own suite instance (``rows`` are plain documents)."""
    from chartprobe.eval_tasks.suites import suite_for_release

    suite, oracle = suite_for_release(dataset), Oracle()
    return [oracle.answer(suite, r) for r in rows]


@agent("oracle")
class Oracle(Agent):
    description = "answer recomputed from the spec (must score 100%)"

    def answer(self, suite, row):
        value = suite.oracle(row)
        return "" if value is None else value  # a degenerate program is scored as a wrong answer

    def predict(self, suite: Any, rows: Sequence[Any], fit_rows: Sequence[Any] = ()) -> list[str | None]:
        if self.num_proc < 2 or len(rows) < PARALLEL_MIN_ROWS:
            return [self.answer(suite, r) for r in rows]
        from chartprobe.dataset_builders.release.pool import warm

        size = -(-len(rows) // (self.num_proc * CHUNKS_PER_PROCESS))
        chunks = [list(rows[i:i + size]) for i in range(0, len(rows), size)]
        # renderer and font cache loaded before the fork: the workers share them instead of loading them
        parts = self.worker_pool(warm).map(_answer_chunk, [suite.name] * len(chunks), chunks)
        return [a for part in parts for a in part]
