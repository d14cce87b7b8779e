"""The suite contract: scoring, summary, oracle, answer space and validity checks of a benchmark.

A suite is named after the release it covers (the dataset registry name) and reuses that
benchmark's metrics module: ``score`` turns (row, prediction) into a scored record and
``summarize`` turns records into the benchmark's metrics. Its lm-eval tasks are found in
the task YAMLs (:mod:`eval_tasks.task_index`), never listed twice.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any, ClassVar

from eval_tasks.scoring import is_abstention

__all__ = ["AgentRun", "Check", "RunSet", "Suite"]

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Check:
    """One line of the validity table."""

    check: str
    scope: str
    """``config/split``, ``config`` (pooled over splits) or ``config:template``."""
    agent: str
    value: float | None
    threshold: str
    n: int
    status: str
    """pass | fail | info (reported, no threshold) | n/a (nothing to check here)."""


@dataclass
class AgentRun:
    """An agent's answers on one config/split: only the rows it applies to."""

    agent: str
    config: str
    split: str
    rows: list[Row]
    predictions: list[str]
    records: list[dict[str, Any]]


@dataclass
class RunSet:
    """Every agent run on one release, plus the release rows themselves."""

    release: str
    rows: dict[tuple[str, str], list[Row]]
    runs: dict[tuple[str, str, str], AgentRun] = field(default_factory=dict)

    def get(self, agent: str, config: str, split: str) -> AgentRun | None:
        return self.runs.get((agent, config, split))

    def fit_rows(self, config: str, split: str) -> list[Row]:
        """Rows of ``config``'s other splits: what agents that learn a prior are fit on."""
        return [r for (c, s), rs in sorted(self.rows.items()) if c == config and s != split for r in rs]

    def by_agent(self, agent: str) -> list[AgentRun]:
        return [r for (a, _, _), r in sorted(self.runs.items()) if a == agent]


class Suite(abc.ABC):
    """Base class: defaults fit benchmarks whose records carry a boolean ``correct``."""

    name: ClassVar[str]
    """Release (dataset registry) name; set by ``@suite``."""

    def documents(self, config: str, rows: Sequence[Row]) -> list[Row]:
        """The lm-eval documents built from a config's release rows (default: the rows).

        A task whose loader reshapes rows (e.g. a judge pair asked twice, positions
        swapped) overrides this so agents answer exactly the documents a model sees.
        """
        return list(rows)

    @abc.abstractmethod
    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        """Scored record for one prediction (reuse the benchmark's metrics module)."""

    def accuracy(self, record: Mapping[str, Any]) -> float:
        """Item accuracy of a scored record (what validity checks average)."""
        return float(record["correct"])

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The benchmark's metrics over scored records (JSON-able)."""
        return {"accuracy": fmean(map(self.accuracy, records)) if records else None, "n": len(records)}

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        """What lm-eval's results table shows for ``task`` (its aggregations over these records)."""
        return {"accuracy": fmean(map(self.accuracy, records)) if records else None}

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        """Flat numbers for the cross-model comparison table (column -> value)."""
        return {"accuracy": summary.get("accuracy")}

    @abc.abstractmethod
    def oracle(self, row: Row) -> str | None:
        """The answer recomputed from the row's spec (never copied from ``answer``)."""

    def answer_space(self, row: Row, pool: Sequence[str]) -> Sequence[str]:
        """Candidate answers a random guesser picks from; ``pool`` = golds of similar rows."""
        closed = self.closed_answers(row)
        return closed if closed else sorted(set(pool)) or [str(row.get("answer", ""))]

    def closed_answers(self, row: Row) -> tuple[str, ...] | None:
        """The fixed answer set of a categorical row (yes/no, A/B...), or None if open."""
        return ("yes", "no") if row.get("answer_type") == "bool" else None

    def group_key(self, row: Row) -> str:
        """Template-like key for majority answers (blind agent, majority-share check)."""
        return str(row.get("template_id") or row.get("answer_type"))

    def unit_key(self, row: Row) -> str:
        """The independent unit a row belongs to (a chart, a family, a pair): rows of one unit
        share answers, so priors fit "out of sample" must leave the whole unit out."""
        for key in ("chart_id", "family_id", "pair_id", "item_id", "group_id"):
            if row.get(key) is not None:
                return str(row[key])
        return str(row.get("id"))

    def answerable(self, row: Row) -> bool:
        """False when the gold answer is an abstention (unanswerable by design)."""
        return row.get("answer_type") != "abstain" and not is_abstention(str(row.get("answer", "")))

    def checks(self, runs: RunSet) -> list[Check]:
        """Validity checks with thresholds (see :mod:`eval_tasks.suites._checks`)."""
        from eval_tasks.suites import _checks

        return _checks.common_checks(self, runs)

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """PNG plots of ``profiles`` (model -> summary) written into ``folder``; default none."""
        return []
