"""Bar figures for ``chartprobe report``: percentages (RVC) and stacked shares, one row per model.

They share :mod:`chartprobe.eval_tasks.suites._plots`' sizing (a row's height shrinks as 1/sqrt(n)
beyond 16 models, sides capped, aspect capped), default style and PNG/PDF/SVG output.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ._plots import Data, _figure, _fit, _number, _save, _shrink, _style, _text_in

__all__ = ["percent_bars", "stacked_shares"]


def _bar_figure(n_models: int, per_model_in: float, labels: Sequence[str], title: str):
    height = 1.5 + n_models * per_model_in * _shrink(n_models)
    width, height, scale = _fit(6.5 + _text_in(labels, 8), height)
    fig = _figure(width, height)
    fig.suptitle(title, fontsize=10 * scale)
    return fig, fig.add_subplot(), max(4.0, 8 * scale)


def percent_bars(data: Data, path: Path, title: str, xlabel: str) -> list[Path]:
    """Horizontal bars of percentages (relative changes such as RVC): a row per model, a bar per
    label, a zero line, the value printed at each bar's end; the axis is in %."""
    from matplotlib.ticker import PercentFormatter

    models, labels = list(data), list(dict.fromkeys(k for per in data.values() for k in per))
    if not models or not labels:
        return []
    values = [[_number(data[m].get(lab)) for lab in labels] for m in models]
    span = max([abs(v) for row in values for v in row if v is not None] or [10.0]) * 1.3 or 10.0
    with _style():
        fig, ax, pt = _bar_figure(len(models), 0.17 * len(labels) + 0.12, models, title)
        height = 0.8 / len(labels)
        for j, lab in enumerate(labels):
            ys = [i + (j - (len(labels) - 1) / 2) * height for i in range(len(models))]
            xs = [values[i][j] for i in range(len(models))]
            ax.barh([y for y, x in zip(ys, xs) if x is not None], [x for x in xs if x is not None], height,
                    label=lab)
            for y, x in zip(ys, xs):
                ax.text(x or 0.0, y, " n/a " if x is None else f" {x:+.1f}% ", va="center", fontsize=pt * 0.8,
                        ha="left" if (x or 0) >= 0 else "right")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlim(-span, span)
        ax.xaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=0))
        ax.set_yticks(range(len(models)), models, fontsize=pt)
        ax.set_ylim(len(models) - 0.5, -0.5)  # first model on top; rows without bars keep their place
        ax.set_xlabel(xlabel, fontsize=pt)
        ax.tick_params(labelsize=pt)
        ax.legend(fontsize=pt * 0.9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(labels), frameon=False)
        return _save(fig, path)


def stacked_shares(data: Data, path: Path, title: str, xlabel: str) -> list[Path]:
    """One horizontal bar per model stacked by label (shares in 0-1 that sum to at most 1, such as
    correct / noisy / stale updates), shares printed inside segments wide enough to hold them."""
    models, labels = list(data), list(dict.fromkeys(k for per in data.values() for k in per))
    if not models or not labels:
        return []
    with _style():
        fig, ax, pt = _bar_figure(len(models), 0.3, models, title)
        left = [0.0] * len(models)
        for lab in labels:
            vals = [_number(data[m].get(lab)) or 0.0 for m in models]
            ax.barh(range(len(models)), vals, 0.7, left=left, label=lab)
            for i, (x0, v) in enumerate(zip(left, vals)):
                if v >= 0.08:
                    ax.text(x0 + v / 2, i, f"{v:.2f}", ha="center", va="center", fontsize=pt * 0.8, color="white")
            left = [a + b for a, b in zip(left, vals)]
        for i, total in enumerate(left):
            if total == 0:
                ax.text(0.01, i, "no solved originals", va="center", fontsize=pt * 0.8)
        ax.set_xlim(0, 1)
        ax.set_yticks(range(len(models)), models, fontsize=pt)
        ax.set_ylim(len(models) - 0.5, -0.5)  # first model on top; rows without bars keep their place
        ax.set_xlabel(xlabel, fontsize=pt)
        ax.tick_params(labelsize=pt)
        ax.legend(fontsize=pt * 0.9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(labels), frameon=False)
        return _save(fig, path)
