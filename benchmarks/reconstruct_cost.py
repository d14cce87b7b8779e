"""What ``chartprobe reconstruct`` costs per chart, measured against the scripted stand-in model.

    python benchmarks/reconstruct_cost.py [--repeat 5] [--concurrency 2]

Two parts, each printed as a table:

* ``pipeline``: the fixture (``tests/fixtures/reconstruct/``, 24 charts) through the real CLI against
  the loopback stand-in (``tests/reconstruct_standin.py``): requests and tokens per stage and per
  chart (the stand-in's token counts are ``len(text) // 4`` plus 85 per image, a stand-in for a real
  tokenizer), wall time per chart on a fresh work folder, then again on its cache (zero model calls).
  The stand-in answers at once, so the wall time is the pipeline's own (sandbox jobs, export,
  release build); a real endpoint adds its latency per request.
* ``sandbox``: one ``make_figure`` render job, run by each available mechanism and by a bare
  ``python`` subprocess (no sandbox, same runner) *interleaved*, ``--repeat`` times each: the
  sandbox's overhead is the ratio of medians.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "reconstruct"
sys.path.insert(0, str(ROOT / "tests"))

RENDER = '''import matplotlib.pyplot as plt


def make_figure(data, savepath=None):
    fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
    ax.bar(data["categories"], data["values"], color="#4c72b0")
    ax.set_title(data["title"])
    if savepath:
        fig.savefig(savepath)
'''
DATA = {"title": "Sales", "categories": ["a", "b", "c", "d"], "values": [3, 5, 2, 7]}


def _pipeline(concurrency: int) -> None:
    from reconstruct_standin import scripted_model

    from chartprobe.cli import main

    charts = sum(1 for line in (FIXTURE / "metadata.jsonl").read_text().splitlines() if line.strip())
    with tempfile.TemporaryDirectory() as tmp, scripted_model(FIXTURE / "responses.json") as server:
        work, out = Path(tmp) / "work", Path(tmp) / "hub"
        args = ["reconstruct", "--source", str(FIXTURE), "--license", "cc0-1.0", "--model", "standin-vlm",
                "--base-url", server.base_url, "--work", str(work), "--out", str(out), "--concurrency",
                str(concurrency), "--quiet"]
        walls = []
        for extra in ([], ["--overwrite"]):
            start = time.perf_counter()
            assert main(args + extra) == 0
            walls.append(time.perf_counter() - start)
        manifest = json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())
        runs = [json.loads(x) for x in (work / "runs.jsonl").read_text().splitlines()]
    usage = manifest["usage"]
    print(f"pipeline: {charts} fixture charts, concurrency {concurrency}; "
          f"counts {manifest['counts']}")
    print("| stage | requests | per chart | prompt tokens / chart | completion tokens / chart |")
    print("|---|---|---|---|---|")
    total = {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}
    for stage, u in usage.items():
        for k in total:
            total[k] += u[k]
        print(f"| {stage} | {u['requests']} | {u['requests'] / charts:.2f} | {u['prompt_tokens'] / charts:.0f} | "
              f"{u['completion_tokens'] / charts:.0f} |")
    print(f"| all | {total['requests']} | {total['requests'] / charts:.2f} | {total['prompt_tokens'] / charts:.0f} | "
          f"{total['completion_tokens'] / charts:.0f} |")
    print(f"wall per chart: fresh {walls[0] / charts:.2f} s ({runs[0]['calls']} model calls), "
          f"cached {walls[1] / charts:.2f} s ({runs[1]['calls']} model calls, {runs[1]['cached']} from cache); "
          f"same content hash: {runs[0]['content_hash'] == runs[1]['content_hash']}")


def _bare(code: str) -> float:
    """The same runner on the same job in a plain subprocess: no namespaces, no rlimits."""
    from chartprobe.dataset_builders.families.reconstruct.sandbox import jobs

    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        # the runner writes its results to a descriptor the host opened (as run_calls does)
        fd = os.open(scratch / "results.json", os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        job = {"calls": [{"code": code, "function": "make_figure", "args": [DATA], "savepath": True}], "warm": [],
               "result_fd": fd}
        (scratch / "job.json").write_text(json.dumps(job))
        start = time.perf_counter()
        try:
            subprocess.run([sys.executable, "-s", "-B", str(jobs.RUNNER), str(scratch)], check=True, pass_fds=(fd,),
                           env={"MPLBACKEND": "Agg", "MPLCONFIGDIR": str(jobs.font_cache()), "PATH": "/usr/bin:/bin"})
        finally:
            os.close(fd)
        took = time.perf_counter() - start
        assert (scratch / "out_0.png").is_file()
    return took


def _sandbox(repeat: int) -> None:
    from chartprobe.dataset_builders.families.reconstruct.sandbox import Call, mechanisms, run_calls

    found = mechanisms()
    times: dict[str, list[float]] = {"bare python": [], **{m: [] for m in found}}
    _bare(RENDER)  # warm the page cache for both sides
    for _ in range(repeat):
        times["bare python"].append(_bare(RENDER))
        for m in found:
            start = time.perf_counter()
            job = run_calls([Call(RENDER, "make_figure", (DATA,), savepath=True)], mechanism=m)
            times[m].append(time.perf_counter() - start)
            assert job.status == "ok" and job.results[0].png, job
    base = statistics.median(times["bare python"])
    print(f"sandbox: one make_figure render job, median of {repeat}, interleaved")
    print("| runner | median s | ratio to bare python |")
    print("|---|---|---|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts):.3f} | {statistics.median(ts) / base:.2f}x |")


def main() -> None:
    """Parse the flags and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="render jobs per runner (sandbox table)")
    parser.add_argument("--concurrency", type=int, default=2, help="charts in flight (pipeline table)")
    args = parser.parse_args()
    _pipeline(args.concurrency)
    _sandbox(args.repeat)


if __name__ == "__main__":
    main()
