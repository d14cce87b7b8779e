"""Peak memory of ``chartprobe eval`` over the quick start's task list with the tiny VLM.

Goal (issue 47): <= 1 GB peak RSS with ``--limit 6``. The run is the quick start's own command
(``scripts/quickstart.sh``: every benchmark's umbrella group, two images, 32 new tokens, samples
logged) on the small releases, with a tiny random LLaVA (< 1 MB, ``tests/tiny_vlm.py``), so what
is measured is chartprobe's and lm-eval's overhead, not a model's weights. Peak RSS is the
process's own high-water mark (``os.wait4``'s ``ru_maxrss``); lm-eval runs in that one process.

``--limit 0`` runs every document (the quick start itself), to see how the peak grows with the
number of documents lm-eval holds at once.

Run: ``python benchmarks/eval_memory.py [--releases DIR] [--limit N]`` (default: build the small
releases into a temp folder).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = "chartprobe_smoke,chartprobe,chartprobe_families,chartprobe_judge,chartprobe_legend,chartprobe_legend_studies"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def peak_rss_mb(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit code) of ``cmd``, from ``os.wait4``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode:
        sys.exit(f"eval_memory: {' '.join(cmd[:3])} ... exited {proc.returncode}:\n{err[-3000:]}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start, proc.returncode


def measure(releases: Path, limit: int, tmp: Path) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of the quick start's ``chartprobe eval`` on ``releases`` with the tiny VLM
    (built in ``tmp``), ``--limit limit`` (0: every document)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from tiny_vlm import build_tiny_vlm

    model = build_tiny_vlm(tmp / "tiny-vlm")
    cmd = [sys.executable, "-m", "chartprobe", "eval", "--model", "hf-multimodal",
           "--model_args", f"pretrained={model},max_images=2", "--tasks", TASKS,
           "--gen_kwargs", "max_gen_toks=32", "--batch_size", "8", "--output_path", str(tmp / "eval"),
           "--log_samples", *(["--limit", str(limit)] if limit > 0 else [])]
    env = {**os.environ, **OFFLINE, "CHARTPROBE_DATA": str(releases), "HF_DATASETS_CACHE": str(tmp / "cache")}
    peak, seconds, _ = peak_rss_mb(cmd, env)
    return peak, seconds


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--releases", type=Path, default=None,
                   help="folder holding the chartprobe-* small releases (default: build them in a temp folder)")
    p.add_argument("--limit", type=int, default=6, help="documents per task (0: every document; default 6)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cp-eval-memory-") as tmp:
        tmp = Path(tmp)
        releases = args.releases
        if releases is None:
            from chartprobe.dataset_builders.release.dataset import DATASETS
            from chartprobe.dataset_builders.release.hub import build_release

            releases = tmp / "hub"
            for name in DATASETS.names():
                build_release(name, releases, "small", num_proc=2)
        peak, seconds = measure(releases, args.limit, tmp)
    limit = f"--limit {args.limit}" if args.limit > 0 else "every document"
    print(f"chartprobe eval, quick start task list, tiny VLM, {limit}: peak RSS {peak:,.0f} MB "
          f"(goal <= 1,024 MB at --limit 6), {seconds:.0f} s")


if __name__ == "__main__":
    main()
