"""Optional LLM-judge answer equivalence (Chartographer A.7, following ChartMuseum).

The default scorer is the typed one (``chartprobe.eval_tasks.scoring``). Users who want the paper's
protocol point this module at any OpenAI-compatible ``/v1/chat/completions`` endpoint:

    CHARTPROBE_JUDGE_BASE_URL=https://api.openai.com/v1  CHARTPROBE_JUDGE_MODEL=gpt-4.1-mini \
    CHARTPROBE_JUDGE_API_KEY=...  lm_eval ... --tasks chartprobe_families

The judge gets the paper's prompt (question, target, extracted prediction; reply exactly
Yes or No), temperature 0 and a 128-token limit, and returns a binary decision. The judge
identity (requested model and the model/version the server reports) is recorded on every
scored record so results name the judge they were computed with. Standard library only.
"""

from __future__ import annotations

import json
import os
import urllib.request
from dataclasses import dataclass, field

__all__ = ["JUDGE_PROMPT", "Judge", "JudgeError", "judge_from_env"]

JUDGE_PROMPT = (
    "You are judging whether two answers to a chart question are equivalent. Ignore superficial "
    "formatting, capitalization and unit-formatting differences that do not change the answer. "
    "Judge numbers by value, not by string; exact calendar dates and explicitly labeled years must "
    "match; values read from an axis may differ slightly when they are visually indistinguishable "
    "at the chart's resolution. Named entities, categorical labels and ordinal choices must match. "
    "When the question asks for multiple items, Answer 2 must contain the required set of items "
    "without adding contradictory answers.\n\n"
    "Question: {question}\nAnswer 1: {target}\nAnswer 2: {prediction}\n\n"
    "Are Answer 1 and Answer 2 equivalent? Return exactly Yes or No without explanation.")


class JudgeError(RuntimeError):
    """The judge endpoint failed or answered something other than Yes/No."""


@dataclass(frozen=True)
class Judge:
    """An OpenAI-compatible chat endpoint used as a Yes/No equivalence judge."""

    base_url: str
    """e.g. ``http://127.0.0.1:8000/v1`` (``/chat/completions`` is appended)."""
    model: str
    api_key: str = field(default="", repr=False)
    """Sent only as the ``Authorization`` header; kept out of ``repr``/``str`` (logs, tracebacks)."""
    timeout: float = 60.0

    def decide(self, question: str, target: str, prediction: str) -> tuple[bool, str]:
        """(equivalent?, judge id ``<requested model>@<model the server reports>``)."""
        body = {"model": self.model, "temperature": 0, "max_tokens": 128,
                "messages": [{"role": "user", "content": JUDGE_PROMPT.format(
                    question=question, target=target, prediction=prediction)}]}
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(f"{self.base_url.rstrip('/')}/chat/completions",
                                         data=json.dumps(body).encode(), headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                reply = json.load(response)
        except OSError as exc:
            raise JudgeError(f"judge request to {self.base_url} failed: {exc}") from exc
        text = (reply["choices"][0]["message"]["content"] or "").strip().strip(".").lower()
        if text not in ("yes", "no"):
            raise JudgeError(f"judge answered {text[:80]!r}, expected Yes or No")
        return text == "yes", f"{self.model}@{reply.get('model', 'unknown')}"


def judge_from_env() -> Judge | None:
    """The judge configured by ``CHARTPROBE_JUDGE_BASE_URL`` / ``_MODEL`` / ``_API_KEY``, or None."""
    base_url, model = os.environ.get("CHARTPROBE_JUDGE_BASE_URL"), os.environ.get("CHARTPROBE_JUDGE_MODEL")
    if not (base_url and model):
        return None
    return Judge(base_url=base_url, model=model, api_key=os.environ.get("CHARTPROBE_JUDGE_API_KEY", ""))
