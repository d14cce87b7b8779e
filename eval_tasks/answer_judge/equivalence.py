"""Optional LLM-judge answer equivalence (Chartographer A.7, following ChartMuseum): how to turn it on.

The default scorer is the typed one (``chartprobe.eval_tasks.scoring.typed``). The paper's protocol is
an LLM judge asked, with the released ``COMPARE_ANSWER`` prompt, whether the extracted prediction
is equivalent to the gold (:mod:`chartprobe.eval_tasks.answer_judge.client`). Two ways to use it:

- rescoring saved predictions: ``chartprobe score --predictions ... --judge --judge-model gpt-4.1-mini``
  (``--judge-base-url``, ``--judge-api-key-env``, ``--judge-cache``, ``--judge-concurrency``);
- inside lm-eval: set ``CHARTPROBE_JUDGE_BASE_URL`` / ``CHARTPROBE_JUDGE_MODEL`` (and
  ``CHARTPROBE_JUDGE_API_KEY``; ``CHARTPROBE_JUDGE_CACHE`` moves the reply cache) and run the
  family tasks; each scored record names its judge (``<model>@<server model>``).

Either way the judge decides only ``correct``; stale vs noisy updates still compare the typed
normalized answers (A.7/A.8).
"""

from __future__ import annotations

import functools
import os

from .client import Judge, JudgeDecision, JudgeError

__all__ = ["ENV_API_KEY", "ENV_BASE_URL", "ENV_MODEL", "Judge", "JudgeDecision", "JudgeError", "judge_from_env"]

ENV_BASE_URL = "CHARTPROBE_JUDGE_BASE_URL"
ENV_MODEL = "CHARTPROBE_JUDGE_MODEL"
ENV_API_KEY = "CHARTPROBE_JUDGE_API_KEY"


@functools.lru_cache(maxsize=4)
def _judge(base_url: str, model: str, api_key: str, cache_dir: str | None) -> Judge:
    return Judge(base_url=base_url, model=model, api_key=api_key, cache_dir=cache_dir)


def judge_from_env() -> Judge | None:
    """The judge configured by ``CHARTPROBE_JUDGE_BASE_URL`` / ``_MODEL`` / ``_API_KEY``, or None.

    lm-eval calls ``process_results`` once per document: the same configuration gives the same
    :class:`Judge` (one client, one cache connection, one in-memory reply table) every time.
    """
    base_url, model = os.environ.get(ENV_BASE_URL), os.environ.get(ENV_MODEL)
    if not (base_url and model):
        return None
    from .cache import CACHE_ENV

    return _judge(base_url, model, os.environ.get(ENV_API_KEY, ""), os.environ.get(CACHE_ENV) or None)
