"""Model clients for construction calls: any OpenAI-compatible endpoint, or a local transformers VLM.

Each call is one user message: the stage prompt, then the images (the source chart first). Both
clients decode at temperature 0 by default (A.2: every construction call at temperature 0), and
:class:`CachedClient` wraps either one with the content cache (:mod:`.cache`) and per-stage
accounting: real calls, cache hits, prompt/completion tokens, seconds and cost (from the prices
given per million tokens; 0 when none were given).

The OpenAI client uses the ``openai`` package, with Chat Completions or the Responses API (images
at ``detail: "high"`` by default, as the paper ran GPT-5.2): its own retries with exponential
backoff on connection errors, 408/409/429 and 5xx (``max_retries``), a per-request ``timeout``, and
a semaphore for the concurrency limit (the pipeline runs charts in threads). A 400 that names a
parameter the model does not take (GPT-5.x: ``max_tokens``, a non-default ``temperature``) is
answered by sending it the other way for the rest of the run; any other 4xx fails that request
at once, and a run of failures stops further requests (:class:`OpenAIClient`).
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .cache import CallCache, request_key

__all__ = ["APIS", "DETAILS", "TOKEN_PARAMS", "CachedClient", "ModelClient", "ModelError", "OpenAIClient", "Reply",
           "StageUsage", "TransformersClient", "refused_parameter", "token_param_for"]


class ModelError(RuntimeError):
    """A construction call failed after its retries (one line: stage, model, why)."""


@dataclass(frozen=True)
class Reply:
    """A model's reply text and the tokens the endpoint reported for it."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    sent: dict[str, Any] | None = None
    """How the request went out (API, token-limit parameter, temperature, image detail), when known."""


class ModelClient(Protocol):
    """What the pipeline needs from a model: a name, decoding settings, and one call."""

    model: str

    def settings(self) -> dict[str, Any]: ...

    def complete(self, stage: str, text: str, images: list[bytes]) -> Reply: ...


def _data_url(image: bytes) -> str:
    kind = "png" if image.startswith(b"\x89PNG") else "jpeg"
    return f"data:image/{kind};base64,{base64.b64encode(image).decode()}"


APIS = ("chat", "responses")
"""``chat``: Chat Completions (what every OpenAI-compatible server speaks); ``responses``: the Responses
API, as the paper's released scripts call GPT-5.2 (``client.responses.create(..., store=False,
text={"format": {"type": "text"}})`` with ``input_image`` parts at ``"detail": "high"``:
compling-wat/Chartographer@1f02025c ``src/pipeline/reconstruction/chart_to_code.py``,
``diagnose_chart_issues.py``)."""
TOKEN_PARAMS = ("auto", "max_tokens", "max_completion_tokens")
DETAILS = ("high", "auto", "low", "none")
"""The image parts' ``detail`` (``none``: the field is not sent, as before this option existed)."""
RETRIED_STATUS = frozenset({408, 409, 429})
_COMPLETION_FAMILIES = re.compile(r"^(o\d|gpt-5)")
_REFUSAL = re.compile(r"unsupported|not supported|does not support|unrecognized|unknown (parameter|field|argument)"
                      r"|extra (inputs|fields)|not permitted|not allowed|only the default", re.IGNORECASE)
_FIXABLE = ("max_tokens", "max_completion_tokens", "max_output_tokens", "temperature", "detail")


def token_param_for(model: str) -> str:
    """``--token-param auto``: ``max_completion_tokens`` for the o-series and GPT-5 families (which answer
    ``max_tokens`` with HTTP 400), else ``max_tokens`` (what vLLM, TGI and older models read)."""
    name = model.rsplit("/", 1)[-1].lower()
    return "max_completion_tokens" if _COMPLETION_FAMILIES.match(name) else "max_tokens"


def refused_parameter(status: int, param: str | None, message: str) -> str | None:
    """The request parameter an HTTP 400 says the model does not take (None: not such a refusal).

    OpenAI names it in the error's ``param`` (``max_tokens``, ``temperature``) and in the message
    ("Unsupported parameter: 'max_tokens' is not supported with this model. Use
    'max_completion_tokens' instead."); other servers only in the message: the first name there.
    """
    if status != 400 or not _REFUSAL.search(message):
        return None
    named = (param or "").rsplit(".", 1)[-1]
    if named in _FIXABLE:
        return named
    found = [(m.start(), name) for name in _FIXABLE if (m := re.search(rf"\b{name}\b", message))]
    return min(found)[1] if found else None


