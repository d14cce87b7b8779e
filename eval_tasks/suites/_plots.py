"""Figures for ``chartprobe report``: heatmap small multiples and bar charts that stay readable
for any number of models, tasks and templates, each saved as PNG (200 dpi), PDF and SVG.

Bar charts (percentages, stacked shares) are in :mod:`chartprobe.eval_tasks.suites._bars`, on
the same helpers. Every function draws with the object API on the Agg canvas (no pyplot state, safe in any
process) under matplotlib's default style, so a user's ``matplotlibrc`` cannot change a report,
and returns the written paths, PNG first. Sizes are a function of the counts only: a heatmap
cell is :data:`CELL_IN` wide up to :data:`SUBLINEAR_FROM` cells per side and shrinks as
1/sqrt(n) beyond, so a side grows as sqrt(n); every side is capped at :data:`MAX_IN` and the
aspect ratio at :data:`MAX_ASPECT`. Values are on one declared scale per figure (0-1 for
accuracies and rates, percent for relative changes), never mixed; ``None`` is a grey gap,
never a zero. PDF and SVG carry no dates or versions, so the same input gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FORMATS", "LOWER_IS_BETTER", "PERCENT_MARK", "Panel", "chunk", "heatmaps", "lower_is_better", "overview",
           "panel", "plot_formats"]

Data = Mapping[str, Mapping[str, float | None]]
DPI = 200
MAX_IN = 19.0
"""Longest side in inches: 3,800 px at :data:`DPI`."""
MAX_ASPECT = 3.5
CELL_IN = 0.45
SUBLINEAR_FROM = 16
MAX_PANEL_ROWS = 16
"""A tall heatmap is split into panels side by side (templates x models), none shorter than this."""
MIN_CELL_PT, MAX_ANNOTATED = 4.5, 800
"""Cell values are printed while they are at least this big (12 px at 200 dpi) and the figure has
at most this many cells: beyond, nobody reads them one by one and each costs a text layout."""
FORMATS = ("png", "pdf", "svg")
"""Every format a figure can be saved in; PNG always, the vector ones on request (``report --formats``)."""
_FORMATS: ContextVar[tuple[str, ...]] = ContextVar("chartprobe_plot_formats", default=("png",))
LOWER_IS_BETTER = ("parse fail", "parse_fail", "follow_legend", "stale", "SP", "NU", "bias_")
"""Labels (exact, or prefixes ending in a space/underscore) of rates where lower is better: drawn
on the reversed colour map, so a bright cell is a good cell in every column."""
_METADATA = {"png": {"Software": None},
             "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
             "svg": {"Creator": None, "Date": None}}
_RC = {"svg.hashsalt": "chartprobe-report", "svg.fonttype": "path", "pdf.fonttype": 42}
"""Fixed SVG ids; TrueType (not Type 3) fonts in PDFs, which publishers' checkers require."""
_CHAR_EM = 0.6
"""Mean glyph width of DejaVu Sans in ems: how wide a label is before it is drawn."""


@dataclass(frozen=True)
class Panel:
    """One heatmap: ``values[i][j]`` belongs to row ``rows[i]`` and column ``cols[j]`` (None = no value)."""

    title: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]


@contextmanager
def plot_formats(formats: Sequence[str]) -> Iterator[None]:
    """Save every figure drawn inside in ``formats`` (PNG always first; PDF/SVG are vector copies)."""
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"unknown figure format {bad[0]!r} (choose from {', '.join(FORMATS)})")
    token = _FORMATS.set(tuple(dict.fromkeys(["png", *formats])))
    try:
        yield
    finally:
        _FORMATS.reset(token)


def lower_is_better(label: str) -> bool:
    """Whether a column/row label names a rate where lower is better (parse failure, a shortcut's share)."""
    return any(label == k or label.startswith(k if k.endswith(("_", " ")) else k + " ") or
               (len(k) > 3 and label.startswith(k)) for k in LOWER_IS_BETTER)


def _number(v: object) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v):
        return None
    return float(v)


def panel(title: str, data: Data, transpose: bool = False) -> Panel:
    """A panel with one row per outer key (model) and one column per inner key, in first-seen order;
    ``transpose`` puts the inner keys (templates) on the rows and the outer keys on the columns."""
    outer = list(data)
    inner = list(dict.fromkeys(k for per in data.values() for k in per))
    grid = [[_number(data[o].get(i)) for i in inner] for o in outer]
    if transpose:
        return Panel(title, tuple(inner), tuple(outer), tuple(zip(*grid)) if grid else ())
    return Panel(title, tuple(outer), tuple(inner), tuple(map(tuple, grid)))


