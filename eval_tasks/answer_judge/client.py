"""The LLM answer-equivalence judge (Chartographer A.7): released prompt, OpenAI-compatible client.

:class:`Judge` asks any OpenAI-compatible chat endpoint whether an extracted prediction is
equivalent to the gold answer, with the released ``COMPARE_ANSWER`` prompt
(:data:`PROMPT_NAME`, frozen in ``tasks/prompts/paper/``) filled as the released code fills it, at
temperature 0 with the paper's 128-token limit. It is built on the ``openai`` package (imported on
the first request, so a fully cached rerun never loads it):

- transient failures (connection errors, timeouts, 408/409/429 and 5xx) are retried by the
  client's own ``max_retries`` with exponential backoff (0.5 s doubling to 8 s, jittered, a
  server's ``Retry-After`` honoured); what still fails is a :class:`JudgeError` (the run stops:
  an unreachable judge is not a verdict);
- a reply is read by :func:`~chartprobe.eval_tasks.answer_judge.parse.parse_verdict`; one that states no
  single Yes/No is an *unparsable* verdict, counted wrong and counted in ``parse_fail``;
- replies are cached on disk (:mod:`~chartprobe.eval_tasks.answer_judge.cache`) and in memory, and
  :meth:`Judge.prefetch` asks for a batch in a thread pool of ``concurrency`` requests.

The API key lives only in :attr:`Judge.api_key` (kept out of ``repr``) and the client's
``Authorization`` header; it is never logged, cached or written to results.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from .cache import CachedReply, JudgeCache, cache_key, default_cache_dir
from .parse import parse_verdict

__all__ = ["DEFAULT_BASE_URL", "PAPER_JUDGE_MODEL", "PROMPT_NAME", "Judge", "JudgeDecision", "JudgeError",
           "fill_prompt", "prompt_sha256"]

PROMPT_NAME = "chartographer_compare_answer"
"""The released prompt (:func:`chartprobe.eval_tasks.scoring.paper_prompts.released_prompt`)."""
PAPER_JUDGE_MODEL = "gpt-4.1-mini"
"""The paper's primary judge (A.7)."""
DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "EMPTY"
"""Sent when no key is configured (local servers ignore it; the client refuses an empty key)."""


class JudgeError(RuntimeError):
    """The judge endpoint failed after its retries (or refused the request)."""


def fill_prompt(question: str, target: str, prediction: str) -> str:
    """The released prompt filled as ``evaluate_predictions.py`` fills it: three ``str.replace`` in order."""
    from ..scoring.paper_prompts import released_prompt

    return (released_prompt(PROMPT_NAME).replace("[QUESTION]", question)
            .replace("[ANSWER1]", target).replace("[ANSWER2]", prediction))


def prompt_sha256() -> str:
    """sha256 of the released prompt template (what results record as ``prompt_sha256``)."""
    from ..scoring.paper_prompts import RELEASED, released_prompt

    released_prompt(PROMPT_NAME)  # refuses a changed file
    return RELEASED[PROMPT_NAME][0]


@dataclass(frozen=True)
class JudgeDecision:
    """One equivalence decision."""

    correct: bool
    """Equivalent (verdict yes); an unparsable or empty answer is not."""
    verdict: str
    """``yes`` | ``no`` | ``unparsable`` (the reply stated no single Yes/No) | ``empty`` (no answer to judge)."""
    judge_id: str
    """``<requested model>@<model the server reported>`` (just the model when nothing was asked)."""
    cached: bool
    """Answered without a new request (disk cache, or the same prompt earlier in this run)."""


