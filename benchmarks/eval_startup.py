"""Wall time of one small ``chartprobe eval`` with lm-eval's index of only our tasks, against the full index.

lm-eval's command line indexes every built-in task (about 14,700 names) on each start; a run that asks
only for chartprobe's tasks now indexes only ours (``eval_tasks/harness/own_index.py``). Both commands
are the same ``chartprobe eval`` of a tiny random LLaVA (``tests/tiny_vlm.py``) on one task with
``--limit 1``; the baseline forces the full index. They run in turn (A B A B ...), so the ratio of the
medians holds on a machine whose speed drifts.

Run: ``python benchmarks/eval_startup.py [--runs 5] [--releases DIR]`` (default: build the small probes
release into a temp folder).
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

ROOT = Path(__file__).resolve().parents[1]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}
RUN = ("import sys\n"
       "from chartprobe.eval_tasks.harness import own_index\n"
       "if sys.argv[1] == 'full':\n"
       "    own_index.asks_only_for = lambda argv, names: False  # the baseline: every built-in task indexed\n"
       "from chartprobe.eval_tasks.harness.runner import run_eval\n"
       "sys.exit(run_eval(sys.argv[2:]))\n")


def timed(mode: str, argv: list[str], env: dict[str, str]) -> float:
    """Seconds of one run in ``mode`` (``own`` or ``full``); exits with the tail of stderr on failure."""
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", RUN, mode, *argv], env=env, capture_output=True, text=True,
                         check=False)
    if run.returncode:
        sys.exit(f"eval_startup: the {mode} run exited {run.returncode}:\n{run.stderr[-3000:]}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--releases", type=Path, help="folder holding chartprobe-probes (default: build it)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from tiny_vlm import build_tiny_vlm

    with tempfile.TemporaryDirectory() as tmp:
        releases = args.releases
        if releases is None:
            from chartprobe.dataset_builders.release.hub import build_release

            releases = Path(tmp) / "releases"
            build_release("probes", releases, "small", num_proc=2)
        model = build_tiny_vlm(Path(tmp) / "tiny-vlm")
        env = {**os.environ, **OFFLINE, "CHARTPROBE_DATA": str(releases), "HF_DATASETS_CACHE": f"{tmp}/cache"}
        argv = ["--model", "hf-multimodal", "--model_args", f"pretrained={model},dtype=float32", "--device", "cpu",
                "--tasks", "chartprobe_probes_bar_perception", "--limit", "1", "--gen_kwargs", "max_gen_toks=2"]
        timed("own", argv, env)  # warm-up: the datasets cache and the OS file cache
        times = {"own": [], "full": []}
        for _ in range(args.runs):
            for mode, seconds in times.items():
                seconds.append(timed(mode, argv, env))
    own, full = (statistics.median(times[m]) for m in ("own", "full"))
    print(f"chartprobe eval, one task, --limit 1, tiny LLaVA, {args.runs} runs each (median, s)")
    print(f"  our tasks indexed only   {own:6.1f}   (min {min(times['own']):.1f}, max {max(times['own']):.1f})")
    print(f"  every built-in task too  {full:6.1f}   (min {min(times['full']):.1f}, max {max(times['full']):.1f})")
    print(f"  ratio own/full           {own / full:6.2f}x")


if __name__ == "__main__":
    main()
