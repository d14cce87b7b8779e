"""Reading a Yes/No verdict out of an answer-equivalence judge's reply.

The released Chartographer code (``evaluate_predictions.py``) counts a reply as "equivalent"
when the substring ``yes`` occurs anywhere in it, so "No, not yes" and "eyes" count as Yes and an
empty reply as No. We read the verdict as a word instead and say when there is none:

- reasoning is dropped first: ``<think>...</think>`` blocks, everything up to a stray closing
  ``</think>`` (servers that strip the opening tag), and an unclosed ``<think>`` with what follows
  it (the reasoning ran out of tokens before a verdict);
- the rest is read as lower-case words, so markdown (``**No**``), punctuation (``Yes.``), quotes,
  ``\\boxed{Yes}`` and a leading ``Answer:`` / ``Final answer:`` need no rule of their own;
- exactly one of the words ``yes`` / ``no`` is a verdict ("yes, they are equivalent"); both or
  neither ("Yes or No", "They match", "") is *unparsable*: the record counts as wrong and the
  scorer reports it in ``parse_fail``, and the run goes on.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Verdict", "parse_verdict"]

Verdict = Literal["yes", "no"]

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")


def _without_reasoning(text: str) -> str:
    text = _THINK_BLOCK.sub(" ", text)
    text = _THINK_CLOSE.split(text)[-1]  # a closing tag without its opening one ends the reasoning
    return _THINK_OPEN.split(text)[0]  # an unclosed block: only what came before it is an answer


def parse_verdict(reply: str | None) -> Verdict | None:
    """``"yes"`` / ``"no"`` when the reply states exactly one of them as a word, else None (unparsable)."""
    words = set(_WORD.findall(_without_reasoning(reply or "").lower()))
    found = words & {"yes", "no"}
    return found.pop() if len(found) == 1 else None  # type: ignore[return-value]
