"""``chartprobe-chat-completions``: lm-eval's ``local-chat-completions`` with images where the prompt puts them.

lm-eval 0.4.13 sends every image of a document *before* the text of the last message
(``lm_eval.models.api_models.create_image_prompt``), whatever the prompt says. The released
ChartJudgeBench protocol interleaves them ("Image A:" <image> "Image B:" <image> ...), and the
``chartprobe_*_paper`` tasks must ask an API model the same way. This model class takes the
same ``--model_args`` as ``local-chat-completions`` plus ``interleave`` (default True): the
text is split at each ``<image>`` placeholder and the images go in between, in order, as
``hf-multimodal`` does with ``interleave=True``. A placeholder count that differs from the
image count is refused, like ``hf-multimodal`` refuses it.

Two more arguments say how decoding settings are sent, for endpoints that refuse lm-eval's
(GPT-5.x and the o-series answer ``max_tokens`` and a non-default ``temperature`` with HTTP 400):

- ``token_param``: ``auto`` (default: ``max_completion_tokens`` for o-series / ``gpt-5*`` model
  names, ``max_tokens`` otherwise, as ``chartprobe reconstruct --token-param auto``),
  ``max_tokens``, ``max_completion_tokens``, or ``none`` (no limit sent, as Chartographer's released
  API client);
- ``temperature_param``: ``auto`` (default: left out for those model names, sent otherwise),
  ``send``, or ``none`` (left out, as Chartographer's released API client).

``chartprobe eval`` registers it (lm-eval has no plugin entry point for models); from Python,
``import chartprobe.eval_tasks.harness.interleaved_chat`` before calling lm-eval.
"""

from __future__ import annotations

from typing import Any

from chartprobe.dataset_builders.families.reconstruct.client import token_param_for
from chartprobe.eval_tasks.rescoring.data import truthy
from lm_eval.api.registry import register_model
from lm_eval.models.openai_completions import LocalChatCompletion

__all__ = ["IMAGE_PLACEHOLDER", "TEMPERATURE_PARAMS", "TOKEN_PARAMS", "InterleavedChatCompletion",
           "decoding_fields", "interleave_content"]

IMAGE_PLACEHOLDER = "<image>"  # lm-eval's DEFAULT_IMAGE_PLACEHOLDER, which hf-multimodal splits on


TOKEN_PARAMS = ("auto", "max_tokens", "max_completion_tokens", "none")
TEMPERATURE_PARAMS = ("auto", "send", "none")


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in allowed:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(allowed)}")
    return text


def decoding_fields(payload: dict[str, Any], model: str, token_param: str, temperature_param: str) -> dict[str, Any]:
    """``payload`` with its token limit named (or dropped) per ``token_param`` and its temperature kept
    or dropped per ``temperature_param`` (see the module docstring). Fields set to None and an empty
    ``stop`` list (no stop string: the same request; reasoning models refuse ``stop``) are dropped."""
    out = {k: v for k, v in payload.items() if v is not None and not (k == "stop" and v == [])}
    limit = out.pop("max_tokens", None)
    completion_family = token_param_for(model) != "max_tokens"  # o-series / gpt-5: refuse both fields
    name = ("max_completion_tokens" if completion_family else "max_tokens") if token_param == "auto" else token_param
    if limit is not None and name != "none":
        out[name] = limit
    if temperature_param == "none" or (temperature_param == "auto" and completion_family):
        out.pop("temperature", None)
    return out


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

    def __init__(self, *args: Any, interleave: Any = True, token_param: str = "auto", temperature_param: str = "auto",
                 **kwargs: Any) -> None:
        self.token_param = _choice("token_param", token_param, TOKEN_PARAMS)  # refused before any setup
        self.temperature_param = _choice("temperature_param", temperature_param, TEMPERATURE_PARAMS)
        super().__init__(*args, **kwargs)
        self.interleave = truthy(interleave)

    def _create_payload(self, messages: list[dict], *args: Any, **kwargs: Any) -> dict:
        arrange = interleave_content if self.interleave else _strip_placeholders
        messages = [{**m, "content": arrange(m["content"])} if isinstance(m.get("content"), list) else m
                    for m in messages]
        payload = super()._create_payload(messages, *args, **kwargs)
        return decoding_fields(payload, str(self.model), self.token_param, self.temperature_param)
