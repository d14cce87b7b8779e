"""What a validity run produces: agent runs over a release and the lines of the validity table.

The data the suite contract (``_base``) and the shared checks (``_checks``) both work on, kept
apart so that neither module needs the other's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AgentRun", "Check", "Row", "RunSet"]

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
    tested: float | None = None
    """The number the limit is applied to: ``value`` itself, or its one-sided 95% lower bound
    where the check guards against chance on small releases (``statistic`` says which)."""
    statistic: str = "value"
    op: str = ""
    """How ``tested`` is compared with ``limit`` (:data:`._verdict.OPS`); empty for info rows."""
    limit: tuple[float, ...] = ()
    """One bound, or (low, high) for ``in``."""


@dataclass
class AgentRun:
    """An agent's answers on one config/split: only the rows it applies to."""

    agent: str
    config: str
    split: str
    rows: list[Row]
    predictions: list[str]
    records: list[dict[str, Any]]
    scores: list[Mapping[str, float] | None] | None = None
    """Per answered row, the agent's probability of each candidate answer (``Agent.scores``), if any."""


@dataclass
class RunSet:
    """Every agent run on one release, plus the release rows themselves."""

    release: str
    rows: dict[tuple[str, str], list[Row]]
    runs: dict[tuple[str, str, str], AgentRun] = field(default_factory=dict)
    derived: dict[tuple[str, str, str], Any] = field(default_factory=dict, repr=False, compare=False)
    """What checks derive from the rows alone (e.g. chance levels), computed once per
    (what, config, split) however many checks read it."""

    def get(self, agent: str, config: str, split: str) -> AgentRun | None:
        return self.runs.get((agent, config, split))

    def fit_rows(self, config: str, split: str) -> list[Row]:
        """Rows of ``config``'s other splits: what agents that learn a prior are fit on."""
        return [r for (c, s), rs in sorted(self.rows.items()) if c == config and s != split for r in rs]

    def by_agent(self, agent: str) -> list[AgentRun]:
        return [r for (a, _, _), r in sorted(self.runs.items()) if a == agent]
