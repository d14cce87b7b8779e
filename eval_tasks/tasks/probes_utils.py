"""lm-eval hooks for the ChartProbe tasks (``chartprobe_probes_*``, ``chartprobe_cr_*``): thin
wrappers over ``chartprobe.eval_tasks``.

Headline metrics are template macro averages (``chartprobe.eval_tasks.metrics.probes``):
``accuracy``, ``paper_accuracy`` and (CR) ``fuzzy`` carry ``(domain, template_id, value)``
per document and aggregate with :func:`template_macro`; ``accuracy_micro`` and
``fuzzy_micro`` are the same values pooled over documents (lm-eval's ``mean``).
"""

from __future__ import annotations

import math
from typing import Any

from chartprobe.eval_tasks.data import load_release  # noqa: F401 - referenced as `!function probes_utils.load_release`


def process_probe(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """ChartProbe probe: accuracy (exact/±5%/IoU, lists as exact sets; macro and micro), the
    paper's accuracy (recall for lists; macro) and parse failures."""
    from chartprobe.eval_tasks.metrics.probes import score_record, template_item

    rec = score_record(doc, results[0])
    return {"accuracy": template_item(rec), "accuracy_micro": rec["accuracy"],
            "paper_accuracy": template_item(rec, "paper_accuracy"),
            "parse_fail_rate": float(rec["parse_failed"])}


def process_cr(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """Held-out complex reasoning: RapidFuzz ratio (paper) and strict accuracy by answer type,
    each macro over the CR templates and micro."""
    from chartprobe.eval_tasks.metrics.probes import score_record, template_item

    rec = score_record({**doc, "held_out": True}, results[0])
    return {"fuzzy": template_item(rec, "fuzzy"), "fuzzy_micro": rec["fuzzy"],
            "accuracy": template_item(rec), "accuracy_micro": rec["accuracy"],
            "parse_fail_rate": float(rec["parse_failed"])}


def template_macro(items: list[tuple[str, str, float]]) -> float:
    """Aggregation: mean over templates of the per-template mean (NaN for no documents)."""
    from chartprobe.eval_tasks.metrics.probes import macro_of_items

    value = macro_of_items(items)
    return math.nan if value is None else value