def _without(plan: dict[str, Any], name: str | None) -> dict[str, Any] | None:
    """The request plan with ``name`` changed the way a refusal of it asks (None: nothing to change)."""
    swap = {"max_tokens": "max_completion_tokens", "max_completion_tokens": "max_tokens", "max_output_tokens": None}
    if name in swap and plan["token_param"] == name:
        return {**plan, "token_param": swap[name]}
    if name in ("temperature", "detail") and plan[name] is not None:
        return {**plan, name: None}
    return None


def _error_message(exc: Any) -> str:
    """The endpoint's own error message (OpenAI's ``error.message``), else the exception's text."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    return " ".join(str(message or exc).split())[:300]


@dataclass
class OpenAIClient:
    """Chat Completions or the Responses API against ``base_url`` (OpenAI, vLLM, TGI, ``transformers serve``, ...).

    The token limit goes out as ``token_param`` (``auto``: :func:`token_param_for`; the Responses API
    reads ``max_output_tokens``; ``max_tokens=0`` sends none, as the released scripts), ``temperature``
    unless it is None, and every image with ``detail`` unless it is ``"none"``. When an HTTP 400 names
    one of these as unsupported, the request is sent once more with the other spelling, without the
    temperature or without the detail, and the rest of the run sends it that way (``adjustments``
    says what changed and why). Other 4xx are not retried; connection errors, 408/409/429 and 5xx get
    the ``openai`` package's retries with backoff. After ``stop_after`` failed requests in a row (0:
    never) the rest are not sent, so an endpoint that refuses everything ends the run in seconds.
    """

    model: str
    base_url: str | None = None
    api_key: str | None = None
    temperature: float | None = 0.0
    max_tokens: int = 8192
    timeout: float = 300.0
    max_retries: int = 5
    concurrency: int = 4
    api: str = "chat"
    token_param: str = "auto"
    detail: str = "high"
    stop_after: int = 3
    adjustments: list[str] = field(default_factory=list)
    """What the endpoint refused this run and how the requests were changed, one line each."""
    failures: Counter[str] = field(default_factory=Counter)
    """Failed requests by the endpoint's answer (``HTTP 400: <its message>``)."""
    not_sent: int = 0
    _client: Any = field(default=None, repr=False)
    _gate: threading.BoundedSemaphore = field(default=None, repr=False)  # type: ignore[assignment]
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _plan: dict[str, Any] = field(default_factory=dict, repr=False)
    _streak: int = field(default=0, repr=False)
    _stopped: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        import os

        from openai import OpenAI

        for value, allowed, what in ((self.api, APIS, "api"), (self.token_param, TOKEN_PARAMS, "token_param"),
                                     (self.detail, DETAILS, "detail")):
            if value not in allowed:
                raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
        key = self.api_key or os.environ.get("OPENAI_API_KEY") or "none"  # local servers need none
        self._client = OpenAI(base_url=self.base_url, api_key=key, timeout=self.timeout, max_retries=self.max_retries)
        self._gate = threading.BoundedSemaphore(max(1, self.concurrency))
        limit = None if not self.max_tokens else "max_output_tokens" if self.api == "responses" else (
            token_param_for(self.model) if self.token_param == "auto" else self.token_param)
        self._plan = {"api": self.api, "token_param": limit, "temperature": self.temperature,
                      "detail": None if self.detail == "none" else self.detail}

    def settings(self) -> dict[str, Any]:
        """The decoding settings asked for (the cache key and the manifest): how the token limit is spelled
        is not among them, it changes no reply."""
        out: dict[str, Any] = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        if self.api != "chat":
            out["api"] = self.api
        if self.detail != "none":
            out["detail"] = self.detail
        return out

    @property
    def where(self) -> str:
        return f"{self.model} at {self.base_url or 'api.openai.com'}"

    def complete(self, stage: str, text: str, images: list[bytes]) -> Reply:
        import openai

        with self._gate:
            with self._lock:
                stopped = self._stopped
                self.not_sent += bool(stopped)
            if stopped:
                raise ModelError(f"stage {stage}: {stopped}")
            fixed: set[str] = set()
            while True:
                with self._lock:
                    plan = dict(self._plan)
                try:
                    reply = self._send(plan, text, images)
                except openai.APIStatusError as exc:
                    message, status = _error_message(exc), exc.status_code
                    name = refused_parameter(status, getattr(exc, "param", None), message)
                    better = _without(plan, name) if name and name not in fixed else None
                    if better is not None:  # one more try per refused parameter, then the run remembers it
                        fixed.add(name)  # type: ignore[arg-type]
                        self._learn(name, better, message)  # type: ignore[arg-type]
                        continue
                    retried = status in RETRIED_STATUS or status >= 500
                    raise self._failed(stage, f"HTTP {status}" + (f" after {self.max_retries} retries" if retried
                                                                   else "") + f": {message}") from None
                except openai.OpenAIError as exc:
                    raise self._failed(stage, f"failed after {self.max_retries} retries ({type(exc).__name__}: "
                                              f"{_error_message(exc)[:200]})") from None
                with self._lock:
                    self._streak = 0
                return reply

    def _learn(self, name: str, better: dict[str, Any], message: str) -> None:
        key = name if name in ("temperature", "detail") else "token_param"
        with self._lock:
            if self._plan[key] == better[key]:
                return  # another request learned it first
            self._plan[key] = better[key]
            now = f"sending {better[key]}" if better[key] else "not sending it"
            self.adjustments.append(f"{name} refused ({message[:160]}): {now}")

    def _failed(self, stage: str, why: str) -> ModelError:
        with self._lock:
            self._streak += 1
            self.failures[why] += 1
            if self.stop_after and self._streak >= self.stop_after and not self._stopped:
                self._stopped = f"not sent: {self.where} failed {self._streak} requests in a row (the last: {why})"
        return ModelError(f"stage {stage}: {self.where}: {why}")

    def _send(self, plan: dict[str, Any], text: str, images: list[bytes]) -> Reply:
        urls = [_data_url(im) for im in images]
        extra: dict[str, Any] = {} if plan["temperature"] is None else {"temperature": plan["temperature"]}
        if plan["token_param"]:
            extra[plan["token_param"]] = self.max_tokens
        detail = {} if plan["detail"] is None else {"detail": plan["detail"]}
        sent = {"api": plan["api"], "token_param": plan["token_param"], "temperature": plan["temperature"],
                "detail": plan["detail"]}
        if plan["api"] == "responses":
            content = [{"type": "input_text", "text": text}] + [
                {"type": "input_image", "image_url": url, **detail} for url in urls]
            resp = self._client.responses.create(model=self.model, input=[{"role": "user", "content": content}],
                                                 store=False, text={"format": {"type": "text"}}, **extra)
            usage = resp.usage
            return Reply(resp.output_text or "", getattr(usage, "input_tokens", 0) or 0,
                         getattr(usage, "output_tokens", 0) or 0, sent)
        content = [{"type": "text", "text": text}] + [
            {"type": "image_url", "image_url": {"url": url, **detail}} for url in urls]
        resp = self._client.chat.completions.create(model=self.model, messages=[{"role": "user", "content": content}],
                                                    **extra)
        usage = resp.usage
        return Reply(resp.choices[0].message.content or "", getattr(usage, "prompt_tokens", 0) or 0,
                     getattr(usage, "completion_tokens", 0) or 0, sent)


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
        self._sent: set[str] = set()
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
            if reply.sent is not None:
                entry["sent"] = reply.sent
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
            if isinstance(entry.get("sent"), dict):
                self._sent.add(json.dumps(entry["sent"], sort_keys=True))
        return entry["reply"]

    def sent(self) -> list[dict[str, Any]]:
        """How the replies this run used went out (API, token-limit parameter, temperature, detail), each
        way once; read from the cache entries too, so a cached re-run reports the same."""
        with self._lock:
            return [json.loads(x) for x in sorted(self._sent)]

    def report(self, *, construction_only: bool = False) -> dict[str, dict[str, Any]]:
        """Per-stage accounting as plain dicts; ``construction_only``: the fields a cached re-run
        reproduces (the manifest's ``usage``), not this run's calls, hits and seconds."""
        keep = StageUsage.CONSTRUCTION if construction_only else None
        return {stage: {k: (round(v, 6) if isinstance(v, float) else v) for k, v in asdict(u).items()
                        if keep is None or k in keep} for stage, u in sorted(self.usage.items())}
