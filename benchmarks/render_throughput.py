"""Render throughput: our render() against bare matplotlib, and 1 vs N worker processes.

    python benchmarks/render_throughput.py --n 60

(a) "bare": the same figure built by the same kind code (``build_scene`` inside
    ``theme_context``), then a plain ``fig.savefig(buf, format="png")``: no box measurement.
(b) ``render()``: one draw, every box measured, buffer encoded by Pillow.
(c) ``render()`` over the specs with ``ProcessPoolExecutor(workers)`` vs in one process.

Both sides are warmed up first (imports, font cache, worker start-up), so the numbers are
steady-state throughput, which is what a long dataset build sees. Goals: ours/bare >= 0.8
and a speed-up >= 1.8 on 2 cores.
"""

from __future__ import annotations

import argparse
import io
import os
import time
from concurrent.futures import ProcessPoolExecutor

from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import build_scene, render, sample_spec, theme_context
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec


def sample_specs(n: int, seed: int) -> list[ChartSpec]:
    """``n`` specs cycling through every kind, with value labels on every other chart."""
    kinds = CHARTS.names()
    return [sample_spec(kinds[i % len(kinds)], rng_for(seed, "bench", i),
                        SampleConfig(value_labels=bool(i % 2))) for i in range(n)]


def bare_png(spec: ChartSpec) -> bytes:
    """Same figure, drawn by savefig, no measurement."""
    with theme_context(spec):
        scene = build_scene(spec)
        buf = io.BytesIO()
        scene.fig.savefig(buf, format="png")
    return buf.getvalue()


def _render_png(spec: ChartSpec) -> int:
    return len(render(spec).png)


def _timed(fn, specs: list[ChartSpec], repeat: int) -> float:
    """Best charts/s over ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for spec in specs:
            fn(spec)
        best = min(best, time.perf_counter() - t0)
    return len(specs) / best


def _pool_rate(specs: list[ChartSpec], workers: int, repeat: int) -> float:
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_render_png, specs[: workers * 2], chunksize=1))  # warm every worker
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            # chunksize=1: a chart costs ~0.1 s, far more than the IPC, and big chunks leave
            # one worker idle at the end.
            list(pool.map(_render_png, specs, chunksize=1))
            best = min(best, time.perf_counter() - t0)
    return len(specs) / best


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run the three measurements, print a table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=60, help="number of charts (default 60)")
    ap.add_argument("--workers", type=int, default=2, help="processes for (c) (default 2)")
    ap.add_argument("--repeat", type=int, default=2, help="passes per measurement; best is kept")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    specs = sample_specs(args.n, args.seed)
    for spec in specs[: len(CHARTS)]:  # warm-up: imports, font cache, style library
        bare_png(spec)
        render(spec)
    bare = _timed(bare_png, specs, args.repeat)
    ours = _timed(_render_png, specs, args.repeat)
    single = _pool_rate(specs, 1, args.repeat)
    multi = _pool_rate(specs, args.workers, args.repeat)

    rows = [("bare matplotlib savefig", f"{bare:.1f}", ""),
            ("render() (+ boxes)", f"{ours:.1f}", f"ours/bare = {ours / bare:.2f}  (goal >= 0.8)"),
            ("render() 1 process", f"{single:.1f}", ""),
            (f"render() {args.workers} processes", f"{multi:.1f}",
             f"speed-up = {multi / single:.2f}  (goal >= 1.8; {os.cpu_count()} CPUs)")]
    print(f"{args.n} charts, {len(CHARTS)} kinds")
    print(f"{'measurement':<28}{'charts/s':>10}  note")
    for name, rate, note in rows:
        print(f"{name:<28}{rate:>10}  {note}")


if __name__ == "__main__":
    main()
