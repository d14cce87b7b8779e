"""``chartprobe-chat-completions``: lm-eval's ``local-chat-completions`` with images where the prompt puts them.

lm-eval 0.4.13 sends every image of a document *before* the text of the last message
(``lm_eval.models.api_models.create_image_prompt``), whatever the prompt says. The released
ChartJudgeBench protocol interleaves them ("Image A:" <image> "Image B:" <image> ...), and the
``chartprobe_*_paper`` tasks must ask an API model the same way. This model class takes the
same ``--model_args`` as ``local-chat-completions`` plus ``interleave`` (default True): the
text is split at each ``<image>`` placeholder and the images go in between, in order, as
``hf-multimodal`` does with ``interleave=True``. A placeholder count that differs from the
image count is refused, like ``hf-multimodal`` refuses it.

``chartprobe eval`` registers it (lm-eval has no plugin entry point for models); from Python,
``import chartprobe.eval_tasks.harness.interleaved_chat`` before calling lm-eval.
"""

from __future__ import annotations

from typing import Any

from lm_eval.api.registry import register_model
from lm_eval.models.openai_completions import LocalChatCompletion

__all__ = ["IMAGE_PLACEHOLDER", "InterleavedChatCompletion", "interleave_content"]

IMAGE_PLACEHOLDER = "<image>"  # lm-eval's DEFAULT_IMAGE_PLACEHOLDER, which hf-multimodal splits on


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def interleave_content(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Message parts with each image moved to its placeholder in the text parts (in order)."""
    images = [p for p in content if p.get("type") == "image_url"]
    texts = [p for p in content if p.get("type") != "image_url"]
    marks = sum(p.get("text", "").count(IMAGE_PLACEHOLDER) for p in texts)
    if marks == 0:
        return content
    if marks != len(images):
        raise ValueError(f"the prompt has {marks} {IMAGE_PLACEHOLDER} placeholders for {len(images)} images "
                         "(set max_images to the task's image count)")
    queue = iter(images)
    out: list[dict[str, Any]] = []
    for part in texts:
        pieces = part.get("text", "").split(IMAGE_PLACEHOLDER)
        for i, piece in enumerate(pieces):
            if piece:
                out.append({**part, "text": piece})
            if i < len(pieces) - 1:
                out.append(next(queue))
    return out


def _strip_placeholders(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**p, "text": p["text"].replace(IMAGE_PLACEHOLDER, "")} if p.get("type") == "text" else p
            for p in content]


@register_model("chartprobe-chat-completions")
class InterleavedChatCompletion(LocalChatCompletion):
    """OpenAI-compatible chat completions that keep the prompt's image positions (see module docstring)."""

    def __init__(self, *args: Any, interleave: Any = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.interleave = _truthy(interleave)

    def _create_payload(self, messages: list[dict], *args: Any, **kwargs: Any) -> dict:
        arrange = interleave_content if self.interleave else _strip_placeholders
        messages = [{**m, "content": arrange(m["content"])} if isinstance(m.get("content"), list) else m
                    for m in messages]
        return super()._create_payload(messages, *args, **kwargs)
