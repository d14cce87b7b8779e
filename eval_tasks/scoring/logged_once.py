"""One payload per samples line: the per-document record lm-eval logs under one metric, not all.

Our aggregations are cross-document (pairs, families, legend groups), so ``process_results``
hands every metric of a task the document's whole record. lm-eval's ``--log_samples`` writes
each metric's value into the sample line (``example.update(metrics)``), so a CPA line carried
the same record 17 times, a legend line 14 times. :func:`share` gives the record to the first
metric and a :class:`LoggedOnce` reference to the others: it is the same object to every
aggregation (:func:`unwrap`, applied by :func:`~chartprobe.eval_tasks.harness.lm_eval_stderr.clustered`),
and lm-eval's JSON writer, which ``str()``-s what it cannot serialise, logs it as one short
string naming the metric that holds the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["LoggedOnce", "share", "unwrap"]


class LoggedOnce:
    """A metric's value that is another metric's logged record (``value``), by reference."""

    __slots__ = ("logged_as", "value")

    def __init__(self, value: Any, logged_as: str) -> None:
        self.value, self.logged_as = value, logged_as

    def __str__(self) -> str:
        return f"<record logged under {self.logged_as}>"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LoggedOnce) and (self.value, self.logged_as) == (other.value, other.logged_as)

    __hash__ = None  # type: ignore[assignment]  # compares by its (mutable) record


def share(record: Any, names: Sequence[str]) -> dict[str, Any]:
    """``process_results``' output: ``record`` under the first of ``names``, references under the rest."""
    first, *rest = names
    return {first: record, **{name: LoggedOnce(record, first) for name in rest}}


def unwrap(items: Iterable[Any]) -> list[Any]:
    """The records behind an aggregation's items (references resolved; other items as they are)."""
    return [i.value if isinstance(i, LoggedOnce) else i for i in items]
