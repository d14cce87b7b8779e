"""How long ``chartprobe report`` takes on 1M scored records (goal: <= 30 s, linear in records).

Synthesizes a results file with N scored probe records (default 1,000,000) spread over two
models, every task, template and skill of the probes suite, then times loading +
summarizing + plotting + writing the report. Run: ``python benchmarks/report_scale.py [N]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from chartprobe.eval_tasks.results import FORMAT, to_columns
from chartprobe.eval_tasks.task_index import task_index

SKILL_TEMPLATES = {"perception": ["P-COUNT-BARS", "P-HEIGHT-2X", "P-TREND-PATTERN"],
                   "grounding": ["G-VT-TALLEST", "G-TV-VALUE-B", "G-BBOX-ELEMENT"],
                   "reasoning": ["R-ARITH-TOTAL", "R-RANK-TOP3", "R-ARITH-MEAN"]}


def synthetic_records(n: int, seed: int = 0) -> list[dict]:
    """``n`` scored probe records with plausible fields, tasks and accuracies."""
    rng = np.random.default_rng(seed)
    tasks = [t for t in task_index().values() if t.release == "probes"]
    pick = rng.integers(len(tasks), size=n)
    correct = rng.random(n) < 0.6
    tpl = rng.integers(3, size=n)
    out = []
    for i in range(n):
        t = tasks[int(pick[i])]
        held = t.config.startswith("cr_")
        skill = "complex" if held else t.where["skill"]
        rec = {"id": f"{t.config}-{i}", "chart_id": f"{t.config}-{i // 9}", "domain": t.config.removeprefix("cr_"),
               "template_id": f"CR-{int(tpl[i])}" if held else SKILL_TEMPLATES[skill][int(tpl[i])],
               "skill": skill, "answer_type": "number", "score": float(correct[i]), "correct": bool(correct[i]),
               "parse_failed": False, "accuracy": float(correct[i]), "paper_accuracy": float(correct[i]),
               "task": t.task, "doc_id": i, "row_id": f"{t.config}-{i}"}
        if held:
            rec["fuzzy"] = float(correct[i])
        out.append(rec)
    return out


def main(n: int = 1_000_000) -> float:
    from chartprobe.eval_tasks.report import build_report

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
        start = time.perf_counter()
        build_report([path], Path(tmp) / "report")
        elapsed = time.perf_counter() - start
    print(f"chartprobe report on {n:,} scored records: {elapsed:.1f} s (goal <= 30 s)")
    return elapsed


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
