"""PNG plots for ``chartprobe report`` (matplotlib, imported only when a plot is drawn).

Every function takes ``{model: {label: value}}`` and a path, draws with the object API on
the Agg canvas (no pyplot state, safe in any process) and returns the path. ``None``
values are drawn as gaps, never as zeros.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

__all__ = ["grouped_bars", "heatmap", "scatter", "stacked_bars"]

Data = Mapping[str, Mapping[str, float | None]]


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _labels(data: Data) -> list[str]:
    seen: dict[str, None] = {}
    for per in data.values():
        seen.update(dict.fromkeys(per))
    return list(seen)


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    return path


def grouped_bars(data: Data, path: Path, title: str, ylabel: str = "", ylim: tuple[float, float] | None = (0, 1)) -> Path:
    """One group of bars per label, one bar per model."""
    labels, models = _labels(data), list(data)
    fig = _figure(max(6.0, 0.5 * len(labels) * max(1, len(models)) + 2), 4.2)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(models))
    for i, model in enumerate(models):
        xs = [j + i * width for j, lab in enumerate(labels) if data[model].get(lab) is not None]
        ys = [data[model][lab] for lab in labels if data[model].get(lab) is not None]
        ax.bar(xs, ys, width, label=model)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))], labels, rotation=30, ha="right")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if ylim:
        ax.set_ylim(*ylim)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))  # never over the bars
    return _save(fig, path)


def stacked_bars(data: Data, path: Path, title: str, ylabel: str = "share") -> Path:
    """One bar per model, stacked by label (e.g. CU / NU / SP shares)."""
    labels, models = _labels(data), list(data)
    fig = _figure(max(5.0, 0.7 * len(models) + 3), 4.2)
    ax = fig.add_subplot()
    bottom = [0.0] * len(models)
    for lab in labels:
        vals = [float(data[m].get(lab) or 0.0) for m in models]
        ax.bar(range(len(models)), vals, 0.6, bottom=bottom, label=lab)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(models)), models, rotation=30, ha="right")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, path)


def heatmap(data: Data, path: Path, title: str) -> Path:
    """Models x labels grid coloured by value in [0, 1], values printed in the cells."""
    import numpy as np

    labels, models = _labels(data), list(data)
    grid = np.array([[np.nan if data[m].get(lab) is None else float(data[m][lab]) for lab in labels]
                     for m in models]).reshape(len(models), len(labels))
    fig = _figure(max(6.0, 0.45 * len(labels) + 2.5), max(2.5, 0.45 * len(models) + 2))
    ax = fig.add_subplot()
    img = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize="small")
    ax.set_yticks(range(len(models)), models)
    if grid.size <= 400:  # numbers stay legible up to about 20 x 20 cells
        for (i, j), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6,
                        color="white" if v < 0.5 else "black")
    fig.colorbar(img, ax=ax, fraction=0.03)
    ax.set_title(title)
    return _save(fig, path)


def scatter(points: Mapping[str, tuple[float, float]], path: Path, title: str, xlabel: str, ylabel: str) -> Path:
    """One labelled point per model (e.g. consistency vs responsiveness)."""
    fig = _figure(5.5, 5.0)
    ax = fig.add_subplot()
    for model, (x, y) in points.items():
        ax.scatter([x], [y])
        ax.annotate(model, (x, y), fontsize="small", xytext=(4, 4), textcoords="offset points")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _save(fig, path)
