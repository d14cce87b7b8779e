"""Recorded answer programs (CLEVR ``question_engine`` style).

A question's answer is never written by hand: a template binds arguments and records a
:class:`Program` — the operation, its arguments and the spec fields it reads — and the
answer is ``run(program, view)`` formatted for the answer type. Anyone can re-run the
stored program on the stored spec (``tests`` do, for every emitted item), and an
intervention that changes the spec re-runs it to get the new answer.

Operations are registered with ``@op(name)``; each is a pure function of a *view*
(``ChartView`` for charts, ``SceneView`` for shape scenes) and keyword arguments, and
returns ``None`` when the question is degenerate on that view (e.g. a tie makes
"the tallest" ambiguous), so no ambiguous item is ever emitted.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["OPS", "Program", "answer_of", "format_answer", "op", "run"]

OPS: dict[str, Callable[..., Any]] = {}


def op(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register an operation under ``name``."""

    def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in OPS and OPS[name] is not fn:
            raise ValueError(f"program op {name!r} registered twice")
        OPS[name] = fn
        return fn

    return decorator


@dataclass(frozen=True)
class Program:
    """One recorded operation: ``op`` applied to ``args``, reading ``reads`` of the spec."""

    op: str
    args: dict[str, Any] = field(default_factory=dict)
    reads: tuple[str, ...] = ()

    def to_json(self) -> str:
        """Canonical JSON (stored in the dataset's ``program`` column)."""
        return json.dumps({"op": self.op, "args": self.args, "reads": list(self.reads)},
                          sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Program:
        """Inverse of :meth:`to_json`."""
        d = json.loads(text)
        return cls(op=d["op"], args=dict(d.get("args", {})), reads=tuple(d.get("reads", ())))


def run(program: Program, view: Any) -> Any:
    """Execute ``program`` on ``view``; ``None`` means degenerate (no unique answer)."""
    try:
        fn = OPS[program.op]
    except KeyError:  # ops register when the module that defines them is imported
        raise KeyError(f"unknown program op {program.op!r}: import the templates that define it first "
                       f"(their registry's load())") from None
    return fn(view, **program.args)


def _fmt_number(x: float) -> str:
    # Six significant digits, not two decimals: a ratio of 0.0149 stored as "0.01" is 33% off
    # the true value, beyond the ±5% a correct read is allowed (0.2% of ratio golds were).
    # Integers stay integral ("42", not "42.0").
    r = float(f"{float(x):.6g}")
    return str(int(r)) if r == int(r) and abs(r) < 1e15 else f"{r:.6g}"


_FORMATTERS: dict[str, Callable[[Any], str]] = {
    "number": _fmt_number,
    "integer": lambda x: str(int(x)),
    "count": lambda x: str(int(x)),
    "year": lambda x: str(int(x)) if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x),
    "label": str,
    "choice": str,
    "text": str,
    "abstain": lambda x: "I don't know",
    "bool": lambda x: "yes" if x else "no",
    "list": lambda xs: json.dumps([str(x) for x in xs], ensure_ascii=False),
    "bbox": lambda b: json.dumps([round(float(v), 4) for v in b]),
}


def format_answer(value: Any, answer_type: str) -> str:
    """Canonical answer string for ``value`` under ``answer_type``."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"non-finite answer {value!r}")
    return _FORMATTERS[answer_type](value)


def answer_of(program: Program, view: Any, answer_type: str) -> str | None:
    """Run and format in one step; ``None`` when the program is degenerate on ``view``."""
    value = run(program, view)
    return None if value is None else format_answer(value, answer_type)
