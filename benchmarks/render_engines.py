"""Render cost per chart: the Vega engine against the matplotlib engine, side by side, per chart kind.

    python benchmarks/render_engines.py --n 5 --repeat 3

Both engines draw the *same* specs: ``--n`` specs of every registered chart kind
(``CHARTS.names()``), sampled from ``--seed`` and passed through ``both_engines`` (hatch patterns
stripped, which Vega cannot draw), each drawn with ``render_spec(spec, engine=...)``: the whole
public path of each engine (validation, drawing, element boxes, PNG bytes).

- **Warm-up excluded**: one spec of every kind is drawn by both engines before timing (imports,
  font caches, matplotlib's style library, vl-convert starting its JavaScript runtime).
- **Interleaved**: every round draws each kind's specs with one engine then the other, the order
  alternating between rounds, so a machine that gets slower or faster mid-run moves both sides
  alike. Each cell is the median over rounds of the mean wall time per chart.
- **No memo across rounds**: the Vega engine memoises its Vega-Lite -> Vega compilation per spec;
  the memo is cleared before every Vega pass, so each round pays what a build drawing each spec
  once pays.
- **Ratios, not absolutes**: the vega/matplotlib ratio is the number to read; absolute
  milliseconds depend on the machine and its load. The overall row is the mean over all charts
  (every kind weighted alike), its ratio a ratio of those means; the per-round overall ratios are
  printed to show the spread. CPU time (``time.process_time``, all threads) is reported overall.

Needs the vega extra (``pip install chartprobe[vega]``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.render import sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec
from chartprobe.dataset_builders.core.specs import render_spec
from chartprobe.dataset_builders.core.style_axis import both_engines

ENGINES = ("matplotlib", "vega")


def sample_specs(kinds: list[str], n: int, seed: int) -> dict[str, list[ChartSpec]]:
    """``n`` specs of each kind, hatch-free (``both_engines``), value labels on every other chart."""
    return {kind: [both_engines(sample_spec(kind, rng_for(seed, "engines", kind, i),
                                            SampleConfig(value_labels=bool(i % 2))))
                   for i in range(n)] for kind in kinds}


def _forget_compiled() -> None:
    """Clear the Vega engine's per-spec compile memo, so a repeated spec costs what a new one does."""
    from chartprobe.dataset_builders.core.vega import engine

    engine._compile.cache_clear()


def _pass(engine: str, specs: list[ChartSpec]) -> tuple[float, float]:
    """Mean (wall, CPU) seconds per chart of drawing ``specs`` with ``engine``."""
    if engine == "vega":
        _forget_compiled()
    wall, cpu = time.perf_counter(), time.process_time()
    for spec in specs:
        render_spec(spec, engine=engine)
    return (time.perf_counter() - wall) / len(specs), (time.process_time() - cpu) / len(specs)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, warm up, run interleaved rounds, print ms/chart per kind and engine and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=5, help="specs of each chart kind (default 5)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="interleaved rounds; each draws every spec once per engine (default 3)")
    ap.add_argument("--seed", type=int, default=0, help="seed the specs are sampled from (default 0)")
    ap.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                    help="chart kinds to measure (default: every registered kind)")
    args = ap.parse_args(argv)

    from chartprobe.dataset_builders.core.vega import engine_versions

    kinds = list(args.kinds or CHARTS.names())
    specs = sample_specs(kinds, args.n, args.seed)
    for kind in kinds:  # warm-up, not timed
        for engine in ENGINES:
            render_spec(specs[kind][0], engine=engine)

    # runs[engine][kind] -> one (wall, cpu) per round
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {e: {k: [] for k in kinds} for e in ENGINES}
    for r in range(args.repeat):
        order = ENGINES if r % 2 == 0 else ENGINES[::-1]
        for kind in kinds:
            for engine in order:
                runs[engine][kind].append(_pass(engine, specs[kind]))

    import matplotlib

    v = engine_versions()
    print(f"engines: matplotlib {matplotlib.__version__}; vl-convert {v['vl_convert']}, Vega {v['vega']}, "
          f"Vega-Lite {v['vega_lite']}, vega-themes {v['vega_themes']}")
    print(f"{args.n} specs x {len(kinds)} kinds x {args.repeat} interleaved rounds, seed {args.seed}, "
          "hatches stripped (both_engines); median over rounds of wall ms/chart")
    print(f"{'kind':<14}{'matplotlib ms':>15}{'vega ms':>10}{'vega/mpl':>10}")
    med = {e: {k: statistics.median(w for w, _ in runs[e][k]) for k in kinds} for e in ENGINES}
    for kind in kinds:
        m, g = med["matplotlib"][kind], med["vega"][kind]
        print(f"{kind:<14}{m * 1e3:>15.1f}{g * 1e3:>10.1f}{g / m:>9.2f}x")
    overall = {e: statistics.fmean(med[e].values()) for e in ENGINES}
    print(f"{'overall':<14}{overall['matplotlib'] * 1e3:>15.1f}{overall['vega'] * 1e3:>10.1f}"
          f"{overall['vega'] / overall['matplotlib']:>9.2f}x")

    def round_mean(engine: str, r: int, part: int) -> float:
        return statistics.fmean(runs[engine][k][r][part] for k in kinds)

    per_round = [round_mean("vega", r, 0) / round_mean("matplotlib", r, 0) for r in range(args.repeat)]
    cpu = {e: statistics.median(round_mean(e, r, 1) for r in range(args.repeat)) for e in ENGINES}
    print(f"vega/matplotlib per round (wall): {', '.join(f'{x:.2f}' for x in per_round)}; "
          f"CPU ms/chart: matplotlib {cpu['matplotlib'] * 1e3:.1f}, vega {cpu['vega'] * 1e3:.1f} "
          f"({cpu['vega'] / cpu['matplotlib']:.2f}x)")


if __name__ == "__main__":
    main()
