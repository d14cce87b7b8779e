"""Answer parsing helpers for :mod:`chartprobe.eval_tasks.scoring.matchers`: text/label normalization, aliases,
abstention detection, numbers, bounding boxes and lists.

Every function is total (never raises on content) and linear-time: no nested quantifiers, and callers
pass strings already capped at a few KB.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import deque
from collections.abc import Mapping, Sequence
from functools import lru_cache

from .words import MONTH_ALIASES, is_hedge, last_number_words

Aliases = Mapping[str, Sequence[str]] | None
ABSTAIN_NORMALIZED = "i don't know"


_APOSTROPHES = re.compile(r"['’‘`´]")
_NON_DECIMAL_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")
_PUNCTUATION = re.compile(r"[^\w.%]+|_+")
_ARTICLE = re.compile(r"^the ")


def norm_text(s: str) -> str:
    """Casefold, NFKC, drop apostrophes and non-decimal dots, punctuation to spaces, collapse spaces.

    Short strings are cached: the same labels, options and alias tables are normalised for every
    document scored (``chartprobe score`` over many models spent most of its time here); long
    model responses are not, so the cache stays a few MB.
    """
    return _norm_short(s) if len(s) <= 256 else _norm_text(s)


@lru_cache(maxsize=1 << 15)
def _norm_short(s: str) -> str:
    return _norm_text(s)


def _norm_text(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).casefold().replace("&", " and ")
    s = _APOSTROPHES.sub("", s)
    s = _NON_DECIMAL_DOT.sub("", s)
    s = _PUNCTUATION.sub(" ", s)
    return " ".join(s.split())


LEAD_IN = re.compile(
    r"^(?:so |thus |therefore |hence )?(?:the |my )?(?:final |correct |short )?answer(?: is| would be)? "
    r"|^(?:it is|its|this is|that is|it would be) "
)
_BUILTIN_ALIASES: dict[str, tuple[str, ...]] = {
    "united states": ("usa", "us", "united states of america", "the us", "the usa"),
    "united kingdom": ("uk", "great britain", "britain", "the uk"),
    "united arab emirates": ("uae",),
    "south korea": ("korea republic of", "republic of korea"),
    "european union": ("eu",),
    "gray": ("grey",),  # colour probes answer with the US spelling
    **MONTH_ALIASES,
}


def _build_index(tables: Sequence[Mapping[str, Sequence[str]]]) -> dict[str, str]:
    index: dict[str, str] = {}
    for table in tables:
        for canonical, alts in table.items():
            canon = norm_text(str(canonical))
            for alt in (canonical, *([alts] if isinstance(alts, str) else alts)):
                index[norm_text(str(alt))] = canon
    return index


_BUILTIN_INDEX = _build_index([_BUILTIN_ALIASES])


def _alias_index(aliases: Aliases) -> dict[str, str]:
    """Variant -> canonical label map: the built-in table overridden by caller ``aliases``.

    Built once per distinct table (a template's vocabulary is every one of its rows' aliases, and
    each label of a row is normalised against it): the map is shared, so callers only read it.
    """
    if not aliases:
        return _BUILTIN_INDEX
    try:
        key = tuple((k, v if isinstance(v, str) else tuple(v)) for k, v in aliases.items())
        return _table_index(key)
    except TypeError:  # an unhashable or odd table: built afresh
        return _build_index([_BUILTIN_ALIASES, aliases])


@lru_cache(maxsize=1024)
def _table_index(table: tuple[tuple[str, str | tuple[str, ...]], ...]) -> dict[str, str]:
    return _build_index([_BUILTIN_ALIASES, dict(table)])


def label_key(s: str, aliases: Aliases = None, index: dict[str, str] | None = None) -> str:
    """Label canonical form: :func:`norm_text`, lead-ins ("the answer is") and article removed, aliases."""
    s = norm_text(s)
    s = LEAD_IN.sub("", s, count=1)
    s = _ARTICLE.sub("", s)
    index = _alias_index(aliases) if index is None else index
    return index.get(s, s)


_ABSTAIN_EXACT = {
    "unknown", "n a", "idk", "not sure", "unsure", "no answer", "not applicable", "unclear", "none of the above",
    "no idea", "no legend", "undetermined", "indeterminate", "uncertain", "dont know", "do not know", "not known",
    "not shown", "not specified", "not available", "not given", "not provided", "not visible", "not stated",
    "not labeled", "not labelled", "not listed", "not in legend", "no data", "no information", "no entry",
    "no label", "cannot say", "cant say", "cannot determine", "cant determine",
}
"""Whole answers (after :func:`norm_text`) that are refusals on their own."""

_EVIDENCE = r"(?:information|info|data|context|evidence|details?)"
_CHART = r"(?:legend|chart|key|figure|graph|plot|image|visualization|picture|diagram)"
_ABSTAIN_PHRASES: tuple[tuple[str, str], ...] = (
    # "I don't know", "I can't tell", "I'm not able to tell", "I am unable to determine", "I cannot see"
    ("first-person inability", (
     r"\b(?:i (?:dont|do not|cannot|cant|can not|couldnt|could not)|(?:im|i am) (?:unable|not able)|i have no way)"
     r" (?:to )?(?:know|tell|say|determine|answer|see|identify|find|read|infer|work out|be sure)\b")),
    # "I'm not sure", "I am uncertain"
    ("first-person doubt", r"\b(?:im|i am) (?:not sure|not certain|unsure|uncertain)\b"),
    # "cannot be determined", "It's not possible to determine from the chart", "no way to tell"
    ("impossible to determine", (
     r"\b(?:cannot|cant|can not|could not|couldnt|unable to|impossible to|not possible to|no way to|not able to)"
     r" (?:be )?(?:determined?|tell|told|say|said|answer(?:ed)?|infer(?:red)?|known?|read|identif(?:y|ied)"
     r"|ascertain(?:ed)?|establish(?:ed)?|deduced?|work(?:ed)? out|derived?|judged?|decided?)\b")),
    # "I won't guess", "I decline to answer", "I must abstain"
    ("declines to guess", (
     r"\b(?:wont|will not|would not|wouldnt|rather not|refuse to|decline to|cannot|cant) (?:guess|speculate)\b"
     r"|\b(?:refuse|decline) to answer\b|\babstain\b")),
    # "Not enough information", "insufficient data", "The chart lacks the information", "data not available"
    ("insufficient evidence", (
     rf"\b(?:not|isnt|arent|no|without) (?:enough|sufficient) {_EVIDENCE}\b|\binsufficient {_EVIDENCE}\b"
     rf"|\b(?:lacks?|lacking|missing) (?:the |any )?(?:enough |sufficient |necessary |required |needed |relevant )?"
     rf"{_EVIDENCE}\b"
     rf"|\b{_EVIDENCE} (?:is |are )?(?:not available|not provided|not given|not shown|not present|unavailable"
     r"|missing|lacking|absent)\b"
     rf"|\bno {_EVIDENCE} (?:about|on|for|regarding|available|given|provided)\b")),
    # "unanswerable", "not determinable", "no legend"
    ("unanswerable", (
     r"\b(?:unanswerable|not answerable|no legend|not determinable|undeterminable|indeterminable|unknowable"
     r"|not knowable)\b")),
    # "It is unclear which line is Gamma", "the value is unknown", "the legend is ambiguous"
    ("unclear", r"\b(?:is|its|remains|are) (?:unclear|uncertain|unknown|not clear|ambiguous)\b"),
    # "The legend does not show this entry", "The chart does not contain that information",
    # "The legend doesn't include the target series", "The legend does not list an entry for Gamma"
    ("chart does not show it", (
     rf"\b{_CHART}s? (?:does not|doesnt|do not|dont|cannot|cant|fails to|did not|didnt)"
     r" (?:show|contain|include|list|display|provide|give|indicate|identify|specify|have|label|mention|reveal"
     r"|tell|say|state|offer|present)"
     r" (?:us |me )?(?:this|that|these|those|it|such|which|what|whether|who|enough|sufficient"
     r"|the (?:requested|required|needed|necessary|relevant|target|queried|asked|specific|corresponding|missing)"
     r"|(?:a|an|the|any|its) (?:legend )?(?:entry|entries|label|labels|key|mapping|information|info|data|evidence"
     r"|details?|value|name|series|item|category)"
     rf"|{_EVIDENCE}|entries|labels|mappings?)\b"
     rf"|\b{_CHART}s? (?:does not|doesnt|do not|dont) (?:allow|let|permit|enable) (?:us |me |one |the reader )?"
     r"(?:to )?(?:determine|tell|say|know|identify|answer|infer|read)\b")),
    # "This series is not shown in the legend", "Gamma isn't in the legend", "does not appear in the chart"
    ("not shown in the legend", (
     r"\b(?:not|isnt|arent|wasnt|werent) (?:(?:shown|listed|included|present|visible|labeled|labelled|displayed"
     r"|given|provided|indicated|identified|specified|mentioned|found|available|marked|named|represented"
     r"|depicted|there) )?(?:in|on|by|within|from|inside) (?:the |this |that )?(?:charts |figures |graphs |plots )?"
     rf"{_CHART}\b(?! as\b)"
     r"|\b(?:does not|doesnt|do not|dont|did not|didnt) (?:appear|exist|feature|show up) (?:in|on) (?:the )?"
     rf"{_CHART}\b")),
    # "There is no such entry in the legend", "None — the legend has no such item", "the key has no entry"
    ("no such entry", (
     r"\bno such\b"
     r"|\bthere (?:is|are|s) no (?:matching |corresponding |visible )?(?:legend )?(?:entry|entries|label|labels"
     rf"|key|mapping|{_EVIDENCE}|legend|way)\b"
     r"|\b(?:legend|key) (?:has|have|shows|contains|lists|includes|gives|provides) no (?:matching |corresponding "
     r"|visible )?(?:entry|entries|label|labels|item|items|series|key|mapping)\b")),
    # "The legend entry for Gamma is hidden", "its label is missing", "the legend is masked"
    ("evidence hidden", (
     r"\b(?:legend|entry|label|key|mapping)(?: for \w+(?: \w+)?)? (?:is|are|has been|have been|was|were)"
     r" (?:hidden|missing|masked|removed|obscured|occluded|absent|not visible|not shown|not displayed|unavailable"
     r"|cut off|covered)\b")),
    # "I would need the legend", "answering requires the full legend"
    ("needs the legend", (
     r"\b(?:would need|need|needs|requires?) (?:to see )?(?:the |a |its )?(?:full |complete |missing |hidden )?"
     r"(?:legend|legend entry|key)\b")),
)
"""The refusal phrase bank, (name, regex over :func:`norm_text` output): apostrophes are dropped
("don't" -> "dont", "I'm" -> "im"), punctuation is a space. Each regex needs the negation *and*
what it negates (knowing, telling, showing the evidence), so answers that merely mention the
legend or say "not" ("The legend shows Revenue in blue", "Not 12 but 15", "The series not in red
is Cost") are not refusals. No nested quantifiers: linear time."""
_ABSTAIN_PHRASE = re.compile("|".join(f"(?:{p})" for _, p in _ABSTAIN_PHRASES))
_CONCLUSION = re.compile(
    r"(?:^|[.,;:!?]\s*)(?:so|therefore|thus|hence|consequently)\b"
    r"|\b(?:therefore|thus|hence|consequently|which means|this means|meaning that)\b"
    r"|\b(?:the|my|final) answer(?: is| would be)?\s*:|\b(?:the|my|final) answer (?:is|would be)\b",
    re.IGNORECASE,
)
"""Where an answer states its conclusion: only the text after the last such marker decides."""


def is_abstention(text: str) -> bool:
    """True if ``text`` is in the "I don't know" family: a whole short refusal (:data:`_ABSTAIN_EXACT`)
    or a phrase of the bank (:data:`_ABSTAIN_PHRASES`).

    When the answer states a conclusion ("..., so", "therefore", "the answer is"), only the text after
    the last marker decides, so reasoning that mentions missing evidence but concludes with an answer
    ("Gamma is not in the legend, so it must be Alpha") is an answer, and one concluding with a
    refusal ("The target entry is hidden, so it cannot be determined") is a refusal.
    """
    text = text or ""
    return _abstains_short(text) if len(text) <= 256 else _abstains(text)


@lru_cache(maxsize=1 << 15)
def _abstains_short(text: str) -> bool:
    return _abstains(text)  # short answers repeat across documents and models ("12", "Yes", "I don't know")


def _abstains(text: str) -> bool:
    tail = deque(_CONCLUSION.finditer(text), maxlen=1)
    if tail and norm_text(text[tail[0].end():]):
        text = text[tail[0].end():]
    s = norm_text(text)
    return s in _ABSTAIN_EXACT or _ABSTAIN_PHRASE.search(s) is not None


_NUMBER = re.compile(
    r"(?P<sign>(?<![\w.])[-+−])?\s?[$€£¥]?\s?(?P<sign2>(?<![\w.])[-−])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<exp>[eE][-+]?\d{1,3}(?!\w))?"
    r"(?:\s?(?P<suf>%|(?i:percent|per\s?cent|trillion|billion|million|thousand|bn|mn|mln|tn)\b|[kKMBT]\b))?"
)
_MULTIPLIER = {"%": 0.01, "percent": 0.01, "k": 1e3, "thousand": 1e3, "m": 1e6,
               "million": 1e6, "mn": 1e6, "mln": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9,
               "t": 1e12, "tn": 1e12, "trillion": 1e12}
_WORKING = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")  # "20 (67 - 47)": the value, not its working
_YEAR_CONTEXT = re.compile(r"\b(?:in|for|during|by|since|as of|of)\s+[12]\d{3}(?!\d)", re.IGNORECASE)


def last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text`` (one pass, keeping only the latest), or None."""
    tail = deque(pattern.finditer(text), maxlen=1)
    return tail[0] if tail else None


_RATIO = re.compile(r"(?<![\d.,/:])(?P<a>\d+(?:\.\d+)?)\s*(?:/|:)\s*(?P<b>\d+(?:\.\d+)?)(?!\d|[.,/:]\d)[\s.)]*$")
"""A fraction or ratio closing the answer ("1/2", "2 : 1", "3:4)")."""


def parse_number(text: str) -> tuple[float, float] | None:
    """The number an answer gives, as ``(canonical, alternative)`` readings, either of which may match.

    Magnitude words are applied in the canonical reading: "1.4 billion" -> (1.4e9, 1.4); a percentage
    stays a percentage: "27 percent" -> (27, 0.27). "1,234" -> 1234; "$3.5" -> 3.5; "-4.2" -> -4.2.
    The value comes before its working ("20 (67 - 47)" -> 20) and before a year that only dates it
    ("95 in 2018" -> 95); otherwise the last number counts. Spelled-out numbers are read when no digit
    is given ("twenty-one" -> 21). None if nothing finite is found, or if the answer hedges between
    candidates ("either 0 or 41", "3 or 4"). A ratio that ends the answer is its quotient: "1/2" and
    "1:2" -> 0.5, "a ratio of 2:1" -> 2 (not a date such as "3/4/2020").

    Short texts are cached, as :func:`norm_text`'s: every model's answer to a document is read
    against the same gold, and bare numbers repeat across documents.
    """
    return _parse_number_short(text) if len(text) <= 256 else _parse_number(text)


@lru_cache(maxsize=1 << 15)
def _parse_number_short(text: str) -> tuple[float, float] | None:
    return _parse_number(text)


def _parse_number(text: str) -> tuple[float, float] | None:
    ratio = _RATIO.search(text)
    if ratio is not None and float(ratio["b"]) != 0:
        value = float(ratio["a"]) / float(ratio["b"])
        return (value, value)
    bare = _WORKING.sub(" ", text)
    bare = bare if _NUMBER.search(bare) else text
    dated = _YEAR_CONTEXT.sub(" ", bare)
    bare = dated if _NUMBER.search(dated) else bare
    found = list(_NUMBER.finditer(bare))
    if not found:
        value = last_number_words(bare)
        return None if value is None else (value, value)
    readings = [_reading(m) for m in found]
    if is_hedge(bare, [r for r in readings if r is not None]):
        return None
    return readings[-1]


def _reading(m: re.Match[str]) -> tuple[float, float] | None:
    value = float(m["num"].replace(",", "") + (m["exp"] or ""))
    if m["sign"] in ("-", "−") or m["sign2"]:
        value = -value
    multiplier = _MULTIPLIER.get(re.sub(r"\s+", "", m["suf"] or "").lower(), 1.0)
    scaled = value * multiplier
    if not (math.isfinite(value) and math.isfinite(scaled)):
        return None
    return (value, scaled) if multiplier < 1 else (scaled, value)


def fmt_number(value: float) -> str:
    """Canonical text of a number ("1.4e+09", "12", "0.25")."""
    text = f"{value:.10g}"
    return "0" if text == "-0" else text


YEAR_RE = re.compile(r"(?<!\d)([12]\d{3})(?!\d)(?![.,]\d)")

_SPLIT = re.compile(r"[,;\n]+")
_AND = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_ITEM_JUNK = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+|^\s*and\s+", re.IGNORECASE)
_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")


def _item_key(item: str, index: dict[str, str]) -> str:
    key = label_key(_ITEM_JUNK.sub("", item.strip(" \t\"'[]")), index=index)
    return fmt_number(float(key)) if _NUMERIC.fullmatch(key) else key


def list_items(text: str, aliases: Aliases = None, keep: frozenset[str] = frozenset()) -> list[str]:
    """Canonical items of a JSON array or free text split on , ; newlines and " and "/"&".

    A piece is split on " and " only when it is not itself one of ``keep`` (gold items), so gold labels
    such as "Research and Development" survive.
    """
    index = _alias_index(aliases)
    raw: list[str] | None = None
    start, end = text.find("["), text.rfind("]")
    if 0 <= start < end:
        try:
            loaded = json.loads(text[start:end + 1])
            raw = [str(x) for x in loaded] if isinstance(loaded, list) else None
        except (ValueError, RecursionError):
            raw = None
    pieces = raw if raw is not None else _SPLIT.split(text.strip().strip("[]"))
    items: list[str] = []
    for piece in pieces:
        key = _item_key(piece, index)
        parts = [key] if key in keep or raw is not None else [_item_key(x, index) for x in _AND.split(piece)]
        items.extend(x for x in parts if x)
    return [] if items in (["none"], ["nothing"]) else items

_BBOX_NUMBER = re.compile(r"-?\d+(?:\.\d+)?|-?\.\d+")


_PERCENT = re.compile(r"%|\bper\s?cent\b", re.IGNORECASE)


def parse_bbox(text: str) -> tuple[float, float, float, float] | None:
    """Last 4 numbers as a box in [0,1] (x0, y0, x1, y1; origin top-left, corners sorted).

    All in [0,1]: used as is; given in percent ("12%", "percent"): divided by 100; otherwise all in
    [0,1000]: divided by 1000 (Qwen convention); anything else is unparsable.
    """
    nums = [float(x) for x in _BBOX_NUMBER.findall(text)[-4:]]
    if len(nums) < 4 or not all(0 <= x <= 1000 for x in nums):
        return None
    if _PERCENT.search(text) and all(x <= 100 for x in nums):
        nums = [x / 100 for x in nums]
    elif any(x > 1 for x in nums):
        nums = [x / 1000 for x in nums]
    x0, y0, x1, y1 = nums
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes; 0 for degenerate boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(w, 0.0) * max(h, 0.0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
