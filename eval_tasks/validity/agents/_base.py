"""The agent contract: answer the rows of one config/split, or say it does not apply."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(import name, pip extra) of optional packages the agent needs; without them it is not run."""
    learned: ClassVar[bool] = False
    """True for an agent fitted on the release's own rows (out of fold): its accuracy moves with how
    many units a release holds, so ``--across-seeds`` leaves it out of seed agreement by default
    (judge it on seeds pooled, ``--pool-seeds``)."""
    num_proc: int = 1
    """Processes the agent may use for its per-row work (``chartprobe validate --num-proc``; the
    oracle's re-renders); the predictions never depend on it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # An agent that overrides neither hook would answer nothing, silently: refuse it.
        super().__init_subclass__(**kwargs)
        if cls.answer is Agent.answer and cls.predict is Agent.predict:
            raise TypeError(f"agent {cls.__name__} must override answer() or predict()")

    @classmethod
    def missing(cls) -> list[str]:
        """What is missing to run this agent, as install hints (empty when it can run)."""
        from importlib.util import find_spec

        return [f"{module} (pip install 'chartprobe[{extra}]')" for module, extra in cls.requires
                if find_spec(module) is None]

    def applies_to_suite(self, suite: Any) -> bool:
        return self.suites is None or suite.name in self.suites

    def answer(self, suite: Any, row: Row) -> str | None:
        """The prediction for one row, or None when the agent has nothing to say about it.

        Only reached for agents that override :meth:`predict` instead (then never called).
        """
        raise TypeError(f"{type(self).__name__} answers whole splits through predict()")

    def needs_pixels(self, suite: Any, row: Row) -> bool:
        """True when the agent reads pixel statistics of ``row``'s images (``image_meta[...]["pixels"]``):
        ``chartprobe validate`` then computes them while loading (``dataset_builders/core/image_statistics.py``)."""
        return False

    def scores(self, suite: Any, rows: Sequence[Row]) -> list[Mapping[str, float] | None] | None:
        """After :meth:`predict` on ``rows``: per row the probability the agent gave each candidate
        answer (None = no answer), for checks that rank (AUC); None for agents that only answer."""
        return None

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        """Predictions aligned with ``rows`` (None = not applicable).

        ``fit_rows`` are rows of the same config from *other* splits, for agents that learn
        a prior; it is empty when the config has a single split.
        """
        return [self.answer(suite, row) for row in rows]

    _pool: Any = None
    """This run's worker processes (:meth:`worker_pool`), or None."""

    def worker_pool(self, warm: Callable[[], Any] | None = None) -> Any:
        """This run's ``num_proc`` worker processes, started on first use: forked from this process after
        ``warm()`` has loaded what they share (a fork server if this process has started Vega's
        runtime), and serving every config/split until :meth:`close`. A pool per call started its
        workers cold each time."""
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from chartprobe.dataset_builders.core.vega.runtime import start_method

            if warm is not None:
                warm()
            self._pool = ProcessPoolExecutor(max_workers=self.num_proc,
                                             mp_context=multiprocessing.get_context(start_method()))
        return self._pool

    def close(self) -> None:
        """Release what the agent kept across calls (its worker processes); ``run_agents`` calls it once
        every config/split is answered."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
