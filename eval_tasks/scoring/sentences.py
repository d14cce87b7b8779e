"""The strict rule for free-text (sentence) golds: "correct" only where a careful grader agrees.

A prediction is **correct** when, after :func:`norm_text`, it equals the gold, or when all of:

- every content word of the gold is in the prediction (up to a simple inflection: "spans" ~ "span");
- every content word of the prediction is in the gold or is answer filler ("answer", "chart", "shows");
  so an extra entity ("Reading comics and watching TV ...") is never accepted;
- the numbers and the periods (years, quarters, month-years) of both are the same;
- the content words come in the same order ("Imports exceeded exports" is not "Exports exceeded
  imports");
- a negation ("not", "never", "no") is in both or in neither.

It is **wrong** when the prediction contradicts the gold outright: a word of a known opposite pair
("early"/"late", "north"/"south", "increasing"/"decreasing", "men"/"women", "satisfied"/"dissatisfied",
"online"/"offline") where the gold has the other, a different number or period where the gold gives
one, or nothing at all. Everything else is **unsure**: a paraphrase or a different entity of the same
kind can only be told apart by reading, so the LLM judge (``--judge``) decides it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .parsing import norm_text, parse_number
from .periods import periods
from .words import same_inflected

__all__ = ["OPPOSITES", "SentenceVerdict", "judge_sentence"]

_PAIRS = (
    "north south", "east west", "northern southern", "eastern western", "early late", "earlier later",
    "increase decrease", "increasing decreasing", "increased decreased", "increases decreases",
    "rise fall", "rising falling", "rose fell", "up down", "upward downward", "growth decline",
    "grew declined", "gain loss", "men women", "man woman", "male female", "males females", "boys girls",
    "satisfied dissatisfied", "likely unlikely", "agree disagree", "favorable unfavorable",
    "favourable unfavourable", "online offline", "high low", "higher lower", "highest lowest",
    "more less", "most least", "more fewer", "largest smallest", "larger smaller", "large small",
    "biggest smallest", "best worst", "better worse", "maximum minimum", "max min", "positive negative",
    "above below", "over under", "top bottom", "left right", "first last", "before after",
    "import export", "imports exports", "urban rural", "young old", "younger older", "youngest oldest",
    "public private", "domestic foreign", "domestic international", "inside outside", "internal external",
    "strong weak", "stronger weaker", "rich poor", "approve disapprove", "support oppose", "win lose",
    "winning losing", "open closed", "full empty", "hot cold", "warm cool", "wet dry", "fast slow",
    "faster slower", "same different", "stable unstable", "legal illegal", "employed unemployed",
    "true false", "yes no", "always never", "all none", "minority majority", "begin end", "start end",
    "narrow widen", "narrowed widened", "narrowing widening", "shrank grew", "shrinking growing",
    "beginning end", "morning evening", "day night", "summer winter", "spring autumn", "spring fall",
)
OPPOSITES: dict[str, frozenset[str]] = {}
for _pair in _PAIRS:
    _a, _b = _pair.split()
    OPPOSITES[_a] = OPPOSITES.get(_a, frozenset()) | {_b}
    OPPOSITES[_b] = OPPOSITES.get(_b, frozenset()) | {_a}

_STOP = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "as", "than", "then", "there", "their", "they", "he", "she", "his", "her", "we", "our", "you", "your", "i", "which", "who", "whom", "what", "when", "where", "how", "do", "does", "did", "has", "have", "had", "will", "would", "can", "could", "should", "may", "might", "also", "very", "much"]
)
_FILLER = frozenset(
    ["answer", "final", "chart", "graph", "figure", "plot", "shows", "shown", "show", "according", "data", "value", "values", "based", "image", "correct", "so", "therefore", "thus", "hence", "given", "indicated", "indicates", "depicted"]
)
_NEGATION = frozenset(["not", "no", "never", "none", "neither", "nor", "cannot", "without", "isnt", "arent", "wasnt", "werent", "doesnt", "dont", "didnt"])
_NUMBER_TOKEN = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?%?")


@dataclass(frozen=True)
class SentenceVerdict:
    """``verdict`` is "correct", "wrong" or "unsure"; ``why`` says which part of the rule decided."""

    verdict: str
    why: str


def _words(text: str) -> list[str]:
    return [w for w in norm_text(text).split() if not _NUMBER_TOKEN.fullmatch(w)]


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in _STOP and w not in _NEGATION]


def _has(word: str, pool: list[str]) -> bool:
    return any(word == w or same_inflected(word, w) for w in pool)


def _numbers(text: str) -> set[float]:
    masked = text
    for start, value in sorted(periods(text), reverse=True):  # periods are compared on their own
        masked = masked[:start] + " " + masked[start + len(value.split("-")[0]):]
    found: set[float] = set()
    for token in _NUMBER_TOKEN.findall(masked):
        parsed = parse_number(token)
        if parsed is not None:
            found.add(round(float(parsed[0]), 9))
    return found


def judge_sentence(pred: str, gold: str) -> SentenceVerdict:
    """Apply the strict rule above to an extracted prediction and a sentence gold."""
    p_norm, g_norm = norm_text(pred), norm_text(gold)
    if not p_norm:
        return SentenceVerdict("wrong", "empty prediction")
    if p_norm == g_norm:
        return SentenceVerdict("correct", "same text")
    p_words, g_words = _words(pred), _words(gold)
    for word in p_words:
        if not _has(word, g_words) and any(_has(o, g_words) and not _has(o, p_words) for o in OPPOSITES.get(word, ())):
            return SentenceVerdict("wrong", f"{word!r} is the opposite of a gold word")
    g_periods = {v for _, v in periods(gold)}
    p_periods = {v for _, v in periods(pred)}
    if g_periods and p_periods and not g_periods <= p_periods:
        return SentenceVerdict("wrong", "a different period")
    g_numbers, p_numbers = _numbers(gold), _numbers(pred)
    if g_numbers and p_numbers and not g_numbers <= p_numbers:
        return SentenceVerdict("wrong", "a different number")
    g_content, p_content = _content(g_words), _content(p_words)
    missing = [w for w in g_content if not _has(w, p_content) and w not in _FILLER]
    extra = [w for w in p_content if not _has(w, g_content) and w not in _FILLER]
    negation_differs = bool(_NEGATION & set(p_words)) != bool(_NEGATION & set(g_words))
    p_order = [w for w in p_content if w not in _FILLER]
    g_order = [w for w in g_content if w not in _FILLER]
    same_order = len(p_order) == len(g_order) and all(_has(a, [b]) for a, b in zip(g_order, p_order))
    if (not missing and not extra and not negation_differs and same_order and g_periods == p_periods
            and g_numbers == p_numbers and g_content):
        return SentenceVerdict("correct", "same content words, numbers and periods")
    if missing:
        why = "missing " + ", ".join(missing[:3])
    elif extra:
        why = "extra " + ", ".join(extra[:3])
    elif negation_differs:
        why = "negation differs"
    elif not same_order:
        why = "content words in another order"
    else:
        why = "numbers or periods differ"
    return SentenceVerdict("unsure", why)
