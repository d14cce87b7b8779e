"""Model clients for construction calls: any OpenAI-compatible endpoint, or a local transformers VLM.

Each call is one user message: the stage prompt, then the images (the source chart first). Both
clients decode at temperature 0 by default (A.2: every construction call at temperature 0), and
:class:`CachedClient` wraps either one with the content cache (:mod:`.cache`) and per-stage
accounting: real calls, cache hits, prompt/completion tokens, seconds and cost (from the prices
given per million tokens; 0 when none were given).

The OpenAI client uses the ``openai`` package: its own retries with exponential backoff on
connection errors, 408/409/429 and 5xx (``max_retries``), a per-request ``timeout``, and a
semaphore for the concurrency limit (the pipeline runs charts in threads).
"""

from __future__ import annotations

import base64
import threading
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .cache import CallCache, request_key

__all__ = ["CachedClient", "ModelClient", "ModelError", "OpenAIClient", "Reply", "StageUsage", "TransformersClient"]


class ModelError(RuntimeError):
    """A construction call failed after its retries (one line: stage, model, why)."""


@dataclass(frozen=True)
class Reply:
    """A model's reply text and the tokens the endpoint reported for it."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ModelClient(Protocol):
    """What the pipeline needs from a model: a name, decoding settings, and one call."""

    model: str

    def settings(self) -> dict[str, Any]: ...

    def complete(self, stage: str, text: str, images: list[bytes]) -> Reply: ...


def _data_url(image: bytes) -> str:
    kind = "png" if image.startswith(b"\x89PNG") else "jpeg"
    return f"data:image/{kind};base64,{base64.b64encode(image).decode()}"


@dataclass
class OpenAIClient:
    """Chat completions against ``base_url`` (OpenAI, vLLM, TGI, ``transformers serve``, ...)."""

    model: str
    base_url: str | None = None
    api_key: str | None = None
    temperature: float = 0.0
    max_tokens: int = 8192
    timeout: float = 300.0
    max_retries: int = 5
    concurrency: int = 4
    _client: Any = field(default=None, repr=False)
    _gate: threading.BoundedSemaphore = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        import os

        from openai import OpenAI

        key = self.api_key or os.environ.get("OPENAI_API_KEY") or "none"  # local servers need none
        self._client = OpenAI(base_url=self.base_url, api_key=key, timeout=self.timeout, max_retries=self.max_retries)
        self._gate = threading.BoundedSemaphore(max(1, self.concurrency))

    def settings(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens}

    def complete(self, stage: str, text: str, images: list[bytes]) -> Reply:
        import openai

        content = [{"type": "text", "text": text}] + [
            {"type": "image_url", "image_url": {"url": _data_url(im)}} for im in images]
        with self._gate:
            try:
                resp = self._client.chat.completions.create(
                    model=self.model, messages=[{"role": "user", "content": content}],
                    temperature=self.temperature, max_tokens=self.max_tokens)
            except openai.OpenAIError as exc:
                raise ModelError(f"stage {stage}: {self.model} at {self.base_url or 'api.openai.com'} failed after "
                                 f"{self.max_retries} retries ({type(exc).__name__}: {str(exc)[:200]})") from None
        usage = resp.usage
        return Reply(resp.choices[0].message.content or "", getattr(usage, "prompt_tokens", 0) or 0,
                     getattr(usage, "completion_tokens", 0) or 0)


@dataclass
class TransformersClient:
    """A local ``transformers`` VLM (``AutoModelForImageTextToText`` + its processor), greedy by default."""

    model: str
    max_tokens: int = 4096
    device: str = "cpu"
    _parts: Any = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def settings(self) -> dict[str, Any]:
        return {"temperature": 0.0, "max_tokens": self.max_tokens, "backend": "transformers"}

    def _load(self) -> Any:
        if self._parts is None:
            from transformers import AutoModelForImageTextToText, AutoProcessor

            processor = AutoProcessor.from_pretrained(self.model)
            net = AutoModelForImageTextToText.from_pretrained(self.model).to(self.device).eval()
            self._parts = (processor, net)
        return self._parts

    def complete(self, stage: str, text: str, images: list[bytes]) -> Reply:
        import io

        import torch
        from PIL import Image

        with self._lock:  # one generate at a time: the model is shared by the pipeline's threads
            processor, net = self._load()
            pics = [Image.open(io.BytesIO(im)).convert("RGB") for im in images]
            messages = [{"role": "user", "content": [*({"type": "image"} for _ in pics), {"type": "text", "text": text}]}]
            prompt = processor.apply_chat_template(messages, add_generation_prompt=True)
            inputs = processor(images=pics or None, text=prompt, return_tensors="pt").to(self.device)
            with torch.no_grad():
                out = net.generate(**inputs, max_new_tokens=self.max_tokens, do_sample=False)
            new = out[0, inputs["input_ids"].shape[1]:]
            return Reply(processor.decode(new, skip_special_tokens=True), int(inputs["input_ids"].shape[1]), len(new))


@dataclass
class StageUsage:
    """One stage's accounting. ``requests`` and the tokens and cost count every request of the run,
    answered by the model or by the cache (tokens as the model reported them when it answered), so
    a cached re-run records the same construction cost; ``calls``/``cached``/``seconds`` are this
    run's own."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    cached: int = 0
    seconds: float = 0.0

    CONSTRUCTION = ("requests", "prompt_tokens", "completion_tokens", "cost_usd")


class CachedClient:
    """A client behind the content cache, counting calls, hits, tokens, time and cost per stage."""

    def __init__(self, inner: ModelClient, cache_dir: str | Path, *, price_in: float = 0.0,
                 price_out: float = 0.0) -> None:
        self.inner, self.cache = inner, CallCache(Path(cache_dir))
        self.price_in, self.price_out = price_in, price_out
        self.usage: dict[str, StageUsage] = defaultdict(StageUsage)
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def calls(self) -> int:
        """Model calls made (cache hits excluded)."""
        return sum(u.calls for u in self.usage.values())

    def complete(self, stage: str, text: str, images: list[bytes]) -> str:
        """The reply text for this exact request: from the cache, else from the model (then cached)."""
        key = request_key(self.inner.model, self.inner.settings(), stage, text, images)
        entry = self.cache.get(key)
        spent, hit = 0.0, entry is not None
        if entry is None:
            start = time.monotonic()
            reply = self.inner.complete(stage, text, images)
            spent = time.monotonic() - start
            entry = {"reply": reply.text, "model": self.inner.model, "stage": stage,
                     "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}}
            self.cache.put(key, entry)
        tokens = entry.get("usage") or {}
        p_in, p_out = int(tokens.get("prompt_tokens", 0)), int(tokens.get("completion_tokens", 0))
        with self._lock:
            u = self.usage[stage]
            u.requests += 1
            u.prompt_tokens += p_in
            u.completion_tokens += p_out
            u.cost_usd += (p_in * self.price_in + p_out * self.price_out) / 1e6
            u.cached += hit
            u.calls += not hit
            u.seconds += spent
        return entry["reply"]

    def report(self, *, construction_only: bool = False) -> dict[str, dict[str, Any]]:
        """Per-stage accounting as plain dicts; ``construction_only``: the fields a cached re-run
        reproduces (the manifest's ``usage``), not this run's calls, hits and seconds."""
        keep = StageUsage.CONSTRUCTION if construction_only else None
        return {stage: {k: (round(v, 6) if isinstance(v, float) else v) for k, v in asdict(u).items()
                        if keep is None or k in keep} for stage, u in sorted(self.usage.items())}
