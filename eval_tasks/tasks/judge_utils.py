"""lm-eval hooks of the ChartJudgeBench tasks (``chartprobe_judge_*``): data, prompts, metrics.

Two images per document: the tasks read ``image_a``/``image_b`` and the prompt starts with
two image placeholders (``<image>`` for local models, none for API models; see
``chartprobe.eval_tasks.data.image_token_for``). Run with ``max_images=2``.

CPA two-pass protocol: the release stores each pair once; :func:`load_cpa` emits it twice,
better chart first (gold ``A``) and worse chart first (gold ``B``), as consecutive documents,
so ``--limit 2n`` keeps ``n`` whole pairs. Aggregations group the orders by ``pair_id``.

Prompts are the paper's (Appendix B.2.2), frozen in ``prompts/*.txt``; the paper omits its
output-format lines "for brevity", so each file ends with ours, matching the paper's
``[Answer]: ... [Reason]: ...`` outputs (Appendix E). :func:`prompt` refuses a file whose
sha256 differs from :data:`PROMPT_SHA256`: changing a prompt changes scores, so it must
come with a new hash and a task version bump.

Stderr in lm-eval's table (:mod:`chartprobe.eval_tasks.lm_eval_stderr`): a bootstrap over CPA pairs
(both orders drawn together; a pair drawn twice gets a fresh ``pair_id``) and over CRJ items.
"""

from __future__ import annotations

import hashlib
import operator
from pathlib import Path
from typing import Any

from chartprobe.eval_tasks.data import load_release
from chartprobe.eval_tasks.lm_eval_stderr import clustered
from chartprobe.eval_tasks.logged_once import share
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.metrics.bootstrap import relabel_fields

PROMPT_DIR = Path(__file__).parent / "prompts"
PROMPT_SHA256 = {
    "judge_cpa": "fad27679d6078698c6c7dbc6222a1b30fb2a7882cf6fb31dc21a6c7c81062c5d",
    "judge_crj_reproduction": "4852a81eb9f7ef5666e7460be8cfa501960357fb5ba39b5ef544914e73ea631c",
    "judge_crj_editing": "aeb431713ebc5ebb19b8ecc61f0f41ef789dc2718fce3596029c549d324a715a",
}
CRJ_PROMPTS = {"crj_reproduction": "judge_crj_reproduction", "crj_editing": "judge_crj_editing"}


class PromptChangedError(RuntimeError):
    """A frozen prompt file does not match its recorded sha256."""


def prompt(name: str) -> str:
    """The frozen prompt ``name`` (checked against its recorded sha256)."""
    data = (PROMPT_DIR / f"{name}.txt").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PROMPT_SHA256[name]:
        raise PromptChangedError(f"prompts/{name}.txt has sha256 {digest}, recorded {PROMPT_SHA256[name]}")
    return data.decode().strip()


def load_cpa(chartprobe_release: str = "judge", chartprobe_config: str = "cpa", **metadata: Any):
    """CPA documents: every pair in both orders, consecutive (see module docstring).

    ``load_release`` hands the pairs over in task order (criteria take turns,
    :mod:`chartprobe.eval_tasks.doc_order`); interleaving the two orders keeps each pair whole.
    """
    import datasets

    text = prompt("judge_cpa")
    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        keep = ["pair_id", "criterion", "dimension", "strategy", "chart_kind", "image_token", "release_hash"]
        orders = []
        for order, first, second, gold in (("better_first", "image_better", "image_worse", "A"),
                                           ("worse_first", "image_worse", "image_better", "B")):
            part = ds.select_columns(keep + [first, second]).rename_columns({first: "image_a", second: "image_b"})
            part = part.add_column("order", [order] * len(part)).add_column("answer", [gold] * len(part))
            # input_columns: build the prompt without decoding (and re-encoding) a single image
            orders.append(part.map(lambda tok: {"prompt": tok * 2 + text}, input_columns=["image_token"]))
        out[split] = datasets.interleave_datasets(orders)
    return datasets.DatasetDict(out)


