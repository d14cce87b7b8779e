"""Benchmark rows -> TRL's conversational, vision prompt/completion format.

Each training example is ``{"image": <PIL image>, "prompt": [user turn], "completion":
[assistant turn]}``. TRL's ``DataCollatorForVisionLanguageModeling`` turns the single
``image`` into ``images=[image]``, puts one image placeholder before the user text, renders
both turns with the processor's chat template and masks the prompt out of the labels, so
the loss covers the answer (and the end-of-turn token) only.

The user text is the benchmark's lm-eval task prompt minus the ``<image>`` placeholder
(:meth:`chartprobe.training.regions.RegionSet.prompt`: ChartProbe's
``eval_tasks/harness/tasks/_probes_yaml``, LegendBench's frozen ``prompts/legend.txt``): run lm-eval with
``--apply_chat_template`` and hf-multimodal builds the very same chat (image part first, then
the text), so training and evaluation prompts are identical token for token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .regions import RegionSet, get_region_set
from .regions.probes import INSTRUCTION

__all__ = ["INSTRUCTION", "KEEP", "format_dataset", "prompt_text", "to_prompt_completion"]

KEEP = ("image", "prompt", "completion")


def prompt_text(question: str, regions: RegionSet | None = None) -> str:
    """The user text for one question (ChartProbe's unless ``regions`` says otherwise)."""
    return (regions or get_region_set("probes")).prompt({"question": question})


def to_prompt_completion(row: Mapping[str, Any], regions: RegionSet | None = None) -> dict[str, Any]:
    """Prompt/completion turns of one row (the image column is left as it is)."""
    return {
        "prompt": [{"role": "user", "content": prompt_text(row["question"], regions)}],
        "completion": [{"role": "assistant", "content": str(row["answer"])}],
    }


def format_dataset(ds, regions: RegionSet | None = None):
    """A ``datasets.Dataset`` of rows -> ``image`` + ``prompt`` + ``completion`` columns.

    ``input_columns`` keeps ``map`` away from the image column, so PNG bytes are neither
    decoded nor re-encoded here; TRL decodes each image when it builds a batch.
    """
    regions = regions or get_region_set("probes")

    def turns(question: str, answer: str) -> dict[str, Any]:
        return to_prompt_completion({"question": question, "answer": answer}, regions)

    out = ds.map(turns, input_columns=["question", "answer"])
    return out.remove_columns([c for c in out.column_names if c not in KEEP])
