"""``chartprobe-judge``: ChartJudgeBench's judge items, every label verified by construction.

Configs (split ``test``):

- ``cpa``: one row per Chart Perception Alignment pair: a better chart and the same chart
  with exactly one flaw of one of the 7 criteria (``dataset_builders/judge/flaws``), with the
  evidence its ``verify`` read off the two renders. Rows hold the pair once; the harness
  task asks it twice with the positions swapped (two-pass protocol).
- ``crj_reproduction``: a reference chart and a candidate reproduction, Accept/Reject.
- ``crj_editing``: an instruction, the original chart and an edit result, Accept/Reject.

The paper had an LLM inject flaws and annotators filter them; here a flaw is a spec transform
and a pair is emitted only if the renders prove the flaw (failed pairs are dropped).

With ``--released DIR`` (params ``released``/``released_sha256``) the rows are the released
ChartJudgeBench data instead, mapped onto the same columns (``released``, ``released_rows``);
``data_source`` tells the two apart (``synthetic`` or ``chartjudgebench:<released id>``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any, ClassVar

from ..core.png_pad import equalize
from ..release.dataset import GENERATOR_VERSION, DatasetBuilder, dataset
from ..release.labels import class_label
from ..release.preset import Preset
from .balance import balance_limits
from .card import judge_card
from .card_released import imported, released_extra, released_inputs
from .flaws._base import DIMENSIONS
from .released import released_from_params

CITATION = """@article{wu2026chartjudgebench,
  title   = {ChartJudgeBench: Evaluating LMM Judges for Chart-to-Code Generation},
  author  = {Wu, Lijian and Zhao, Henry Hengyuan and Zhang, Zijian and Tang, Jiahao and Wu, Jiajun and Wang, Alex Jinpeng},
  journal = {arXiv preprint arXiv:2609.24210},
  year    = {2026}
}"""

CRJ_TASKS = {"crj_reproduction": "reproduction", "crj_editing": "editing"}


def _images(names: tuple[str, str], *rendered: Any) -> dict[str, dict]:
    """The item's image cells, padded to one byte length so file size cannot tell them apart."""
    return {n: {"bytes": b, "path": None} for n, b in zip(names, equalize(*(r.png for r in rendered)), strict=True)}


