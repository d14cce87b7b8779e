"""Reference agents: programs that answer dataset rows like a model would, to validate metrics.

Each file registers an :class:`~chartprobe.eval_tasks.validity.agents._base.Agent` with ``@agent("<name>")``.
An agent declares the suites it applies to and, row by row, whether it has an answer; its
predictions are written in lm-eval's ``--log_samples`` format, so ``chartprobe score``
treats it exactly like a model.
"""

from __future__ import annotations

from chartprobe.dataset_builders.core.registry import Registry

__all__ = ["AGENTS", "agent"]

AGENTS = Registry("agent", "chartprobe.eval_tasks.validity.agents")
agent = AGENTS.register