def load_crj(chartprobe_release: str = "judge", chartprobe_config: str = "crj_reproduction", **metadata: Any):
    """CRJ documents: reference (or original) image first, candidate (or result) second."""
    import datasets

    text = prompt(CRJ_PROMPTS[chartprobe_config])

    def fill(token: str, question: str, instruction: str) -> dict:
        body = text.replace("{SIMPLIFIED_QUERY}", question).replace("{INSTRUCTION}", instruction)
        return {"prompt": token * 2 + body}

    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        ds = ds.rename_columns({"image_reference": "image_a", "image_candidate": "image_b"})
        out[split] = ds.map(fill, input_columns=["image_token", "question", "instruction"])
    return datasets.DatasetDict(out)


DIMENSION_NAMES = ("visual_effects", "layout_structure", "data_fidelity")
CPA_METRICS = ["two_pass_accuracy", "one_pass_accuracy", "consistent_wrong_rate", "bias_a_rate",
               "bias_b_rate", "parse_fail_rate", "first_position_rate",
               *(f"acc_{c}" for c in ("color_consistency", "visual_style", "aspect_ratio", "axis_scaling",
                                      "data_encoding", "component_positioning", "text_occlusion")),
               *(f"acc_{d}" for d in DIMENSION_NAMES)]
CRJ_METRICS = ["accuracy", "precision", "recall", "specificity", "f1", "accept_rate", "parse_fail_rate"]


def process_cpa(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """One order of one pair -> its record, under every CPA metric (aggregated across documents)."""
    rec = jm.cpa_record(doc, results)
    return share(rec, CPA_METRICS)  # logged once per line, not once per metric


def process_crj(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """One CRJ item -> its record, under every CRJ metric."""
    rec = jm.crj_record(doc, results)
    return share(rec, CRJ_METRICS)


def _k(records: list[dict], key: str) -> int:
    """Majority voting over every sample a run has (lm-eval ``repeats``; 1 = no voting)."""
    return min((len(r[key]) for r in records), default=1) or 1


def _cpa_summary(records: list[dict]) -> dict[str, Any]:
    return jm.cpa_summary(records, _k(records, "choices"))


def _crj_summary(records: list[dict]) -> dict[str, Any]:
    return jm.crj_metrics(records, _k(records, "verdicts"))


def _cpa_pick(name: str):
    def pick(summary: dict[str, Any]) -> float:
        if name.startswith("acc_"):
            group = name[4:]
            table = summary["per_dimension"] if group in DIMENSION_NAMES else summary["per_criterion"]
            return table.get(group, float("nan"))
        return summary[name]

    return pick


def _cpa(name: str):
    pick = _cpa_pick(name)

    # stderr: every CPA metric reads one cpa_summary per bootstrap draw, computed once for all of them
    @clustered(lambda r: r["pair_id"], relabel_fields("pair_id"), summary=_cpa_summary, statistic=pick)
    def aggregate(records: list[dict]) -> float:
        return pick(_cpa_summary(records))

    aggregate.__name__ = name
    aggregate.__doc__ = f"CPA {name} over all documents (chartprobe.eval_tasks.metrics.judge.cpa_summary)."
    return aggregate


def _crj(name: str):
    pick = operator.itemgetter(name)

    # CRJ metrics count items, never group them: a twice-drawn item needs no new id
    @clustered(lambda r: r["item_id"], summary=_crj_summary, statistic=pick)
    def aggregate(records: list[dict]) -> float:
        return pick(_crj_summary(records))

    aggregate.__name__ = f"crj_{name}"
    aggregate.__doc__ = f"CRJ {name} over all items (chartprobe.eval_tasks.metrics.judge.crj_metrics)."
    return aggregate


# `aggregation: !function judge_utils.<name>` needs module attributes, one per metric.
globals().update({m: _cpa(m) for m in CPA_METRICS if m != "parse_fail_rate"})
cpa_parse_fail_rate = _cpa("parse_fail_rate")
globals().update({f"crj_{m}": _crj(m) for m in CRJ_METRICS})