@dataset("judge")
class JudgeDataset(DatasetBuilder):
    """CPA pairs over 7 flaw criteria plus CRJ reproduction and editing verdicts."""

    title = "chartprobe-judge: LMM judges for chart-to-code (ChartJudgeBench)"
    paper = "ChartJudgeBench: Evaluating LMM Judges for Chart-to-Code Generation (arXiv:2609.24210)"
    citation = CITATION
    default_config = "cpa"  # the headline config: `load_dataset(repo)` opens it
    # CPA takes its pair count per criterion; the CRJ configs take no params. ``released`` (a folder)
    # and its ``released_sha256`` import the released data instead (``--released``; pairs unused).
    param_types: ClassVar[dict[str, dict[str, Any]]] = {
        "cpa": {"pairs": dict[str, int], "released": str, "released_sha256": str},
        "*": {"released": str, "released_sha256": str}}
    task_categories = ("visual-question-answering", "image-to-text")
    description = (
        "Judge items for vision-language models used as chart critics. CPA: pick the better of two "
        "charts that differ by exactly one flaw (colour consistency, visual style, aspect ratio, axis "
        "scaling, data encoding, component positioning, text occlusion), each flaw injected as a spec "
        "transform and verified on the renders. CRJ: accept or reject a chart reproduction or a chart "
        "edit (honest edit, key-parameter failure, or an unrequested side effect).")

    def features(self, config: str) -> Any:
        from datasets import Features, Image, Value

        common = {"id": "string", "chart_kind": "string", "evidence": "string", "seed": "int64",
                  "generator_version": "string", "data_source": "string"}
        if config == "cpa":
            cols = {**common, "pair_id": "string", "criterion": "string", "dimension": "string",
                    "strategy": "string", "spec_better": "string", "spec_worse": "string"}
            images = ("image_better", "image_worse")
        elif config in CRJ_TASKS:
            cols = {**common, "item_id": "string", "task": "string", "instruction": "string",
                    "question": "string", "answer": "string", "answer_type": "string", "label": "string",
                    "failure": "string", "edit": "string", "spec_reference": "string",
                    "spec_candidate": "string"}
            images = ("image_reference", "image_candidate")
        else:
            raise ValueError(f"unknown judge config {config!r}; use cpa, crj_reproduction, crj_editing")
        # Images right after the id: the viewer shows columns in order, and the long spec JSON
        # columns before them pushed both images off screen.
        feats = {"id": Value("string"), **{k: Image() for k in images}}
        feats.update({k: Value(v) for k, v in cols.items() if k != "id"})
        if config == "cpa":  # closed vocabularies as ClassLabel; chartprobe reads names (release/labels.py)
            feats.update(criterion=class_label(DIMENSIONS), dimension=class_label(DIMENSIONS.values()))
        return Features(feats)

    def item_keys(self, preset: Preset, config: str, split: str) -> list[str]:
        params = preset.params(config)
        released = released_from_params(params)
        if released is not None:
            return released.keys(config, split)
        if config == "cpa":
            pairs = params["pairs"]
            unknown = sorted(set(pairs) - set(DIMENSIONS))
            if unknown:
                raise ValueError(f"unknown CPA criteria {unknown}; known: {sorted(DIMENSIONS)}")
            return [f"cpa-{c}-{i:04d}" for c in sorted(pairs) for i in range(pairs[c])]
        return [f"{config}-{split}-{i:04d}" for i in range(preset.configs[config].splits[split])]

    def build_item(self, preset: Preset, config: str, split: str, key: str) -> Iterator[dict]:
        # `datasets` writes columns in the rows' key order, not the features': order each row as
        # the features are, so the images sit right after the id in every file and in the viewer.
        order = list(self.features(config))
        for row in self._rows(preset, config, key):
            yield {**{k: row[k] for k in order if k in row}, **row}

    def _rows(self, preset: Preset, config: str, key: str) -> Iterator[dict]:
        released = released_from_params(preset.params(config))
        if released is not None:  # nothing sampled: no seed
            yield {"seed": None, "generator_version": GENERATOR_VERSION, **released.build_row(config, key)}
            return
        index = int(key.rsplit("-", 1)[1])
        base = {"seed": preset.seed, "generator_version": GENERATOR_VERSION, "data_source": "synthetic"}
        if config == "cpa":
            yield from self._cpa(preset.seed, key, index, base)
        else:
            yield from self._crj(preset.seed, config, key, index, base)

    @staticmethod
    def _cpa(seed: int, key: str, index: int, base: dict) -> Iterator[dict]:
        from .cpa import build_pair

        criterion = key.split("-")[1]
        pair = build_pair(seed, key, criterion, index)
        if pair is None:  # no attempt passed verification: the pair is dropped
            return
        yield {**base, "id": key, "pair_id": key, "criterion": criterion, "dimension": DIMENSIONS[criterion],
               "strategy": pair.strategy, "chart_kind": pair.better.kind,
               **_images(("image_better", "image_worse"), pair.rendered_better, pair.rendered_worse),
               "evidence": json.dumps(pair.evidence, sort_keys=True), "spec_better": pair.better.to_json(),
               "spec_worse": pair.worse.to_json()}

    @staticmethod
    def _crj(seed: int, config: str, key: str, index: int, base: dict) -> Iterator[dict]:
        from .editing import build_editing
        from .reproduction import REPRO_QUERY, build_reproduction

        task = CRJ_TASKS[config]
        item = (build_reproduction if task == "reproduction" else build_editing)(seed, key, index)
        if item is None:
            return
        instruction = item.get("instruction", "")
        yield {**base, "id": key, "item_id": key, "task": task, "instruction": instruction,
               "question": instruction or REPRO_QUERY, "answer": item["label"], "answer_type": "choice",
               "label": item["label"], "failure": item["failure"], "edit": item.get("edit", ""),
               "chart_kind": item["reference"].kind, "evidence": json.dumps(item["evidence"], sort_keys=True),
               **_images(("image_reference", "image_candidate"), item["r_reference"], item["r_candidate"]),
               "spec_reference": item["reference"].to_json(), "spec_candidate": item["candidate"].to_json()}

    def verify(self, built: dict[str, dict[str, Any]]) -> None:
        """CRJ is balanced Accept/Reject (50% ± 5%, or within half an item of it) per task; CPA
        covers every criterion asked for.

        Imported rows are the released labels as they are: their balance is reported by the card
        and ``chartprobe validate``, not enforced.
        """
        for config, splits in built.items():
            for split, ds in splits.items():
                if config in CRJ_TASKS and len(ds) and not imported(ds):
                    share = Counter(ds["label"])["Accept"] / len(ds)
                    lo, hi = balance_limits(len(ds))
                    if not lo <= share <= hi:
                        raise ValueError(f"{config}/{split}: Accept share {share:.3f} is not 50% ± 5% "
                                         f"(or as near half as {len(ds)} items allow)")
                if config == "cpa" and len(ds) == 0:
                    raise ValueError(f"cpa/{split} is empty: no pair passed verification")

    def card_extra(self, built: dict[str, dict[str, Any]]) -> str:
        return released_extra(built) or judge_card(built)

    def source_tags(self, preset: Preset) -> tuple[str, ...]:
        """``synthetic`` for our items; the released ChartJudgeBench data is not."""
        imported = any(c.params.get("released") for c in preset.configs.values())
        return ("chartjudgebench", "released-data") if imported else ("synthetic",)

    def card_inputs(self, preset: Preset) -> str:
        """The released ChartJudgeBench data a ``--released`` release imports: source, licence, mapping."""
        return released_inputs(preset)
