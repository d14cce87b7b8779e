"""Readable metric names for the tables, and the papers' short names for the docs.

The metric functions, the suite summaries of ``chartprobe score`` and the report keep the papers'
short keys (``ve``, ``cons``, ``ra``: what the formulas in the papers and our metric modules are
written with). The *tables* a user reads, lm-eval's and ``chartprobe score``'s per-task one, show
the readable name instead: ``value_extraction`` rather than ``ve``, and LegendBench's ``cr`` (the
harmonic mean of consistency and responsiveness) no longer reads like ChartProbe's complex
reasoning (CR). One registry maps both ways, so the YAML metric lists, the process hooks and
``score`` cannot drift apart (tests/test_metric_names.py holds them to it), and
``docs/metrics.md`` is the table of both names with their paper.

A name not registered here (``accuracy``, ``two_pass_accuracy``, ``acc_100``, ...) is already
readable and is its own table name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["NAMES", "PREFIXES", "MetricName", "describe", "paper_key", "readable", "readable_keys"]

V = TypeVar("V")


@dataclass(frozen=True)
class MetricName:
    """One metric: its short key (ours and the paper's), its table name, the paper's label."""

    key: str
    readable: str
    paper: str
    benchmark: str
    meaning: str


NAMES: dict[str, MetricName] = {}
"""Short key -> :class:`MetricName`."""


def _register(benchmark: str, key: str, readable_name: str, paper: str, meaning: str) -> None:
    if key in NAMES or readable_name in {n.readable for n in NAMES.values()}:
        raise ValueError(f"metric name {key!r} / {readable_name!r} registered twice")
    NAMES[key] = MetricName(key, readable_name, paper, benchmark, meaning)


for _row in (
    ("qa_acc", "qa_accuracy", "QA Acc.", "accuracy over every question"),
    ("chain_acc", "chain_accuracy", "Chain Acc.", "chains whose every question is correct"),
    ("guide_read", "guide_reading", "Guide Read.", "parsing: reading the mapping the legend states"),
    ("bind", "identity_binding", "Bind.", "grounding: binding a legend entry to its mark"),
    ("ve", "value_extraction", "VE", "grounding: reading the value of the bound mark"),
    ("reason", "reasoning", "Reason.", "raw accuracy on questions that need inference"),
    ("reason_sup", "reasoning_given_support", "Reason.|Sup.", "reasoning where the upstream chain is correct"),
    ("cons", "consistency", "Cons.", "same correct answer under a mapping-preserving intervention"),
    ("resp", "responsiveness", "Resp.", "updated correct answer under a mapping-altering intervention"),
    ("cr", "consistency_responsiveness_hm", "ConsResp",
     "harmonic mean of consistency and responsiveness (the paper's CR; renamed so it is not read as ChartProbe's CR)"),
    ("ap", "abstention_precision", "AP", "refusals made on genuinely unanswerable questions"),
    ("ar", "abstention_recall", "AR", "unanswerable questions the model refuses"),
    ("af1", "abstention_f1", "AF1", "harmonic mean of abstention precision and recall"),
):
    _register("legend", *_row)

for _row in (
    ("oa", "original_accuracy", "OA", "accuracy on the original charts"),
    ("ra", "reconstruction_accuracy", "RA", "accuracy on the re-rendered originals"),
    ("va", "variant_accuracy", "VA", "accuracy on the counterfactual variants"),
    ("rvc", "relative_variant_change_pct", "RVC", "100 (VA - OA) / OA, in percent"),
    ("rvc_p", "relative_variant_change_p", "RVC p", "sign-flip p-value of OA vs VA, paired by family"),
    ("cva", "conditional_variant_accuracy", "CVA", "VA on families whose original is correct"),
    ("cu", "correct_update_rate", "CU", "after original success: the variant answered correctly"),
    ("nu", "noisy_update_rate", "NU", "after original success: a changed but wrong answer"),
    ("sp", "stale_prediction_rate", "SP", "after original success: the original answer repeated, wrong"),
    ("unsure", "unsure_rate", "unsure", "rows the typed scorer could not decide (counted not correct; --judge resolves)"),
):
    _register("families", *_row)
del _row

PREFIXES = ("af1", "ap", "ar")
"""Short keys that also head a sliced metric (``ap_mask_full``: AP on the Mask_Full rows): the
slice keeps its suffix behind the readable name (``abstention_precision_mask_full``)."""

_BY_READABLE = {n.readable: n.key for n in NAMES.values()}


def readable(key: str) -> str:
    """The table name of a metric key (the key itself when it is already readable)."""
    name = NAMES.get(key)
    if name is not None:
        return name.readable
    head, sep, tail = key.partition("_")
    return f"{NAMES[head].readable}_{tail}" if sep and head in PREFIXES else key


def paper_key(name: str) -> str:
    """The short key of a table name (inverse of :func:`readable`; short keys pass through)."""
    if name in _BY_READABLE:
        return _BY_READABLE[name]
    for head in PREFIXES:
        full = NAMES[head].readable + "_"
        if name.startswith(full):
            return f"{head}_{name.removeprefix(full)}"
    return name


def readable_keys(metrics: Mapping[str, V] | Iterable[tuple[str, V]]) -> dict[str, V]:
    """``metrics`` with every key replaced by its table name, order kept."""
    items = metrics.items() if isinstance(metrics, Mapping) else metrics
    return {readable(k): v for k, v in items}


def describe(key: str) -> dict[str, Any]:
    """Everything registered about ``key`` (a short key or a table name), for the docs and the Space."""
    name = NAMES[paper_key(key)]
    return {"key": name.key, "readable": name.readable, "paper": name.paper,
            "benchmark": name.benchmark, "meaning": name.meaning}


_PAPERS = {"legend": "LegendBench §5.1 (`chartprobe_legend*`)",
           "families": "Chartographer §3.4 (`chartprobe_families*`)"}


def docs_page() -> str:
    """``docs/metrics.md``: both names of every registered metric, by benchmark (Markdown).

    Regenerate with ``python -m chartprobe.eval_tasks.metrics.names > docs/metrics.md``; a test
    holds the page to this text.
    """
    out = ["# Metric names: the table's and the papers'", "",
           "lm-eval's table and `chartprobe score`'s per-task table print the readable name; the papers,",
           "our metric modules (`eval_tasks/metrics/`), the suite summaries in `results.json` and the",
           "report use the short key. One registry holds both: `eval_tasks/metrics/names.py` (this page",
           "is its output, `python -m chartprobe.eval_tasks.metrics.names > docs/metrics.md`). Judge and",
           "probe metrics (`two_pass_accuracy`, `precision`, `accuracy`, ...) are already readable and",
           "keep their names.", ""]
    for bench, title in _PAPERS.items():
        out += [f"## {title}", "", "| table name | key | paper | what it measures |", "|---|---|---|---|"]
        out += [f"| `{n.readable}` | `{n.key}` | {n.paper.replace('|', chr(92) + '|')} | {n.meaning} |"
                for n in NAMES.values() if n.benchmark == bench]
        out.append("")
    out += ["Sliced abstention metrics keep their slice behind the name: `ap_mask_full` (AP on the",
            "Mask_Full rows of the visibility study) prints as `abstention_precision_mask_full`; likewise",
            f"every slice of {', '.join(f'`{p}`' for p in PREFIXES)}."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(docs_page(), end="")
