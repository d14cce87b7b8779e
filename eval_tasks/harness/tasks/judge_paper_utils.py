"""lm-eval hooks of the paper-protocol ChartJudgeBench tasks (``chartprobe_judge_*_paper``).

Same documents as ``chartprobe_judge_*`` (judge_utils), asked and scored as the released
evaluation code does (``CSU-JPG/ChartJudgeBench``; see :mod:`chartprobe.eval_tasks.scoring.paper_prompts`
and :mod:`chartprobe.eval_tasks.metrics.judge_paper`):

- the released prompts verbatim, in the released message layout: CPA interleaves "Image A:"
  <image> "Image B:" <image> and asks for ``\\boxed{}``; CRJ reproduction sends its prompt as
  the system message (lm-eval's ``description``, a system turn under ``--apply_chat_template``);
- the released decoding (temperature 0.1, top-p 0.9, sampling; 512 new tokens), in the YAML;
- the released parsers, and CRJ precision/recall/specificity/F1 over parsed verdicts only.

Images go where the released code puts them only when the model interleaves: pass
``interleave=True`` in ``--model_args`` (``hf-multimodal``, ``chartprobe-chat-completions``).
Without it lm-eval puts both images first, and the loader says so in lm-eval's log.
"""

from __future__ import annotations

import operator
from typing import Any

from chartprobe.eval_tasks.harness.judge_aggregations import aggregation, summary_for
from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.metrics import judge_paper as jp
from chartprobe.eval_tasks.rescoring.data import load_release, released_image_token
from chartprobe.eval_tasks.scoring.logged_once import share
from chartprobe.eval_tasks.scoring.paper_prompts import layout, render
from chartprobe.eval_tasks.scoring.voting import responses

LAYOUT_FILE = "chartjudgebench_layout"


def _token(metadata: dict[str, Any]) -> str:
    return released_image_token(metadata, "chartprobe_judge_*_paper", "both images come before the released prompt")


@lazy_images
def load_cpa_paper(chartprobe_release: str = "judge", chartprobe_config: str = "cpa", **metadata: Any):
    """CPA documents, every pair in both orders (as ``judge_utils.load_cpa``), with the released prompt."""
    import datasets

    lay, token = layout(LAYOUT_FILE, "cpa"), _token(metadata)
    prompt = render(lay, {}, token)["prompt"]
    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        keep = ["pair_id", "criterion", "dimension", "strategy", "chart_kind", "release_hash"]
        orders = []
        for order, first, second, gold in (("better_first", "image_better", "image_worse", "A"),
                                           ("worse_first", "image_worse", "image_better", "B")):
            part = ds.select_columns(keep + [first, second]).rename_columns({first: "image_a", second: "image_b"})
            n = len(part)
            part = part.add_column("order", [order] * n).add_column("answer", [gold] * n)
            orders.append(part.add_column("prompt", [prompt] * n))
        out[split] = datasets.interleave_datasets(orders)
    return datasets.DatasetDict(out)


@lazy_images
def load_crj_paper(chartprobe_release: str = "judge", chartprobe_config: str = "crj_reproduction",
                   **metadata: Any):
    """CRJ documents (reference or original image first) with the released prompt and system turn."""
    import datasets

    lay = layout(LAYOUT_FILE, chartprobe_config)
    token = _token(metadata)
    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        ds = ds.rename_columns({"image_reference": "image_a", "image_candidate": "image_b"})
        out[split] = ds.map(lambda instruction: render(lay, {"instruction": instruction}, token),
                            input_columns=["instruction"])
    return datasets.DatasetDict(out)


CPA_METRICS = ["two_pass_accuracy", "consistent_wrong_rate", "bias_a_rate", "bias_b_rate", "parse_fail_rate",
               *(f"acc_{c}" for c in ("color_consistency", "visual_style", "aspect_ratio", "axis_scaling",
                                      "data_encoding", "component_positioning", "text_occlusion"))]
CRJ_METRICS = ["accuracy", "precision", "recall", "specificity", "f1", "parse_fail_rate"]


def process_cpa_paper(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """One order of one pair, its choices read by the released parser."""
    rec = {"pair_id": doc["pair_id"], "order": doc["order"], "criterion": doc["criterion"],
           "dimension": doc["dimension"], "chart_kind": doc["chart_kind"],
           "choices": [jp.parse_choice_released(g) for g in responses(results)]}
    return share(rec, CPA_METRICS)


def process_crj_paper(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """One CRJ item, its verdicts read by the released parser."""
    rec = {"item_id": doc["item_id"], "label": doc["label"],
           "verdicts": [jp.parse_verdict_released(g) for g in responses(results)]}
    return share(rec, CRJ_METRICS)


def _cpa_pick(name: str):
    def pick(summary: dict[str, Any]) -> float:
        if name.startswith("acc_"):
            return summary["per_criterion"].get(name[4:], float("nan"))
        return summary[name]

    return pick


_cpa_summary = summary_for("cpa", jm.cpa_summary, "paper_cpa_summary", __name__)
_crj_summary = summary_for("crj", jp.crj_paper_metrics, "paper_crj_summary", __name__)

# `aggregation: !function judge_paper_utils.<name>` needs module attributes, one per metric.
globals().update({f"paper_cpa_{m}": aggregation(
    "cpa", _cpa_summary, _cpa_pick(m), f"paper_cpa_{m}",
    f"CPA {m} under the released parser (metrics.judge.cpa_summary).") for m in CPA_METRICS})
globals().update({f"paper_crj_{m}": aggregation(
    "crj", _crj_summary, operator.itemgetter(m), f"paper_crj_{m}",
    f"CRJ {m} under the released rules (metrics.judge_paper.crj_paper_metrics).") for m in CRJ_METRICS})
