"""Render throughput: our ``render()`` against a true bare-matplotlib baseline, side by side.

    python benchmarks/render_throughput.py --n 56 --repeat 7

(a) **bare**: a plain ``matplotlib.figure.Figure`` on an Agg canvas draws the same data with
    the one obvious call per kind (``ax.bar`` per series, ``ax.plot``, ``ax.scatter``,
    ``ax.pie``), default style, a legend, a title and, where the spec prints values, the
    values (``ax.bar_label``, one ``ax.annotate`` per point, ``autopct``), then ``savefig`` to
    PNG. None of our code runs: no scene builder, no theme, no layout, no box measurement.
(b) **ours**: ``render()``: the spec's theme, margins fitted to its text, every element's box
    measured, ticks read, PNG encoded.
(c) **ours, constrained layout**: ``render(layout="constrained")``, every chart laid out by
    matplotlib's constrained layout: how every release before 0.2.0 was drawn (the same pixels).

Only the kinds with one obvious bare call are sampled (bar, grouped_bar, hbar, line, area,
scatter, pie), so the sides draw the same charts. The passes are *interleaved* (a, b, c, a, b,
c, ...) after a warm-up of each, so a machine that gets slower or faster mid-run moves every
side alike; each side reports its median wall and CPU (``time.process_time``) per chart, and
the ratios are of medians.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec

KINDS = ("bar", "grouped_bar", "hbar", "line", "area", "scatter", "pie")


def sample_specs(n: int, seed: int) -> list[ChartSpec]:
    """``n`` specs cycling through :data:`KINDS`, value labels on every other chart."""
    return [sample_spec(KINDS[i % len(KINDS)], rng_for(seed, "bench", i),
                        SampleConfig(value_labels=bool(i % 2))) for i in range(n)]


def bare_png(spec: ChartSpec) -> bytes:
    """The same data drawn by plain matplotlib calls on a bare Figure + Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    st, data = spec.style, spec.data
    fig = Figure(figsize=(st.width, st.height), dpi=st.dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    x = list(range(len(data.categories)))
    colors = [e.color for e in spec.encodings]
    values = st.value_labels
    if spec.kind == "pie":
        ax.pie(data.series[0].values, labels=data.categories, colors=spec.encodings[0].colors,
               autopct="%.0f" if values else None)
    else:
        width = 0.8 / len(data.series)
        for i, s in enumerate(data.series):
            xs = data.x_values or x
            if spec.kind in ("bar", "grouped_bar"):
                bars = ax.bar([p + i * width for p in x], s.values, width, label=s.name, color=colors[i])
            elif spec.kind == "hbar":
                bars = ax.barh([p + i * width for p in x], s.values, width, label=s.name, color=colors[i])
            elif spec.kind == "scatter":
                bars = ax.scatter(xs, s.values, label=s.name, color=colors[i])
            elif spec.kind == "area":
                bars = ax.fill_between(xs, s.values, alpha=0.5, label=s.name, color=colors[i])
            else:
                bars = ax.plot(xs, s.values, label=s.name, color=colors[i])
            if values and spec.kind in ("bar", "grouped_bar", "hbar"):
                ax.bar_label(bars)
            elif values:
                for px, v in zip(xs, s.values):
                    ax.annotate(f"{v:g}", (px, v), xytext=(0, 4), textcoords="offset points", ha="center")
        if data.x_values is None:
            (ax.set_yticks if spec.kind == "hbar" else ax.set_xticks)(x, data.categories)
        ax.legend()
    if st.title:
        ax.set_title(st.title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def ours_png(spec: ChartSpec) -> bytes:
    """``render()``: theme, fitted margins, boxes, ticks, PNG."""
    return render(spec).png


def constrained_png(spec: ChartSpec) -> bytes:
    """``render(layout="constrained")``: every chart through constrained layout (before 0.2.0)."""
    return render(spec, layout="constrained").png


SIDES = {"bare": ("bare matplotlib (Figure + Agg)", bare_png),
         "ours": ("render() (theme, fitted margins)", ours_png),
         "constrained": ("render(layout='constrained')", constrained_png)}


def _pass(fn, specs: list[ChartSpec]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for spec in specs:
        fn(spec)
    return (time.perf_counter() - wall) / len(specs), (time.process_time() - cpu) / len(specs)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run interleaved passes, print per-chart wall and CPU and their ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=42, help="charts per pass (default 42: 6 of each kind)")
    ap.add_argument("--repeat", type=int, default=5, help="interleaved passes per side (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    specs = sample_specs(args.n, args.seed)
    for spec in specs[: len(KINDS)]:  # warm-up: imports, font cache, style library
        for _, fn in SIDES.values():
            fn(spec)
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in SIDES}
    for _ in range(args.repeat):
        for name, (_, fn) in SIDES.items():
            runs[name].append(_pass(fn, specs))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
    print(f"{args.n} charts x {args.repeat} interleaved passes, kinds: {', '.join(KINDS)}")
    print(f"{'side':<34}{'wall ms/chart':>14}{'CPU ms/chart':>14}")
    for name, (label, _) in SIDES.items():
        print(f"{label:<34}{med[name][0] * 1e3:>14.1f}{med[name][1] * 1e3:>14.1f}")
    for name, base in (("ours", "bare"), ("constrained", "bare"), ("ours", "constrained")):
        per_pass = ", ".join(f"{o[0] / b[0]:.2f}" for b, o in zip(runs[base], runs[name], strict=True))
        print(f"{name}/{base}: wall {med[name][0] / med[base][0]:.2f}x, CPU {med[name][1] / med[base][1]:.2f}x "
              f"(per-pass wall ratios: {per_pass})")

if __name__ == "__main__":
    main()
