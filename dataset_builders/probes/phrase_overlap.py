"""Word 4-grams shared between phrasings: out-of-template questions must not reuse trained wording.

A model trained on the probes has seen their wording thousands of times; a held-out question
that reuses a stretch of it ("of all the values", "how many more ... are there") tests recall
of a phrase as much as transfer. So the out-of-template phrasings (:mod:`.phrase_bank_ood`)
must share **no word 4-gram** with any trained template's phrasing.

Normalisation, applied to both sides:

- a phrasing's ``{slot}`` is filled with the slot word of every chart kind the template
  applies to (``{nouns}`` -> "bars", "segments"; scenes: "objects"; the bank's ``{route}``),
  once per kind (:func:`kind_words`); a slot
  the kind's words do not fill (``{label}``, ``{a_things}``) becomes the single token
  ``<slot>``, so "the value of {label}" and "the value of {a}" *do* share "the value of
  <slot>" (two slots are never told apart: stricter, never looser);
- a perception template's phrasing is preceded by its instruction (``axis_hint``), as it is
  asked;
- text is lower-cased and cut into words: maximal runs of letters and digits, apostrophes
  inside a word kept ("category's", "o'clock"); all other punctuation is dropped;
- a 4-gram is four consecutive words of one phrasing (never across two phrasings).

Emitted questions (slots filled with real category names) are checked the same way against the
trained 4-grams (:func:`shared_with_text`); a trained 4-gram holding ``<slot>`` can never occur
in real text, so that check only sees literal wording.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.chartview import GEOMETRIES
from ..core.scenes.view import WORDS as SCENE_WORDS
from .phrase_bank_ood import OOD_WORDS

__all__ = [
    "SLOT",
    "N",
    "kind_words",
    "ngrams",
    "phrasing_texts",
    "shared_ngram",
    "shared_with_text",
    "tokens",
    "trained_ngrams",
]

N = 4
SLOT = "<slot>"
_WORD = re.compile(r"<slot>|[a-z0-9]+(?:'[a-z0-9]+)*")


def kind_words() -> dict[str, Mapping[str, str]]:
    """Slot words of every kind a probe template can apply to: the view's geometry words (charts
    and scenes) plus the out-of-template bank's own (keys no trained phrasing uses)."""
    views = {**{kind: g.words for kind, g in GEOMETRIES.items()}, "shapes": SCENE_WORDS}
    return {kind: {**words, **OOD_WORDS.get(kind, {})} for kind, words in views.items()}


def _fill(pattern: str, words: Mapping[str, str]) -> str:
    """``pattern`` with its slots filled from ``words`` (the rest: ``<slot>``)."""
    out = []
    for literal, field, _spec, _conv in string.Formatter().parse(pattern):
        out.append(literal)
        if field is not None:
            out.append(f" {words[field]} " if field in words else f" {SLOT} ")
    return "".join(out)


def tokens(text: str) -> tuple[str, ...]:
    """Lower-cased words of ``text`` (see the module docstring)."""
    return tuple(_WORD.findall(text.lower()))


def ngrams(text: str, n: int = N) -> set[tuple[str, ...]]:
    """The word ``n``-grams of one text."""
    words = tokens(text)
    return {words[i:i + n] for i in range(len(words) - n + 1)}


def phrasing_texts(template: Any) -> list[str]:
    """Every phrasing of ``template`` as asked, filled once per kind it applies to."""
    by_kind = kind_words()
    out = []
    for kind in template.kinds:
        words = by_kind.get(kind, {})
        hint = words.get(template.hint, "") if template.skill == "perception" else ""
        out += [f"{hint} {_fill(p, words)}".strip() for p in template.phrasings]
    return out


def trained_ngrams(templates: Iterable[Any]) -> dict[tuple[str, ...], str]:
    """4-gram -> the (alphabetically first) template among ``templates`` whose phrasing has it."""
    out: dict[tuple[str, ...], str] = {}
    for t in sorted(templates, key=lambda t: t.name):
        for text in phrasing_texts(t):
            for gram in ngrams(text):
                out.setdefault(gram, t.name)
    return out


def shared_ngram(template: Any, trained: Mapping[tuple[str, ...], str]) -> tuple[str, str] | None:
    """(4-gram, trained template) of the first shared 4-gram of ``template``'s phrasings, or None."""
    for text in phrasing_texts(template):
        for gram in sorted(ngrams(text)):
            if gram in trained:
                return " ".join(gram), trained[gram]
    return None


def shared_with_text(text: str, trained: Mapping[tuple[str, ...], str]) -> tuple[str, str] | None:
    """(4-gram, trained template) of the first trained 4-gram in an emitted question, or None."""
    for gram in sorted(ngrams(text)):
        if gram in trained:
            return " ".join(gram), trained[gram]
    return None
