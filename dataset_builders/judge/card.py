"""The judge-specific part of the ``chartprobe-judge`` card: counts and one verified pair per criterion."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from .flaws._base import DIMENSIONS

_PAPER_COUNTS = {"data_encoding": 164, "text_occlusion": 157, "component_positioning": 154,
                 "color_consistency": 117, "visual_style": 88, "axis_scaling": 141, "aspect_ratio": 182}


def _cell(text: str, limit: int = 400) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cpa_section(ds: Any) -> list[str]:
    cols = ds.select_columns(["pair_id", "criterion", "strategy", "chart_kind", "evidence"]).to_list()
    per = Counter(r["criterion"] for r in cols)
    kinds = Counter(r["chart_kind"] for r in cols)
    lines = ["## CPA: one verified pair per criterion", "",
             ("Each pair's `worse` chart is the `better` chart with one injected flaw; `evidence` is what "
             "the flaw's `verify` measured on the two renders (boxes and pixels). Each chart is then drawn "
             "with a benign draw of its own (font size, line weight, shade; the figure scale and resolution "
             "drawn per pair: `evidence.benign`), so how much the two images differ does not name the "
             "better one. Pairs that failed "
             "verification were dropped."), "",
             "| criterion | dimension | pairs (paper) | example pair | strategy | kind | evidence |",
             "|---|---|---|---|---|---|---|"]
    for criterion in sorted(DIMENSIONS):
        example = next((r for r in cols if r["criterion"] == criterion), None)
        if example is None:
            lines.append(f"| {criterion} | {DIMENSIONS[criterion]} | 0 ({_PAPER_COUNTS[criterion]}) | – | – | – | – |")
            continue
        evidence = json.dumps(json.loads(example["evidence"]), sort_keys=True)
        lines.append(f"| {criterion} | {DIMENSIONS[criterion]} | {per[criterion]} ({_PAPER_COUNTS[criterion]}) | "
                     f"`{example['pair_id']}` | {example['strategy']} | {example['chart_kind']} | `{_cell(evidence)}` |")
    lines += ["", "Chart kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), ""]
    return lines


def _crj_section(config: str, ds: Any) -> list[str]:
    rows = ds.select_columns(["label", "failure"]).to_list()
    labels = Counter(r["label"] for r in rows)
    failures = Counter(r["failure"] for r in rows)
    return [f"## `{config}`: {labels['Accept']} Accept / {labels['Reject']} Reject", "",
            "Failures: " + ", ".join(f"{k} {n}" for k, n in sorted(failures.items())), ""]


def judge_card(built: dict[str, dict[str, Any]]) -> str:
    """Markdown for the card: two-pass protocol, per-criterion examples with evidence, CRJ balance."""
    lines = ["## Evaluation protocol", "",
             ("CPA is asked twice per pair with the two images swapped; a pair counts as correct only "
             "if both orders pick the better chart (two-pass accuracy). Consistent-Wrong, Bias-A and "
             "Bias-B rates report position preferences. CRJ reports accuracy, precision, recall, "
             "specificity and F1 with Accept as the positive class. Prompts: ChartJudgeBench "
             "Appendix B.2.2, frozen in `eval_tasks/harness/tasks/prompts/`."), ""]
    for config, splits in built.items():
        for ds in splits.values():
            lines += _cpa_section(ds) if config == "cpa" else _crj_section(config, ds)
    return "\n".join(lines)
