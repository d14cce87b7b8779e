"""``chartprobe score`` and ``chartprobe report`` at scale: time and peak memory on 1M records.

Goals (issue #18): ``score`` over 1M records in <= 30 s with peak RSS <= 500 MB, flat in the
number of records; ``report`` on 1M scored records in <= 30 s (issue 47: <= 10 s).

``score``: a probes release (built here at ``--preset``, default small, unless ``--releases``
names a folder holding ``chartprobe-probes/``) is answered by as many models as it takes to
reach the record count, each model's answers drawn from its own RNG (gold, gold in a sentence,
a hedge, a wrong option, a wrong number), written as lm-eval ``--log_samples`` files. The
scorer runs as a subprocess with ``--num-proc`` workers (default: one per CPU) on the full set and
on a tenth of it, side by side: flat memory shows as a peak-RSS ratio near 1 while records grow
10x. Peak RSS is the sum over the scorer's process tree (parent and workers), sampled from /proc.
Short answers repeat across models, so ``score``'s memo of responses already scored hits often;
``--unique-answers`` gives every response its own reasoning line, the worst case (no hits).

``report``: synthesizes a results file with N scored probe records spread over two models,
every task, template and skill of the probes suite, then times loading + summarizing + plotting
+ writing the report.

Run: ``python benchmarks/report_scale.py [--records N] [--releases DIR] [--only score|report]
[--num-proc N] [--unique-answers]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from chartprobe.eval_tasks.rescoring.results import FORMAT, to_columns
from chartprobe.eval_tasks.suites._task_index import task_index

SKILL_TEMPLATES = {"perception": ["P-COUNT-BARS", "P-HEIGHT-2X", "P-TREND-PATTERN"],
                   "grounding": ["G-VT-TALLEST", "G-TV-VALUE-B", "G-BBOX-ELEMENT"],
                   "reasoning": ["R-ARITH-TOTAL", "R-RANK-TOP3", "R-ARITH-MEAN"]}
STAMP = "2026-01-01T00-00-00.000000"


def synthetic_records(n: int, seed: int = 0) -> list[dict]:
    """``n`` scored probe records with plausible fields, tasks and accuracies."""
    rng = np.random.default_rng(seed)
    # the probe bank's per-skill tasks and the CR sets (the opt-in style and real tasks mix skills)
    tasks = [t for t in task_index().values() if t.release == "probes" and t.split == "test"
             and (t.config.startswith("cr_") or "skill" in (t.where or {}))]
    pick = rng.integers(len(tasks), size=n)
    correct = rng.random(n) < 0.6
    tpl = rng.integers(3, size=n)
    out = []
    for i in range(n):
        t = tasks[int(pick[i])]
        held = t.config.startswith("cr_")
        skill = "complex" if held else t.where["skill"]
        rec = {"id": f"{t.config}-{i}", "chart_id": f"{t.config}-{i // 9}", "domain": t.config.removeprefix("cr_").removeprefix("ood_"),
               "template_id": f"CR-{int(tpl[i])}" if held else SKILL_TEMPLATES[skill][int(tpl[i])],
               "skill": skill, "answer_type": "number", "score": float(correct[i]), "correct": bool(correct[i]),
               "parse_failed": False, "accuracy": float(correct[i]), "paper_accuracy": float(correct[i]),
               "task": t.task, "doc_id": i, "row_id": f"{t.config}-{i}"}
        if held:
            rec["fuzzy"] = float(correct[i])
        out.append(rec)
    return out


def bench_report(n: int, num_proc: int = 1) -> float:
    """Seconds ``build_report`` takes on ``n`` scored records (two models), with ``num_proc`` worker
    processes; beside it, one process on the same file (the two reports must be byte-identical)."""
    from chartprobe.eval_tasks.report.build import build_report

    with tempfile.TemporaryDirectory(prefix="cp-report-scale-") as tmp:
        half = n // 2
        recs = synthetic_records(n)
        doc = {"format": FORMAT, "skipped_tasks": {},
               "models": {f"model-{k}": {"sources": [], "tasks": {}, "suites": {},
                                         "records": {"probes": to_columns(part)}}
                          for k, part in enumerate((recs[:half], recs[half:]))}}
        path = Path(tmp) / "results.json"
        path.write_text(json.dumps(doc))
        del recs, doc
        times = {}
        for procs in dict.fromkeys((num_proc, 1)):
            start = time.perf_counter()
            build_report([path], Path(tmp) / f"report-{procs}", num_proc=procs)
            times[procs] = time.perf_counter() - start
            print(f"report on {n:,} scored records, --num-proc {procs}: {times[procs]:.1f} s (goal <= 10 s at 1M)")
        if len(times) > 1:
            same = all((Path(tmp) / f"report-{num_proc}" / f).read_bytes() == (Path(tmp) / "report-1" / f).read_bytes()
                       for f in ("report.md", "report.json"))
            print(f"--num-proc {num_proc} / 1: {times[num_proc] / times[1]:.2f}x wall; report.md and report.json "
                  f"{'byte-identical' if same else 'DIFFER'}")
    return times[num_proc]


def _answers(docs: list[dict], rng: np.random.Generator, unique: str | None = None) -> list[str]:
    """One model's responses: mostly right, some wrong, some in sentences or hedged, as VLMs answer.

    ``unique`` (a model tag) opens every response with a reasoning line of its own, so no two
    responses in the run are the same text: the worst case for ``score``'s memo of responses
    already scored, which real short answers ("12", "Yes") hit often and chain-of-thought never.
    """
    out = []
    for i, (d, u) in enumerate(zip(docs, rng.random(len(docs)))):
        if unique is not None:
            out.append(f"Reading the chart ({unique}, item {i}) mark by mark.\n")
        else:
            out.append("")
        gold = str(d.get("answer", ""))
        options = [str(o) for o in (d.get("options") or []) if str(o) != gold]
        if u < 0.45:
            out[-1] += gold
        elif u < 0.65:
            out[-1] += f"Looking at the chart, the answer is {gold}."
        elif u < 0.72:
            out[-1] += f"<think>The marks suggest {gold}.</think> It might be {gold}, but I am not certain."
        elif options:
            out[-1] += options[int(u * 1000) % len(options)]
        else:
            out[-1] += str(int(u * 97))
    return out


def write_model_samples(releases: Path, out: Path, records: int, unique: bool = False) -> int:
    """lm-eval samples of enough models over every probes task to reach ``records``; returns the count."""
    from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
    from chartprobe.eval_tasks.rescoring.predictions import write_samples

    gold = ReleaseGold(releases)
    tasks = [(t.task, list(gold.documents(t).values())) for t in task_index().values() if t.release == "probes"]
    per_model = sum(len(docs) for _, docs in tasks)
    written = 0
    for m in range(-(-records // per_model)):
        rng = np.random.default_rng([18, m])
        for task, docs in tasks:
            write_samples(out / f"model-{m:05d}", task, docs,
                          _answers(docs, rng, f"model {m} {task}" if unique else None), STAMP)
        written += per_model
    return written


def _tree_rss_mb(pid: int) -> float:
    """RSS of ``pid`` and every process below it, in MB (Linux /proc; 0 once it is gone)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        child = int(stat.parent.name)
        children.setdefault(int(fields[1]), []).append(child)  # field 4: the parent pid
        rss[child] = int(fields[21]) * resource.getpagesize()  # field 24: resident pages
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total / 2**20


