"""Worker pools started after Vega has drawn: a fork server against spawning, side by side.

    python benchmarks/pool_start.py [--builds 3] [--config bar] [--pairs 3]

A process that has started vl-convert's runtime cannot fork its build workers
(``core/vega/runtime.py``). It used to spawn them: every worker of every build started a bare
interpreter and imported chartprobe, matplotlib and the builder again. It now starts a fork
server once (``release/pool.py``), which imports them once and forks every later pool's workers.
This is what a notebook, the Space or a test worker pays when it draws a style-shift chart and
then builds with ``num_proc=2``.

Each side is a subprocess that draws one Vega chart, then builds one config of the small probes
preset ``--builds`` times with ``num_proc=2``. Sides alternate (spawn, fork server, spawn, ...)
``--pairs`` times. Wall time covers the builds alone. CPU is user + sys of the side's process,
of the workers it reaped and of the fork server with the workers it reaped. The fork server is
not reaped by the process that started it, so a parent's ``wait4`` would miss it; the side reads
``/proc`` before it exits. Both sides write the same release (the content hash is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _cpu_of(pid: int | str) -> float:
    """utime + stime + cutime + cstime of ``pid`` in seconds (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def side(method: str, builds: int, config: str) -> dict:
    """Draw with Vega here, then build ``config`` ``builds`` times with workers started by ``method``."""
    from dataclasses import replace

    from chartprobe.dataset_builders.core.vega import runtime
    from chartprobe.dataset_builders.release import pool
    from chartprobe.dataset_builders.release.hub import build_release
    from chartprobe.dataset_builders.release.preset import load_preset, preset_path

    runtime.vlc()
    pool._start_method = lambda: method  # what the pool picked before ("spawn") or picks now
    small = load_preset(preset_path("probes", "small"))
    one = replace(small, configs={config: small.configs[config]})
    start, cpu0 = time.perf_counter(), _cpu_of("self")
    hashes = set()
    for _ in range(builds):
        with tempfile.TemporaryDirectory() as out:
            hashes.add(build_release("probes", out, one, num_proc=2).content_hash)
    wall = time.perf_counter() - start
    cpu = _cpu_of("self") - cpu0
    if method == "forkserver":
        from multiprocessing import forkserver

        cpu += _cpu_of(forkserver._forkserver._forkserver_pid)  # started by the first build
    return {"method": method, "wall": wall, "cpu": cpu, "hashes": sorted(hashes)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--builds", type=int, default=3, help="builds per side (the fork server is started once a side)")
    p.add_argument("--config", default="bar", help="config of the small probes preset to build (default bar)")
    p.add_argument("--pairs", type=int, default=3, help="spawn / fork-server pairs, alternated")
    p.add_argument("--side", choices=("spawn", "forkserver"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.side:
        print(json.dumps(side(args.side, args.builds, args.config)))
        return
    runs: dict[str, list[dict]] = {"spawn": [], "forkserver": []}
    for _ in range(args.pairs):
        for method, done in runs.items():
            cmd = [sys.executable, __file__, "--side", method, "--builds", str(args.builds), "--config", args.config]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            done.append(json.loads(out.strip().splitlines()[-1]))
    hashes = {h for rs in runs.values() for r in rs for h in r["hashes"]}
    print(f"{args.builds} builds of probes/{args.config} (small, num_proc=2) after a Vega draw, "
          f"{args.pairs} runs a side, medians; content hashes: {', '.join(sorted(hashes))}")
    med = {m: {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu")} for m, rs in runs.items()}
    for m, v in med.items():
        print(f"  {m:<10} wall {v['wall']:6.2f} s   cpu {v['cpu']:6.2f} s")
    print(f"  fork server / spawn: wall {med['forkserver']['wall'] / med['spawn']['wall']:.2f}x, "
          f"cpu {med['forkserver']['cpu'] / med['spawn']['cpu']:.2f}x "
          f"({(med['spawn']['cpu'] - med['forkserver']['cpu']) / args.builds:.2f} CPU-s saved a build)")


if __name__ == "__main__":
    main()
