"""lm-eval hooks for the ChartProbe tasks (``chartprobe_probes_*``, ``chartprobe_cr_*``): thin
wrappers over ``chartprobe.eval_tasks``."""

from __future__ import annotations

from typing import Any

from chartprobe.eval_tasks.data import load_release  # noqa: F401 - referenced as `!function probes_utils.load_release`


def process_probe(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """ChartProbe probe: accuracy (exact/±5%/IoU, lists as exact sets), the paper's accuracy
    (recall for lists) and parse failures."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    rec = score_record(doc, results[0])
    return {"accuracy": rec["accuracy"], "paper_accuracy": rec["paper_accuracy"],
            "parse_fail_rate": float(rec["parse_failed"])}


def process_cr(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """Held-out complex reasoning: RapidFuzz ratio (paper) and strict accuracy by answer type."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    rec = score_record({**doc, "held_out": True}, results[0])
    return {"fuzzy": rec["fuzzy"], "accuracy": float(rec["correct"]), "parse_fail_rate": float(rec["parse_failed"])}