def chunk(p: Panel, max_rows: int | None = None) -> list[Panel]:
    """``p`` split into panels of near-equal height ("title (1/3)") to sit side by side.

    By default into about sqrt(rows / width) panels, width counted in cells with the row labels,
    so a tall grid (templates x a few models) becomes a near-square block of panels.
    """
    if max_rows is None:
        width = len(p.cols) + _text_in(p.rows, 8) / CELL_IN + 1
        k = max(1, round(math.sqrt(len(p.rows) / width * 4 / 3)))
        max_rows = max(MAX_PANEL_ROWS, math.ceil(len(p.rows) / k))
    k = max(1, math.ceil(len(p.rows) / max_rows))
    if k == 1:
        return [p]
    size = math.ceil(len(p.rows) / k)
    return [Panel(f"{p.title} ({i + 1}/{k})", p.rows[s:s + size], p.cols, p.values[s:s + size])
            for i, s in enumerate(range(0, len(p.rows), size))]


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(_RC)
        yield


def _text_in(labels: Sequence[str], pt: float) -> float:
    return max((len(s) for s in labels), default=0) * pt * _CHAR_EM / 72


def _shrink(n: int) -> float:
    """Size factor per item: 1 up to SUBLINEAR_FROM items, then sqrt(SUBLINEAR_FROM / n)."""
    return min(1.0, math.sqrt(SUBLINEAR_FROM / max(n, 1)))


def _fit(width: float, height: float) -> tuple[float, float, float]:
    """(width, height, font scale): at most MAX_IN per side, aspect at most MAX_ASPECT."""
    scale = min(1.0, MAX_IN / max(width, height))
    width, height = width * scale, height * scale
    width, height = max(width, height / MAX_ASPECT), max(height, width / MAX_ASPECT)
    return width, height, scale


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig, png: Path) -> list[Path]:
    png.parent.mkdir(parents=True, exist_ok=True)
    # Lay out once and freeze: constrained layout would otherwise rerun for every format.
    fig.draw_without_rendering()
    fig.set_layout_engine("none")
    out = []
    for fmt in _FORMATS.get():
        path = png.with_suffix(f".{fmt}")
        fig.savefig(path, format=fmt, dpi=DPI, metadata=_METADATA[fmt])
        out.append(path)
    return out


@dataclass(frozen=True)
class _Fonts:
    tick: float
    cell: float

    @classmethod
    def for_cell(cls, cell_in: float, scale: float = 1.0) -> _Fonts:
        return cls(max(3.0, min(8.0, cell_in * 72 * 0.42) * scale), min(7.5, cell_in * 72 * 0.3) * scale)


def _panel_in(p: Panel, cell: float, f: _Fonts, ylabels: bool) -> tuple[float, float]:
    """Estimated inches of a panel with its labels and title (what the layout packs)."""
    rotate = _text_in(p.cols, f.tick) > cell
    xlab = _text_in(p.cols, f.tick) * 0.72 + 0.1 if rotate else f.tick * 1.8 / 72
    w = len(p.cols) * cell + (_text_in(p.rows, f.tick) + 0.12 if ylabels else 0.05) + 0.1
    w = max(w, _text_in([p.title], f.tick * 1.1) + 0.1)
    return w, len(p.rows) * cell + xlab + f.tick * 2.2 / 72 + 0.05


def _pack(panels: Sequence[Panel], cell: float, f: _Fonts) -> list[list[int]]:
    """Panels in reading order, split into figure rows so the figure is about 4:3."""
    best: tuple[float, list[list[int]]] | None = None
    for n in range(1, len(panels) + 1):
        size = math.ceil(len(panels) / n)
        rows = [list(range(s, min(s + size, len(panels)))) for s in range(0, len(panels), size)]
        w, h = _layout_in(panels, rows, cell, f)
        score = abs(math.log((w / h) / (4 / 3)))
        if best is None or score < best[0] - 1e-9:
            best = (score, rows)
    return best[1] if best else []


def _shows_ylabels(panels: Sequence[Panel], row: list[int], k: int) -> bool:
    return k == 0 or panels[row[k]].rows != panels[row[0]].rows


def _layout_in(panels: Sequence[Panel], rows: list[list[int]], cell: float, f: _Fonts) -> tuple[float, float]:
    sizes = _sizes(panels, rows, cell, f)
    width = max(sum(w for w, _ in s) for s in sizes)
    return width, sum(max(h for _, h in s) for s in sizes) + _TITLE_IN + _BAR_IN


def _sizes(panels: Sequence[Panel], rows: list[list[int]], cell: float, f: _Fonts) -> list[list[tuple[float, float]]]:
    return [[_panel_in(panels[i], cell, f, _shows_ylabels(panels, r, k)) for k, i in enumerate(r)] for r in rows]


_TITLE_IN, _BAR_IN = 0.4, 0.85
"""Inches of the figure title and of the colour bar band under the panels."""


