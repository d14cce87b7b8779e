"""The agent contract: answer the rows of one config/split, or say it does not apply."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

__all__ = ["ABSTAIN", "Agent"]

Row = Mapping[str, Any]
ABSTAIN = "I don't know"


class Agent:
    """Base class. Override :meth:`answer` (row by row) or :meth:`predict` (needs all rows)."""

    name: ClassVar[str]
    """Set by ``@agent``."""
    suites: ClassVar[tuple[str, ...] | None] = None
    """Suite (release) names this agent applies to; None = every suite."""
    description: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # An agent that overrides neither hook would answer nothing, silently: refuse it.
        super().__init_subclass__(**kwargs)
        if cls.answer is Agent.answer and cls.predict is Agent.predict:
            raise TypeError(f"agent {cls.__name__} must override answer() or predict()")

    def applies_to_suite(self, suite: Any) -> bool:
        return self.suites is None or suite.name in self.suites

    def answer(self, suite: Any, row: Row) -> str | None:
        """The prediction for one row, or None when the agent has nothing to say about it.

        Only reached for agents that override :meth:`predict` instead (then never called).
        """
        raise TypeError(f"{type(self).__name__} answers whole splits through predict()")

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        """Predictions aligned with ``rows`` (None = not applicable).

        ``fit_rows`` are rows of the same config from *other* splits, for agents that learn
        a prior; it is empty when the config has a single split.
        """
        return [self.answer(suite, row) for row in rows]
