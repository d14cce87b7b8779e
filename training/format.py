"""Probe rows -> TRL's conversational, vision prompt/completion format.

Each training example is ``{"image": <PIL image>, "prompt": [user turn], "completion":
[assistant turn]}``. TRL's ``DataCollatorForVisionLanguageModeling`` turns the single
``image`` into ``images=[image]``, puts one image placeholder before the user text, renders
both turns with the processor's chat template and masks the prompt out of the labels, so
the loss covers the answer (and the end-of-turn token) only.

The user text is the lm-eval task prompt (``eval_tasks/tasks/_probes_yaml``) minus the
``<image>`` placeholder: run lm-eval with ``--apply_chat_template`` and hf-multimodal builds
the very same chat (image part first, then the text), so training and evaluation prompts
are identical token for token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Must stay equal to the instruction in eval_tasks/tasks/_probes_yaml (a test checks it).
INSTRUCTION = "\nAnswer with the answer only."
KEEP = ("image", "prompt", "completion")


def prompt_text(question: str) -> str:
    """The user text for one probe question."""
    return f"{question}{INSTRUCTION}"


def to_prompt_completion(row: Mapping[str, Any]) -> dict[str, Any]:
    """Prompt/completion turns of one probe row (the image column is left as it is)."""
    return {
        "prompt": [{"role": "user", "content": prompt_text(row["question"])}],
        "completion": [{"role": "assistant", "content": str(row["answer"])}],
    }


def format_dataset(ds):
    """A ``datasets.Dataset`` of probe rows -> ``image`` + ``prompt`` + ``completion`` columns.

    ``input_columns`` keeps ``map`` away from the image column, so PNG bytes are neither
    decoded nor re-encoded here; TRL decodes each image when it builds a batch.
    """
    def turns(question: str, answer: str) -> dict[str, Any]:
        return to_prompt_completion({"question": question, "answer": answer})

    out = ds.map(turns, input_columns=["question", "answer"])
    return out.remove_columns([c for c in out.column_names if c not in KEEP])
