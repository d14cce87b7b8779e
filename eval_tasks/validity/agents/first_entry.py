"""``first_entry``: binds every label a question names to the first legend entries, without reading.

A reader that never matches a label to its legend entry can still pass a legend question if
the question always targets the entry drawn first: it reads the first entry's marks for the
first label the question names, the second entry's for the second, and so on. This agent
does exactly that on every answerable LegendBench row whose question names labels
(label-anchored templates): it re-instantiates the row's program with the named labels
replaced by the labels of the first displayed entries and answers what that program gives
(:mod:`chartprobe.eval_tasks.suites._legend_binding`).

Its fair comparison is a *random* binding of the same labels, not the template's uniform answer
chance: a value question bound to a random series is right only when the series happens to be
the target's (or shares its value). Where targets are drawn uniformly over the legend the two
agree; where a study always targets the first entry, the first-entry agent scores 100% against
~1/n. ``LegendSuite`` checks the gap.
"""

from __future__ import annotations

from ...suites._legend_binding import first_entry_answer
from . import agent
from ._base import Agent


@agent("first_entry")
class FirstEntry(Agent):
    suites = ("legend",)
    description = "binds the question's labels to the first legend entries without reading them"

    def answer(self, suite, row):
        return first_entry_answer(row)
