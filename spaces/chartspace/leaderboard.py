"""The leaderboard: model × task metrics of the loaded runs, from lm-eval's table or our rescoring.

Two sources, because they answer different questions: **lm-eval results** is the table
lm-eval printed for the run (its ``results_*.json``, with lm-eval's standard errors), and
**chartprobe score** is what ``chartprobe score`` recomputes from the samples with the
current scorer (a results ``.json`` loaded directly has only this one). The page shows
models as rows and (task, metric) as columns; a model without the task shows "–".

By default only each task's headline metric (the first its scorer or lm-eval reports) and
its coverage, where the run has one, are columns, and only test-split tasks: every column
names its task's split, a validation task is never folded into a test number (each task
is its own column) and appears only in the all-metrics view, labelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chartspace.predictions import PredictionSet

__all__ = ["ALL_METRICS", "HEADLINE", "LM_EVAL", "RESCORED", "Board", "board", "cell", "sources", "split_of"]

LM_EVAL = "lm-eval results"
RESCORED = "chartprobe score"
ALL_METRICS = "(all metrics)"
HEADLINE = "(headline metrics)"
COVERAGE = "coverage"
"""A task entry's coverage metric (documents answered / documents in the split), shown beside its score."""

Value = tuple[float | None, float | None]


@dataclass
class Board:
    """What the leaderboard tab shows for one choice of source and metric."""

    source: str
    metric: str
    metrics: list[str]
    models: list[str]
    rows: list[tuple[str, str, list[Value | None]]] = field(default_factory=list)
    """(task, metric, one value per model: (value, stderr), or None when the model lacks it)."""

    @property
    def tasks(self) -> list[str]:
        """The tasks on the board, in row order, each once."""
        return list(dict.fromkeys(task for task, _, _ in self.rows))


def sources(preds: PredictionSet) -> list[str]:
    """The sources some loaded run has, lm-eval's table first."""
    out = [LM_EVAL] if any(run.lm_eval for run in preds.runs.values()) else []
    return out + ([RESCORED] if any(run.results for run in preds.runs.values()) else [])


def _tables(preds: PredictionSet, source: str) -> dict[str, dict[str, dict[str, Value]]]:
    """model -> task -> metric -> (value, stderr) from ``source``."""
    if source == LM_EVAL:
        return {name: run.lm_eval for name, run in preds.runs.items() if run.lm_eval}
    out = {}
    for name, run in preds.runs.items():
        if not run.results:
            continue
        shares = (run.results.get("models", {}).get(name) or {}).get("task_coverage") or {}
        out[name] = {t: {m: (_num(v), None) for m, v in metrics.items()} for t, metrics in run.task_metrics().items()}
        for task, share in shares.items():  # a partial run: the share of the split it answered, beside its scores
            if task in out[name]:
                out[name][task].setdefault(COVERAGE, (_num(share), None))
    return out


def _num(v) -> float | None:
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def split_of(task: str) -> str:
    """The split a chartprobe task scores (from the task index; "test" for a task it does not know)."""
    from chartprobe.eval_tasks.suites._task_index import task_index

    entry = task_index().get(task)
    return entry.split if entry is not None else "test"


def _headline(names: list[str]) -> list[str]:
    """A task's headline columns: its first metric, and its coverage beside it when it has one."""
    first = [n for n in names if n != COVERAGE][:1]
    return first + ([COVERAGE] if COVERAGE in names else [])


def board(preds: PredictionSet, source: str | None = None, metric: str | None = None) -> Board:
    """The leaderboard of the loaded runs: every task any of them has, with its headline
    metrics (the default), every metric (``ALL_METRICS``) or only ``metric``; ``source``
    defaults to lm-eval's table when a run has one. Non-test tasks only in the all-metrics view."""
    available = sources(preds)
    source = source if source in available else (available[0] if available else RESCORED)
    tables = _tables(preds, source)
    tasks = sorted({t for table in tables.values() for t in table})
    metrics = list(dict.fromkeys(m for t in tasks for table in tables.values() for m in table.get(t, {})))
    metric = metric if metric in (*metrics, ALL_METRICS) else HEADLINE
    out = Board(source, metric, [HEADLINE, ALL_METRICS, *metrics], list(tables))
    for task in tasks:
        if metric != ALL_METRICS and split_of(task) != "test":
            continue  # a validation task is shown only where every column is listed, labelled
        names = list(dict.fromkeys(m for table in tables.values() for m in table.get(task, {})))
        chosen = names if metric == ALL_METRICS else _headline(names) if metric == HEADLINE else \
            [n for n in names if n == metric]
        for name in chosen:
            out.rows.append((task, name, [tables[model].get(task, {}).get(name) for model in out.models]))
    return out


def cell(value: Value | None) -> str:
    """A value as the table shows it: ``0.500 ± 0.100`` (stderr when known), "n/a" for no number, "–" for absent."""
    if value is None:
        return "–"
    v, se = value
    if v is None:
        return "n/a"
    return f"{v:.3f}" + (f" ± {se:.3f}" if se is not None else "")
