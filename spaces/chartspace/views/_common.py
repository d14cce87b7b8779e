"""What every view shares: the view handle, filter choices, paging, and failure-proof handlers."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from chartspace.html import error_box, info_box
from chartspace.source import ReleaseUnavailable

__all__ = ["ALL", "ViewHandle", "choices", "guarded", "keep", "page_of", "pager", "pick_config", "wire"]

ALL = "(all)"
"""The filter value that keeps every row."""
log = logging.getLogger("chartspace")


@dataclass
class ViewHandle:
    """What ``app.py`` needs to wire a view: re-render it with the current predictions.

    ``refresh`` is called with ``inputs`` (the prediction state first, for dataset views)
    and returns values for ``outputs``; the app calls it whenever the tab is opened, so a
    view always shows the predictions loaded meanwhile in the Predictions tab.
    """

    name: str
    refresh: Callable[..., Any]
    inputs: list[Any]
    outputs: list[Any]


def choices(values: Iterable[Any]) -> list[str]:
    """``ALL`` followed by the distinct non-empty values, sorted."""
    return [ALL, *sorted({str(v) for v in values if v not in (None, "")})]


def keep(value: Any, options: Sequence[str], default: str | None = None) -> str | None:
    """``value`` if it is still an option, else ``default`` (or the first option)."""
    if value in options:
        return value
    return default if default in options else (options[0] if options else None)


def page_of(index: Any, n: int) -> int:
    """A 1-based page index clamped to ``1..n`` (1 for junk input)."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        i = 1
    return min(max(i, 1), max(n, 1))


def pick_config(source: Any, release: str, config: str | None, preferred: str | None = None) -> str:
    """The config to show: the requested one if it exists, else ``preferred``, else the first."""
    configs = source.configs(release)
    if not configs:
        raise ReleaseUnavailable(f"release '{release}' lists no configs in its card")
    return keep(config, configs, preferred)


def guarded(n_outputs: int, status_at: int) -> Callable[[Callable[..., tuple]], Callable[..., tuple]]:
    """Make a handler failure-proof: on an error, leave every output unchanged except the
    status HTML at ``status_at``, which shows the message (the app keeps working)."""
    import gradio as gr

    def decorate(fn: Callable[..., tuple]) -> Callable[..., tuple]:
        @functools.wraps(fn)
        def wrapper(*args: Any) -> tuple:
            try:
                return fn(*args)
            except ReleaseUnavailable as exc:
                message = info_box(str(exc))
            except Exception as exc:  # shown in the page; the traceback goes to the server log
                log.exception("view handler %s failed", fn.__name__)
                message = error_box(f"{type(exc).__name__}: {exc}")
            out: list[Any] = [gr.update() for _ in range(n_outputs)]
            out[status_at] = message
            return tuple(out)

        return wrapper

    return decorate


def pager(prefix: str, noun: str) -> tuple[Any, Any, Any]:
    """Previous / item number / next controls (elem ids ``<prefix>-prev|index|next``)."""
    import gradio as gr

    with gr.Row(equal_height=False):
        prev = gr.Button("◀ Previous", size="sm", scale=1, elem_id=f"{prefix}-prev")
        index = gr.Number(value=1, precision=0, minimum=1, label=f"{noun} #", scale=1, container=False,
                          elem_id=f"{prefix}-index")
        nxt = gr.Button("Next ▶", size="sm", scale=1, elem_id=f"{prefix}-next")
    return prev, index, nxt


def wire(render: Callable[..., tuple], state: Any, filters: Sequence[Any], controls: tuple[Any, Any, Any],
         outputs: Sequence[Any]) -> None:
    """Connect filters and pager to ``render(preds, *filters, index)``.

    A filter change goes back to item 1; previous/next step from the shown item (``render``
    clamps); typing a number jumps there.
    """
    prev, index, nxt = controls
    inputs = [state, *filters, index]

    def first(*args: Any) -> tuple:
        return render(*args[:-1], 1)

    def step(delta: int) -> Callable[..., tuple]:
        def go(*args: Any) -> tuple:
            return render(*args[:-1], page_of(args[-1], 10**9) + delta)
        return go

    for f in filters:
        f.input(first, inputs, list(outputs))
    prev.click(step(-1), inputs, list(outputs))
    nxt.click(step(+1), inputs, list(outputs))
    index.submit(render, inputs, list(outputs))
