"""What every stage of one run shares: the cached model client, the sandbox and the run's limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_ROUNDS", "N_VARIANTS", "CodeFailed", "Context", "Outcome"]

MAX_ROUNDS = 5
"""A.3: at most five diagnose-and-revise turns."""
N_VARIANTS = 10
"""§3.2: ten counterfactual variants, seeds 0-9."""


class CodeFailed(RuntimeError):
    """Checking or running one job's code raised (not a refusal of the code, not the code's own error).

    The chart's failure, never the run's: the pipeline records it as the chart's outcome with
    ``stage`` (set by the stage that ran the job) and goes on with the other charts.
    """

    def __init__(self, reason: str, stage: str = "") -> None:
        super().__init__(reason)
        self.stage = stage


@dataclass
class Context:
    """The run's client (:class:`~.client.CachedClient`), sandbox mechanism, limits and protocol."""

    client: Any
    mechanism: str
    limits: Any
    rounds: int = MAX_ROUNDS
    variants: int = N_VARIANTS
    jobs: Any = None
    """A :class:`~.cache.JobCache` (None: every job runs)."""
    protocol: Any = None
    """A :class:`~.protocol.Protocol` (None: the default, ``paper``)."""
    prompts: dict[str, str] = field(init=False, repr=False)
    """The protocol's stage prompts, made once per run."""

    def __post_init__(self) -> None:
        from .protocol import DEFAULT_PROTOCOL, PROTOCOLS

        if self.protocol is None:
            self.protocol = PROTOCOLS[DEFAULT_PROTOCOL]
        self.prompts = self.protocol.prompts()

    def run(self, calls: list[Any]) -> Any:
        """Run model-written calls in the sandbox (the AST check first: :func:`~.sandbox.check_code`),
        or return the same job's cached result."""
        from .sandbox import CodeRejected

        try:
            return self._run(calls)
        except CodeRejected:
            raise  # the contract's refusal: its message goes back to the model
        except Exception as exc:  # a checker or sandbox failure must end this chart only, never the run
            raise CodeFailed(f"checking or running the code failed: {type(exc).__name__}: {exc}") from exc

    def _run(self, calls: list[Any]) -> Any:
        from .sandbox import check_code, run_calls

        for call in calls:  # refused code is refused again, never cached
            check_code(call.code, call.function, self.protocol.allowed(call.function))
        key = self.jobs.key(calls, self.limits, self.mechanism) if self.jobs is not None else ""
        cached = self.jobs.get(key) if key else None
        if cached is not None:
            return cached
        job = run_calls(calls, self.limits, mechanism=self.mechanism, check=False)
        if key:
            self.jobs.put(key, job)
        return job


@dataclass
class Outcome:
    """One source item's fate, as the manifest and the review queue record it."""

    item: str
    chart_id: str
    status: str
    """accepted / rejected / needs_review (waiting for a person) / error (the model or sandbox failed)."""
    reason: str = ""
    stage: str = ""
    """The stage that decided (reconstruct ... generate_answer, review)."""
    rounds: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    verdict: str = ""
    reviewed: str = ""
    """``approve``/``reject`` when a person decided (the review file), else empty."""
