"""Whole builds, measured side by side: 1 vs 2 processes, 1x/5x/10x scale, and release size.

    python benchmarks/build_scale.py parallel --datasets probes legend --repeat 3
    python benchmarks/build_scale.py scale --dataset probes --factors 1 5 10 [--baseline OLD_CHECKOUT]
    python benchmarks/build_scale.py size RELEASE_DIR [RELEASE_DIR ...]

Every build is a ``chartprobe build`` subprocess into a fresh folder. Wall time, CPU time
(user + sys of the build and the workers it waited for, from ``os.wait4``) and peak RSS (of
the largest process) are read off the process itself.

* ``parallel``: ``--num-proc 1`` and ``--num-proc 2`` builds of each small preset,
  *interleaved* (1, 2, 1, 2, ...), so load that comes and goes hits both; the speed-up is
  the ratio of median walls, CPU beside it (goal >= 1.6x on an idle 2-core machine).
* ``scale``: the small preset with every split count multiplied by each factor, one process:
  time and CPU per row, peak RSS (goal: RSS at 10x within 15% of 1x). With ``--baseline
  TREE`` each factor is also built by another checkout's code, back to back, and the CPU per
  row of the two is compared.
* ``size``: each release's bytes on disk beside what ``datasets``' own parquet writer
  (``Dataset.to_parquet``: image columns PLAIN, one copy per row) writes for the same rows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "chartprobe"]

_BOOT = """
import importlib.util, sys
tree = sys.argv.pop(1)
MAP = {"chartprobe": "chartprobe", "chartprobe.dataset_builders": "dataset_builders",
       "chartprobe.eval_tasks": "eval_tasks", "chartprobe.training": "training"}
class Tree:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name in MAP:
            folder = f"{tree}/{MAP[name]}"
            return importlib.util.spec_from_file_location(name, f"{folder}/__init__.py",
                                                          submodule_search_locations=[folder])
        return None
sys.meta_path.insert(0, Tree)
sys.argv[0] = "chartprobe"
from chartprobe.cli import main
sys.exit(main())
"""
"""Runs ``chartprobe`` from another checkout (``--baseline TREE``, e.g. a ``git worktree`` of an
older commit) with this environment's packages: the same build, old code against new."""


def cli_for(tree: str | None) -> list[str]:
    """The command line of ``chartprobe`` from this install (None) or from checkout ``tree``."""
    return CLI if tree is None else [sys.executable, "-c", _BOOT, str(Path(tree).resolve())]


def run_build(args: list[str], tree: str | None = None) -> dict[str, float]:
    """One build subprocess: wall s, CPU s (tree), peak RSS MiB, and its stdout's row count."""
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([*cli_for(tree), "build", *args, "--out", out, "--quiet"], stdout=subprocess.PIPE, text=True)
        stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if status != 0:
            raise SystemExit(f"build {' '.join(args)} failed (status {status})")
        rows = int(stdout.split("\t")[1].split()[0])
        size = sum(p.stat().st_size for p in Path(out).rglob("*.parquet"))
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024, "rows": rows,
            "mb": size / 1e6}


def scaled_preset(dataset: str, factor: int, folder: Path) -> Path:
    """The bundled small preset of ``dataset`` with every split count times ``factor``, capped at
    the full preset's count; a config the full preset lacks (``real_*``: drawn from a finite set
    of real tables) keeps its small count."""
    import yaml
    from chartprobe.dataset_builders.release.preset import preset_path

    raw = yaml.safe_load(Path(preset_path(dataset, "small")).read_text())
    full = yaml.safe_load(Path(preset_path(dataset, "full")).read_text())["configs"]
    raw["preset"] = f"small-x{factor}"
    for name, config in raw["configs"].items():
        cap = full.get(name, {}).get("splits", {})
        config["splits"] = {s: min(n * factor, cap.get(s, n)) for s, n in config["splits"].items()}
    path = folder / f"{dataset}-x{factor}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path