class _State:
    """A judge's per-process machinery: client, cache, the replies of this run, counters."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.client: Any = None
        self.cache: JudgeCache | None = None
        self.replies: dict[str, CachedReply] = {}
        self.fresh: set[str] = set()  # fetched by prefetch and not yet counted as a call
        self.counts = {"calls": 0, "cached": 0, "parse_fail": 0}


@dataclass(frozen=True)
class Judge:
    """An OpenAI-compatible chat endpoint used as the Yes/No equivalence judge (picklable: a worker
    process gets the configuration and builds its own client and cache connection)."""

    base_url: str = DEFAULT_BASE_URL
    """e.g. ``http://127.0.0.1:8000/v1`` (the client appends ``/chat/completions``)."""
    model: str = PAPER_JUDGE_MODEL
    api_key: str = field(default="", repr=False)
    """Kept out of ``repr``/``str`` (logs, tracebacks); sent only as the ``Authorization`` header."""
    timeout: float = 60.0
    """Seconds per request."""
    max_retries: int = 5
    """Retries of a transient failure (the ``openai`` client's exponential backoff)."""
    concurrency: int = 8
    """Requests in flight at once in :meth:`prefetch`."""
    cache_dir: str | None = None
    """Reply cache folder; None: :func:`~chartprobe.eval_tasks.answer_judge.cache.default_cache_dir`."""
    max_tokens: int = 128
    temperature: float = 0.0
    _state: _State = field(default_factory=_State, init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple:
        return (type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init))

    @property
    def decoding(self) -> dict[str, Any]:
        """The decoding parameters sent with every request (part of the cache key)."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens}

    def counts(self) -> dict[str, int]:
        """Requests made, decisions answered without one, unparsable verdicts, so far in this process."""
        with self._state.lock:
            return dict(self._state.counts)

    def decide(self, question: str, target: str, prediction: str) -> JudgeDecision:
        """Is ``prediction`` equivalent to ``target`` as an answer to ``question``?"""
        if not prediction.strip():  # nothing was extracted: wrong, without asking
            return JudgeDecision(False, "empty", self.model, True)
        key, prompt = self._key(question, target, prediction)
        reply, cached = self._reply(key, prompt)
        verdict = parse_verdict(reply.reply)
        with self._state.lock:
            self._state.counts["cached" if cached else "calls"] += 1
            self._state.counts["parse_fail"] += verdict is None
        return JudgeDecision(verdict == "yes", verdict or "unparsable", f"{self.model}@{reply.server_model}", cached)

    def prefetch(self, queries: Iterable[tuple[str, str, str]]) -> None:
        """Ask for every (question, target, prediction) not cached yet, ``concurrency`` at a time,
        so the :meth:`decide` calls that follow are answered from memory (the first failure raises)."""
        from concurrent.futures import ThreadPoolExecutor

        todo: dict[str, str] = {}
        for question, target, prediction in queries:
            if prediction.strip():
                key, prompt = self._key(question, target, prediction)
                if key not in self._state.replies and key not in todo and self._stored(key) is None:
                    todo[key] = prompt
        if not todo:
            return
        with ThreadPoolExecutor(max(1, min(self.concurrency, len(todo))), thread_name_prefix="judge") as pool:
            for key, reply in zip(todo, pool.map(self._ask, todo.values())):
                self._keep(key, reply, fresh=True)

    def _key(self, question: str, target: str, prediction: str) -> tuple[str, str]:
        prompt = fill_prompt(question, target, prediction)
        return cache_key(prompt, self.model, self.decoding), prompt

    def _cache(self) -> JudgeCache:
        with self._state.lock:
            if self._state.cache is None:
                self._state.cache = JudgeCache(self.cache_dir or default_cache_dir())
            return self._state.cache

    def _stored(self, key: str) -> CachedReply | None:
        """The reply of this run or of the disk cache (kept in memory once read)."""
        reply = self._state.replies.get(key)
        if reply is None:
            reply = self._cache().get(key)
            if reply is not None:
                self._state.replies[key] = reply
        return reply

    def _reply(self, key: str, prompt: str) -> tuple[CachedReply, bool]:
        """(reply, answered without a new request)."""
        reply = self._stored(key)
        if reply is not None:
            with self._state.lock:
                fresh = key in self._state.fresh
                self._state.fresh.discard(key)
            return reply, not fresh
        reply = self._ask(prompt)
        self._keep(key, reply, fresh=False)
        return reply, False

    def _keep(self, key: str, reply: CachedReply, fresh: bool) -> None:
        self._cache().put(key, self.model, reply)
        with self._state.lock:
            self._state.replies[key] = reply
            if fresh:
                self._state.fresh.add(key)

    def _client(self) -> Any:
        with self._state.lock:
            if self._state.client is None:
                import openai  # lazy: ~0.5 s, and a cached rerun needs none of it

                self._state.client = openai.OpenAI(base_url=self.base_url, api_key=self.api_key or NO_KEY,
                                                   timeout=self.timeout, max_retries=self.max_retries)
            return self._state.client

    def _ask(self, prompt: str) -> CachedReply:
        """One request (the client retries transient failures); a failure is a :class:`JudgeError`."""
        import openai

        try:
            response = self._client().chat.completions.create(
                model=self.model, messages=[{"role": "user", "content": prompt}], **self.decoding)
        except openai.OpenAIError as exc:
            raise JudgeError(f"judge request to {self.base_url} (model {self.model}) failed after "
                             f"{self.max_retries} retries: {type(exc).__name__}: {exc}") from None
        choices = getattr(response, "choices", None) or []
        text = (choices[0].message.content if choices and choices[0].message else None) or ""
        return CachedReply(text, str(getattr(response, "model", None) or "unknown"))