def run_score(samples: Path, releases: Path, out: Path, num_proc: int) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one ``chartprobe score`` subprocess, its workers included.

    With workers the peak that matters is the sum over the process tree, so it is sampled from
    /proc every 20 ms; elsewhere it falls back to the largest single child (RUSAGE_CHILDREN).
    """
    import threading

    cmd = [sys.executable, "-m", "chartprobe", "score", "--predictions", str(samples), "--out", str(out),
           "--releases", str(releases), "--num-proc", str(num_proc), "--quiet"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak = [0.0]
    if Path("/proc/self/stat").exists():
        def watch() -> None:
            while proc.poll() is None:
                peak[0] = max(peak[0], _tree_rss_mb(proc.pid))
                time.sleep(0.02)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    if proc.wait():
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    elapsed = time.perf_counter() - start
    return elapsed, max(peak[0], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)


def bench_score(records: int, releases: Path | None, preset: str, num_proc: int = 1,
                unique: bool = False) -> tuple[float, float]:
    """Time and peak RSS of ``score`` (``num_proc`` workers) on ``records`` records, beside a tenth of them."""
    with tempfile.TemporaryDirectory(prefix="cp-score-scale-") as tmp:
        tmp = Path(tmp)
        if releases is None:
            from chartprobe.dataset_builders.release.hub import build_release

            releases = tmp / "releases"
            build_release("probes", releases, preset, num_proc=2)
        start = time.perf_counter()
        small = write_model_samples(releases, tmp / "tenth", max(1, records // 10), unique)
        # whole models only: at least one more than the tenth, or the two runs would be the same
        full = write_model_samples(releases, tmp / "full", max(records, small + 1), unique)
        kind = "every response unique" if unique else "responses repeat across models, as short answers do"
        print(f"wrote {small:,} + {full:,} sample lines in {time.perf_counter() - start:.0f} s ({kind})")
        t_small, rss_small = run_score(tmp / "tenth", releases, tmp / "tenth.json", num_proc)
        t_full, rss_full = run_score(tmp / "full", releases, tmp / "full.json", num_proc)
    print(f"score --num-proc {num_proc} (this machine: {os.cpu_count()} CPUs)")
    print(f"score on {small:,} records: {t_small:.1f} s, peak RSS {rss_small:.0f} MB")
    print(f"score on {full:,} records: {t_full:.1f} s (goal <= 30 s), peak RSS {rss_full:.0f} MB (goal <= 500 MB)")
    print(f"records x{full / small:.1f} -> time x{t_full / t_small:.1f}, peak RSS x{rss_full / rss_small:.2f} "
          f"({(t_full - t_small) / (full - small) * 1e6:.0f} us per extra record)")
    return t_full, rss_full


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", type=int, default=1_000_000, help="records to score / report (default 1M)")
    p.add_argument("--releases", type=Path, default=None,
                   help="folder holding chartprobe-probes/ (default: build one at --preset in a temp folder)")
    p.add_argument("--preset", default="small", help="preset of the probes release built when --releases is not given")
    p.add_argument("--only", choices=("score", "report"), default=None, help="run one of the two benchmarks")
    p.add_argument("--num-proc", type=int, default=os.cpu_count() or 1,
                   help="score's and report's worker processes (default: this machine's CPU count)")
    p.add_argument("--unique-answers", action="store_true",
                   help="give every response its own text (no response repeats: the scorer's worst case)")
    args = p.parse_args(argv)
    if args.only in (None, "score"):
        bench_score(args.records, args.releases, args.preset, args.num_proc, args.unique_answers)
    if args.only in (None, "report"):
        bench_report(args.records, args.num_proc)


if __name__ == "__main__":
    main()