def cmd_parallel(args: argparse.Namespace) -> None:
    print(f"{'dataset':<10}{'procs':>6}{'wall s (median)':>17}{'CPU s':>8}{'speed-up':>10}{'CPU ratio':>11}")
    for dataset in args.datasets:
        runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
        for _ in range(args.repeat):
            for n in (1, 2):
                runs[n].append(run_build([dataset, "--preset", "small", "--num-proc", str(n)]))
        med = {n: {k: statistics.median(r[k] for r in v) for k in ("wall", "cpu")} for n, v in runs.items()}
        for n in (1, 2):
            extra = (f"{med[1]['wall'] / med[2]['wall']:>10.2f}{med[2]['cpu'] / med[1]['cpu']:>11.2f}"
                     if n == 2 else "")
            print(f"{dataset:<10}{n:>6}{med[n]['wall']:>17.2f}{med[n]['cpu']:>8.2f}{extra}")
        walls = ", ".join(f"{a['wall'] / b['wall']:.2f}" for a, b in zip(runs[1], runs[2], strict=True))
        print(f"{'':<10}per-pair speed-ups: {walls}")


def cmd_scale(args: argparse.Namespace) -> None:
    print(f"{'code':<9}{'preset':<8}{'rows':>7}{'wall s':>8}{'ms/row':>8}{'CPU ms/row':>11}{'peak RSS MiB':>13}"
          f"{'MB':>7}")
    sides = [("this", None)] + ([("baseline", args.baseline)] if args.baseline else [])
    first: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for factor in args.factors:
            preset = str(scaled_preset(args.dataset, factor, Path(tmp)))
            cpu = {}
            for name, tree in sides:  # interleaved: each factor runs both sides back to back
                r = run_build([args.dataset, "--preset", preset, "--num-proc", "1"], tree)
                base = first.setdefault(name, r)
                cpu[name] = r["cpu"] / r["rows"]
                print(f"{name:<9}x{factor:<7}{r['rows']:>7}{r['wall']:>8.1f}{r['wall'] / r['rows'] * 1e3:>8.1f}"
                      f"{cpu[name] * 1e3:>11.1f}{r['rss']:>13.0f}{r['mb']:>7.1f}"
                      f"   RSS vs x{args.factors[0]}: {r['rss'] / base['rss']:.2f}")
            if args.baseline:
                print(f"{'':<17}CPU per row, this vs baseline: {cpu['this'] / cpu['baseline'] - 1:+.0%}")


def cmd_size(args: argparse.Namespace) -> None:
    import glob

    from datasets import load_dataset
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()
    print(f"{'release':<26}{'on disk MB':>11}{'datasets writer MB':>19}{'ratio':>7}")
    for release in args.releases:
        ours = plain = 0
        with tempfile.TemporaryDirectory() as tmp:
            for path in sorted(glob.glob(f"{release}/*/*.parquet")):
                ours += os.path.getsize(path)
                ds = load_dataset("parquet", data_files=path, split="train", cache_dir=tmp)
                ds.to_parquet(f"{tmp}/plain.parquet")
                plain += os.path.getsize(f"{tmp}/plain.parquet")
        print(f"{Path(release).name:<26}{ours / 1e6:>11.1f}{plain / 1e6:>19.1f}{plain / max(ours, 1):>7.2f}")


def main(argv: list[str] | None = None) -> None:
    """Parse the sub-command and run it."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("parallel", help="--num-proc 1 vs 2 on small presets, interleaved")
    p.add_argument("--datasets", nargs="+", default=["probes", "legend"])
    p.add_argument("--repeat", type=int, default=3)
    p.set_defaults(func=cmd_parallel)
    s = sub.add_parser("scale", help="1x/5x/10x of a small preset: time, CPU per row, peak RSS")
    s.add_argument("--dataset", default="probes")
    s.add_argument("--factors", nargs="+", type=int, default=[1, 5, 10])
    s.add_argument("--baseline", metavar="TREE", default=None,
                   help="also build with the code of this checkout (e.g. `git worktree add /tmp/old REV`)")
    s.set_defaults(func=cmd_scale)
    z = sub.add_parser("size", help="release bytes vs datasets' own parquet writer")
    z.add_argument("releases", nargs="+")
    z.set_defaults(func=cmd_size)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
