"""lm-eval hooks of the paper-protocol ChartJudgeBench tasks (``chartprobe_judge_*_paper``).

Same documents as ``chartprobe_judge_*`` (judge_utils), asked and scored as the released
evaluation code does (``CSU-JPG/ChartJudgeBench``; see :mod:`chartprobe.eval_tasks.paper_prompts`
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

import logging
import operator
from typing import Any

from chartprobe.eval_tasks.data import IMAGE_TOKEN, image_token_for, load_release
from chartprobe.eval_tasks.lm_eval_stderr import clustered
from chartprobe.eval_tasks.logged_once import share
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.metrics import judge_paper as jp
from chartprobe.eval_tasks.metrics.bootstrap import relabel_fields
from chartprobe.eval_tasks.paper_prompts import layout, render

LAYOUT_FILE = "chartjudgebench_layout"
log = logging.getLogger("lm-eval")


def _interleaves(metadata: dict[str, Any]) -> bool:
    return str(metadata.get("interleave", "")).strip().lower() in ("1", "true", "yes", "on")


def _token(metadata: dict[str, Any]) -> str:
    """``<image>`` where the model interleaves (images at their place), else the default placeholder."""
    if "chartprobe_image_token" in metadata or _interleaves(metadata):
        return image_token_for(metadata) if "chartprobe_image_token" in metadata else IMAGE_TOKEN
    log.warning("chartprobe_judge_*_paper: the model does not interleave images with text (add "
                "interleave=True to --model_args), so both images come before the released prompt")
    return image_token_for(metadata)


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


def process_cpa_paper(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """One order of one pair, its choices read by the released parser."""
    rec = {"pair_id": doc["pair_id"], "order": doc["order"], "criterion": doc["criterion"],
           "dimension": doc["dimension"], "chart_kind": doc["chart_kind"],
           "choices": [jp.parse_choice_released(g) for g in results]}
    return share(rec, CPA_METRICS)


def process_crj_paper(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """One CRJ item, its verdicts read by the released parser."""
    rec = {"item_id": doc["item_id"], "label": doc["label"],
           "verdicts": [jp.parse_verdict_released(g) for g in results]}
    return share(rec, CRJ_METRICS)


def _k(records: list[dict], key: str) -> int:
    """Majority voting over every sample a run has (lm-eval ``repeats``; 1 = no voting)."""
    return min((len(r[key]) for r in records), default=1) or 1


def _cpa_summary(records: list[dict]) -> dict[str, Any]:
    return jm.cpa_summary(records, _k(records, "choices"))


def _crj_summary(records: list[dict]) -> dict[str, Any]:
    return jp.crj_paper_metrics(records, _k(records, "verdicts"))


def _cpa_pick(name: str):
    def pick(summary: dict[str, Any]) -> float:
        if name.startswith("acc_"):
            return summary["per_criterion"].get(name[4:], float("nan"))
        return summary[name]

    return pick


def _cpa(name: str):
    pick = _cpa_pick(name)

    @clustered(lambda r: r["pair_id"], relabel_fields("pair_id"), summary=_cpa_summary, statistic=pick)
    def aggregate(records: list[dict]) -> float:
        return pick(_cpa_summary(records))

    aggregate.__name__ = f"paper_cpa_{name}"
    aggregate.__doc__ = f"CPA {name} under the released parser (metrics.judge.cpa_summary)."
    return aggregate


def _crj(name: str):
    pick = operator.itemgetter(name)

    @clustered(lambda r: r["item_id"], summary=_crj_summary, statistic=pick)
    def aggregate(records: list[dict]) -> float:
        return pick(_crj_summary(records))

    aggregate.__name__ = f"paper_crj_{name}"
    aggregate.__doc__ = f"CRJ {name} under the released rules (metrics.judge_paper.crj_paper_metrics)."
    return aggregate


# `aggregation: !function judge_paper_utils.<name>` needs module attributes, one per metric.
globals().update({f"paper_cpa_{m}": _cpa(m) for m in CPA_METRICS})
globals().update({f"paper_crj_{m}": _crj(m) for m in CRJ_METRICS})