def heatmaps(panels: Sequence[Panel], path: Path, title: str, unit: str, vmin: float = 0.0, vmax: float = 1.0,
             cmap: str = "viridis", fmt: str = "{:.2f}") -> list[Path]:
    """Heatmap small multiples on one colour scale (``unit`` labels the colour bar), cells annotated.

    Panels keep their order, packed into rows of a roughly 4:3 figure; a panel whose row
    labels repeat its left neighbour's shows them once.
    """
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    panels = [p for p in panels if p.rows and p.cols]
    if not panels:
        return []
    rows = _pack(panels, CELL_IN, _Fonts.for_cell(CELL_IN))
    extent = max(max(sum(len(panels[i].cols) for i in r) for r in rows),
                 sum(max(len(panels[i].rows) for i in r) for r in rows))
    cell = CELL_IN * _shrink(extent)
    sizes = _sizes(panels, rows, cell, _Fonts.for_cell(cell))
    widths = [[w for w, _ in s] for s in sizes]
    heights = [max(h for _, h in s) for s in sizes]
    full = max(max(map(sum, widths)), _text_in([title], 11) + 0.4, 3.0)
    width, height, scale = _fit(full, sum(heights) + _TITLE_IN + _BAR_IN)
    f = _Fonts.for_cell(cell, scale)
    colours = colormaps[cmap].with_extremes(bad="#d9d9d9")
    norm = Normalize(vmin, vmax)
    annotate = f.cell >= MIN_CELL_PT and sum(len(p.rows) * len(p.cols) for p in panels) <= MAX_ANNOTATED
    with _style():
        fig = _figure(width, height)
        fig.suptitle(title, fontsize=f.tick * 1.35)
        subs = fig.subfigures(len(rows) + 1, 1, height_ratios=[*heights, _BAR_IN], squeeze=False)[:, 0]
        for sub, r, ws in zip(subs, rows, widths):
            spare = full - sum(ws)  # a short row keeps its cells' size instead of stretching
            ratios = ws + ([spare] if spare > 0.05 else [])
            axes = sub.subplots(1, len(ratios), width_ratios=ratios, squeeze=False)[0]
            for k, i in enumerate(r):
                _draw_panel(axes[k], panels[i], colours, norm, f, fmt, _shows_ylabels(panels, r, k), cell, annotate)
            for ax in axes[len(r):]:
                ax.set_axis_off()
        bar_axes = subs[-1].subplots(1, 3, width_ratios=[1, 1.4, 1])
        for ax in bar_axes[::2]:
            ax.set_axis_off()
        bar = subs[-1].colorbar(ScalarMappable(norm, colours), cax=bar_axes[1], orientation="horizontal")
        flipped = any(lower_is_better(x) for p in panels for x in (*p.rows, *p.cols))
        bar.set_label(unit + ("; ↓ = lower is better, coloured on the reversed scale" if flipped else ""),
                      fontsize=f.tick)
        bar.ax.tick_params(labelsize=f.tick)
        return _save(fig, path)


def _draw_panel(ax, p: Panel, colours, norm, f: _Fonts, fmt: str, ylabels: bool, cell: float,
                annotate: bool) -> None:
    import numpy as np

    grid = np.array([[np.nan if v is None else v for v in row] for row in p.values], dtype=float)
    # A lower-is-better rate (column or row label) is coloured on the reversed scale, its label marked "↓".
    flip = np.zeros(grid.shape, dtype=bool)
    flip[:, [lower_is_better(c) for c in p.cols]] = True
    flip[[lower_is_better(r) for r in p.rows], :] = True
    shown = np.where(flip, norm.vmax + norm.vmin - grid, grid)
    ax.imshow(np.ma.masked_invalid(shown), cmap=colours, norm=norm, aspect="auto", interpolation="nearest")
    cols = [f"{c} ↓" if lower_is_better(c) else c for c in p.cols]
    rows = [f"{r} ↓" if lower_is_better(r) else r for r in p.rows]
    rotate = _text_in(cols, f.tick) > cell
    ax.set_xticks(range(len(cols)), cols, fontsize=f.tick, rotation=45 if rotate else 0,
                  ha="right" if rotate else "center", rotation_mode="anchor")
    ax.set_yticks(range(len(rows)), rows if ylabels else [], fontsize=f.tick)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(p.title, fontsize=f.tick * 1.1)
    if not annotate:  # too small or too many to read: the colour carries the value
        return
    for (i, j), v in np.ndenumerate(grid):
        text = "–" if np.isnan(v) else fmt.format(v)
        dark = not np.isnan(v) and norm(shown[i, j]) < 0.55  # viridis' dark half takes white text
        ax.text(j, i, text, ha="center", va="center", fontsize=f.cell, color="white" if dark else "black")


PERCENT_MARK = "(%)"
"""A metric name ending in this is a percentage: never drawn on a 0-1 scale."""


def overview(headlines: Mapping[str, Data], path: Path) -> list[Path]:
    """Model x capability small multiples, one panel per suite (``{suite: {model: {metric: v}}}``),
    of the 0-1 headline metrics: a percentage (named "... (%)", or any value outside 0-1)
    belongs to its suite's own figure."""
    panels = []
    for suite, per_model in headlines.items():
        p = panel(suite, per_model)
        keep = [j for j, c in enumerate(p.cols) if not c.endswith(PERCENT_MARK)
                and all(row[j] is None or 0 <= row[j] <= 1 for row in p.values)]
        panels.append(Panel(p.title, p.rows, tuple(p.cols[j] for j in keep),
                            tuple(tuple(row[j] for j in keep) for row in p.values)))
    return heatmaps(panels, path, "Headline metrics per model and benchmark", "accuracy / rate (0–1)")
