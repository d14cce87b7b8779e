"""Word-level reading of answers for :mod:`chartprobe.eval_tasks.scoring.matchers`.

How models answer in 2026 beyond a bare token: spelled-out numbers ("twenty-one", "one hundred
and five"), negated verdicts ("Not true", "I would not accept this"), hedges that offer more
than one candidate ("Either 0 or 41", "A or B"), month names for abbreviations ("September" for
"Sep") and simple inflections ("outlined" for "outline", "circles" for "circle"). Every function
is total and linear in its input; inputs are already normalized with ``norm_text`` where noted.
"""

from __future__ import annotations

import re

__all__ = [
    "MONTH_ALIASES", "decision", "is_hedge", "last_number_words", "same_inflected",
]

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_VALUE = {**{w: i for i, w in enumerate(_UNITS)}, **_TENS}
_NUMBER_WORD = "|".join(sorted([*_VALUE, *_SCALES], key=len, reverse=True))
_WORD_RUN = re.compile(rf"\b(?:{_NUMBER_WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_NUMBER_WORD}))*\b", re.IGNORECASE)


def _run_value(run: str) -> float | None:
    """Value of one run of number words ("one hundred and five" -> 105); None if ill-formed."""
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", run.lower()):
        if word == "and":
            continue
        if word in _VALUE:
            current += _VALUE[word]
            seen = True
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
            seen = True
    return float(total + current) if seen or total else None


def last_number_words(text: str) -> float | None:
    """The value of the last run of English number words in ``text``, or None."""
    runs = _WORD_RUN.findall(text)
    return _run_value(runs[-1]) if runs else None


MONTH_ALIASES: dict[str, tuple[str, ...]] = {
    "january": ("jan",), "february": ("feb",), "march": ("mar",), "april": ("apr",), "may": (),
    "june": ("jun",), "july": ("jul",), "august": ("aug",), "september": ("sep", "sept"),
    "october": ("oct",), "november": ("nov",), "december": ("dec",),
}
"""Month names and their abbreviations (chart axes abbreviate, models spell out, or the reverse)."""

_NEGATORS = frozenset({"not", "never", "isnt", "arent", "wasnt", "werent", "dont", "doesnt", "didnt",
                       "cannot", "cant", "wont", "wouldnt", "shouldnt", "couldnt"})
"""Words that flip the verdict word after them. "no" is not one: "No, reject it" rejects."""


def decision(words: list[str], positive: frozenset[str], negative: frozenset[str],
             phrases: dict[str, str] | None = None) -> str | None:
    """"pos"/"neg" from normalized words, negation-aware, or None (none found, or conflicting).

    A positive word preceded within two words by a negator counts as negative ("not true",
    "would not accept") and a negated negative as positive ("not false"). Fixed ``phrases``
    ("i dont think so") decide first.
    """
    text = " ".join(words)
    for phrase, verdict in (phrases or {}).items():
        if re.search(rf"\b{phrase}\b", text):
            return verdict
    found = set()
    for i, w in enumerate(words):
        if w not in positive and w not in negative:
            continue
        negated = any(x in _NEGATORS for x in words[max(0, i - 2):i])
        is_pos = (w in positive) != negated
        found.add("pos" if is_pos else "neg")
    return found.pop() if len(found) == 1 else None


_HEDGE = re.compile(r"\b(?:or|either|maybe|perhaps|possibly)\b", re.IGNORECASE)
"""Words that offer alternatives. Not "/" (ratios: "1/2") and not "between" ("the difference
between 2019 and 2020 is 12")."""


def is_hedge(text: str, candidates: list[str]) -> bool:
    """True if ``text`` offers more than one distinct candidate with a hedge word ("0 or 41")."""
    return len(set(candidates)) > 1 and _HEDGE.search(text) is not None


def _forms(word: str) -> set[str]:
    """A word and its plausible uninflected forms (plural -s/-es/-ies, past -ed/-d, -ing)."""
    forms = {word}
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e")):
        if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 3:
            forms.add(word[: len(word) - len(suffix)] + repl)
    return forms


def same_inflected(a: str, b: str) -> bool:
    """Labels equal up to the inflection of their last word ("outlined" ~ "outline")."""
    wa, wb = a.split(), b.split()
    if not wa or len(wa) != len(wb) or wa[:-1] != wb[:-1]:
        return False
    return bool(_forms(wa[-1]) & _forms(wb[-1]))
