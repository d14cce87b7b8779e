"""Render throughput: our ``render()`` against a true bare-matplotlib baseline, side by side.

    python benchmarks/render_throughput.py --n 48 --repeat 5

(a) **bare**: a plain ``matplotlib.figure.Figure`` on an Agg canvas draws the same data with
    the one obvious call per kind (``ax.bar`` per series, ``ax.plot``, ``ax.scatter``,
    ``ax.pie``), default style, a legend and a title, then ``savefig`` to PNG. None of our
    code runs: no scene builder, no theme, no layout engine, no box measurement.
(b) **ours**: ``render()``: the spec's theme, constrained layout, every element's box
    measured, ticks read, PNG encoded.

Only the kinds with one obvious bare call are sampled (bar, grouped_bar, hbar, line, area,
scatter, pie), so (a) and (b) draw the same charts. The passes are *interleaved* (a, b, a, b,
...) after a warm-up of both, so a machine that gets slower or faster mid-run moves both
sides alike; each side reports its median wall and CPU (``time.process_time``) per chart, and
the ratio is of medians. The earlier version's "bare" was our own scene builder plus savefig,
and its passes were not interleaved (ratios swung 0.86-1.58 across runs).
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
    if spec.kind == "pie":
        ax.pie(data.series[0].values, labels=data.categories, colors=spec.encodings[0].colors)
    else:
        width = 0.8 / len(data.series)
        for i, s in enumerate(data.series):
            xs = data.x_values or x
            if spec.kind in ("bar", "grouped_bar"):
                ax.bar([p + i * width for p in x], s.values, width, label=s.name, color=colors[i])
            elif spec.kind == "hbar":
                ax.barh([p + i * width for p in x], s.values, width, label=s.name, color=colors[i])
            elif spec.kind == "scatter":
                ax.scatter(xs, s.values, label=s.name, color=colors[i])
            elif spec.kind == "area":
                ax.fill_between(xs, s.values, alpha=0.5, label=s.name, color=colors[i])
            else:
                ax.plot(xs, s.values, label=s.name, color=colors[i])
        if data.x_values is None:
            (ax.set_yticks if spec.kind == "hbar" else ax.set_xticks)(x, data.categories)
        ax.legend()
    if st.title:
        ax.set_title(st.title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def ours_png(spec: ChartSpec) -> bytes:
    """``render()``: theme, layout, boxes, ticks, PNG."""
    return render(spec).png


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
        bare_png(spec)
        ours_png(spec)
    runs: dict[str, list[tuple[float, float]]] = {"bare": [], "ours": []}
    for _ in range(args.repeat):
        runs["bare"].append(_pass(bare_png, specs))
        runs["ours"].append(_pass(ours_png, specs))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
    print(f"{args.n} charts x {args.repeat} interleaved passes, kinds: {', '.join(KINDS)}")
    print(f"{'side':<34}{'wall ms/chart':>14}{'CPU ms/chart':>14}")
    for name, label in (("bare", "bare matplotlib (Figure + Agg)"), ("ours", "render() (theme, layout, boxes)")):
        print(f"{label:<34}{med[name][0] * 1e3:>14.1f}{med[name][1] * 1e3:>14.1f}")
    print(f"ours/bare: wall {med['ours'][0] / med['bare'][0]:.2f}x, CPU {med['ours'][1] / med['bare'][1]:.2f}x "
          f"(per-pass wall ratios: "
          f"{', '.join(f'{o[0] / b[0]:.2f}' for b, o in zip(runs['bare'], runs['ours'], strict=True))})")


if __name__ == "__main__":
    main()
