"""lm-eval hooks for the ChartProbe tasks (``chartprobe_probes_*``, ``chartprobe_cr_*``): thin
wrappers over ``chartprobe.eval_tasks``.

Headline metrics are template macro averages (``chartprobe.eval_tasks.metrics.probes``):
``accuracy``, ``paper_accuracy`` and (CR) ``fuzzy`` carry ``(domain, template_id, value,
chart)`` per document and aggregate with :func:`template_macro`; ``accuracy_micro`` and
``fuzzy_micro`` are the same values pooled over documents (lm-eval's ``mean``).

The macro metrics' stderr in lm-eval's table is a bootstrap over charts (``chart``: the
suite's ``unit_key``, a chart's probes share its data; :mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`);
the micro ones keep lm-eval's own stderr of a mean.
"""

from __future__ import annotations

import math
from typing import Any

from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.harness.lm_eval_stderr import clustered
from chartprobe.eval_tasks.rescoring import data


def _macro_item(rec: dict[str, Any], doc: dict[str, Any], value: str = "accuracy") -> tuple[str, str, float, str]:
    """``template_item`` plus the document's unit (its chart), the bootstrap's cluster."""
    from chartprobe.eval_tasks.metrics.probes import template_item
    from chartprobe.eval_tasks.suites.probes import ProbesSuite

    return (*template_item(rec, value), ProbesSuite().unit_key(doc))


def process_probe(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """ChartProbe probe: accuracy (exact/±5%/IoU, lists as exact sets; macro and micro), the
    paper's accuracy (recall for lists; macro) and parse failures."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    rec = score_record(doc, results[0])
    return {"accuracy": _macro_item(rec, doc), "accuracy_micro": rec["accuracy"],
            "paper_accuracy": _macro_item(rec, doc, "paper_accuracy"),
            "parse_fail_rate": float(rec["parse_failed"])}


def process_cr(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """Held-out complex reasoning: RapidFuzz ratio (paper) and strict accuracy by answer type,
    each macro over the CR templates and micro."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    rec = score_record({**doc, "held_out": True}, results[0])
    return {"fuzzy": _macro_item(rec, doc, "fuzzy"), "fuzzy_micro": rec["fuzzy"],
            "accuracy": _macro_item(rec, doc), "accuracy_micro": rec["accuracy"],
            "parse_fail_rate": float(rec["parse_failed"])}


@clustered(lambda item: item[3])
def template_macro(items: list[tuple]) -> float:
    """Aggregation: mean over templates of the per-template mean (NaN for no documents); items are
    ``(domain, template_id, value, chart)`` (the chart, for the stderr, may be left out)."""
    from chartprobe.eval_tasks.metrics.probes import macro_of_items

    value = macro_of_items(item[:3] for item in items)
    return math.nan if value is None else value


def _style_item(rec: dict[str, Any], doc: dict[str, Any]) -> tuple[str, str, str, float]:
    """(style, chart, template, accuracy): what the style-shift aggregations need of a document."""
    return (str(doc.get("style")), str(doc.get("chart_id")), str(doc.get("template_id")), float(rec["accuracy"]))


def process_style(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """Style-shift probe: the probe metrics plus the items of the style gap and consistency."""
    from chartprobe.eval_tasks.metrics.probes import score_record

    rec = score_record(doc, results[0])
    item = _style_item(rec, doc)
    return {"accuracy": _macro_item(rec, doc), "accuracy_micro": rec["accuracy"], "style_gap": item,
            "style_consistency": item, "parse_fail_rate": float(rec["parse_failed"])}


def _style_summary(items: list[tuple]) -> dict[str, Any]:
    from chartprobe.eval_tasks.metrics.style_shift import style_shift_summary

    records = [{"style": s, "chart_id": c, "template_id": t, "accuracy": a} for s, c, t, a in items]
    return style_shift_summary(records, iters=0) or {}


@clustered(lambda item: item[1])
def style_gap(items: list[tuple]) -> float:
    """Aggregation: reference-style accuracy minus the worst other style's (NaN with one style)."""
    value = _style_summary(items).get("worst_style_gap")
    return math.nan if value is None else value


@clustered(lambda item: item[1])
def style_consistency(items: list[tuple]) -> float:
    """Aggregation: share of (chart, question) items with the same correctness in every style."""
    value = _style_summary(items).get("consistency")
    return math.nan if value is None else value


load_release = lazy_images(data.load_release)
"""The release's rows, images decoded when read (``!function probes_utils.load_release``)."""
