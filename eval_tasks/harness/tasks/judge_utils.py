"""lm-eval hooks of the ChartJudgeBench tasks (``chartprobe_judge_*``): data, prompts, metrics.

Two images per document: the tasks read ``image_a``/``image_b`` and the prompt starts with
two image placeholders (``<image>`` for local models, none for API models; see
``chartprobe.eval_tasks.rescoring.data.image_token_for``). Run with ``max_images=2``.

CPA two-pass protocol: the release stores each pair once; :func:`load_cpa` emits it twice,
better chart first (gold ``A``) and worse chart first (gold ``B``), as consecutive documents,
so ``--limit 2n`` keeps ``n`` whole pairs. Aggregations group the orders by ``pair_id``.

Prompts are the paper's (Appendix B.2.2), frozen in ``prompts/*.txt``; the paper omits its
output-format lines "for brevity", so each file ends with ours, matching the paper's
``[Answer]: ... [Reason]: ...`` outputs (Appendix E). :func:`prompt` refuses a file whose
sha256 differs from :data:`PROMPT_SHA256`: changing a prompt changes scores, so it must
come with a new hash and a task version bump.

Stderr in lm-eval's table (:mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`): a bootstrap over CPA pairs
(both orders drawn together; a pair drawn twice gets a fresh ``pair_id``) and over CRJ items.

Voting (``*_vote`` tasks, §4.5): each record keeps every sample's parsed label; a metric votes
over all of them and ``*_k{K}`` over the first K (:mod:`chartprobe.eval_tasks.harness.judge_aggregations`).
"""

from __future__ import annotations

import hashlib
import operator
from pathlib import Path
from typing import Any

from chartprobe.eval_tasks.harness.judge_aggregations import aggregation, summary_for
from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.rescoring.data import load_release
from chartprobe.eval_tasks.scoring.logged_once import share
from chartprobe.eval_tasks.scoring.voting import VOTE_KS, responses

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


@lazy_images
def load_cpa(chartprobe_release: str = "judge", chartprobe_config: str = "cpa", **metadata: Any):
    """CPA documents: every pair in both orders, consecutive (see module docstring).

    ``load_release`` hands the pairs over in task order (criteria take turns,
    :mod:`chartprobe.eval_tasks.rescoring.doc_order`); interleaving the two orders keeps each pair whole.
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


@lazy_images
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


def process_cpa(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """One order of one pair -> its record (every sample of a ``*_vote`` run), under every CPA metric."""
    rec = jm.cpa_record(doc, responses(results))
    return share(rec, CPA_METRICS)  # logged once per line, not once per metric


def process_crj(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """One CRJ item -> its record (every sample of a ``*_vote`` run), under every CRJ metric."""
    rec = jm.crj_record(doc, responses(results))
    return share(rec, CRJ_METRICS)


VOTE_CPA_METRICS = ["two_pass_accuracy", "one_pass_accuracy", "consistent_wrong_rate", "bias_a_rate", "bias_b_rate",
                    "parse_fail_rate", *(f"two_pass_accuracy_k{k}" for k in VOTE_KS)]
VOTE_CRJ_METRICS = [*CRJ_METRICS, *(f"{m}_k{k}" for m in ("accuracy", "f1") for k in VOTE_KS)]


def process_cpa_vote(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """``chartprobe_judge_cpa_vote``: every sample of one order, under the headline and voting-curve metrics."""
    return share(jm.cpa_record(doc, responses(results)), VOTE_CPA_METRICS)


def process_crj_vote(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
    """``chartprobe_judge_crj_*_vote``: every sample of one item, under the CRJ and voting-curve metrics."""
    return share(jm.crj_record(doc, responses(results)), VOTE_CRJ_METRICS)


def _cpa_pick(name: str):
    def pick(summary: dict[str, Any]) -> float:
        if name.startswith("acc_"):
            group = name[4:]
            table = summary["per_dimension"] if group in DIMENSION_NAMES else summary["per_criterion"]
            return table.get(group, float("nan"))
        return summary[name]

    return pick


# Looked up at call time, so a test can count the summaries one bootstrap draw costs.
_cpa_summary = summary_for("cpa", lambda records, k: jm.cpa_summary(records, k), "cpa_summary", __name__)
_crj_summary = summary_for("crj", lambda records, k: jm.crj_metrics(records, k), "crj_summary", __name__)


def _cpa(name: str, k: int | str = "all", label: str | None = None):
    return aggregation("cpa", _cpa_summary, _cpa_pick(name), label or name,
                       f"CPA {name}, voting over {k} samples (chartprobe.eval_tasks.metrics.judge.cpa_summary).", k)


def _crj(name: str, k: int | str = "all", label: str | None = None):
    return aggregation("crj", _crj_summary, operator.itemgetter(name), label or f"crj_{name}",
                       f"CRJ {name}, voting over {k} samples (chartprobe.eval_tasks.metrics.judge.crj_metrics).", k)


# `aggregation: !function judge_utils.<name>` needs module attributes, one per metric.
globals().update({m: _cpa(m) for m in CPA_METRICS if m != "parse_fail_rate"})
cpa_parse_fail_rate = _cpa("parse_fail_rate")
globals().update({f"crj_{m}": _crj(m) for m in CRJ_METRICS})
# The voting curve of the *_vote tasks (§4.5): the headline metrics voting over the first K samples.
globals().update({f"two_pass_accuracy_k{k}": _cpa("two_pass_accuracy", k, f"two_pass_accuracy_k{k}") for k in VOTE_KS})
globals().update({f"crj_{m}_k{k}": _crj(m, k, f"crj_{m}_k{k}") for m in ("accuracy", "f1") for k in VOTE_KS})
