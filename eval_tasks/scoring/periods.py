"""Years and periods: one canonical form for the ways people write a year, a year range, a quarter
or a month-year, so the ``year`` matcher compares them exactly (issue 42, point 2).

Canonical forms: ``2016`` (also "FY2016", "FY16", "'16", "in 2016"), ``2016-2017`` ("2016-17",
"2016/17", "2016 to 2017", "FY2016-17"), ``2019-Q3`` ("Q3 2019", "3Q19", "Q3'19", "2019 Q3"),
``2019-09`` ("Sept 2019", "September 2019", "Sep '19", "09/2019", "2019-09"). A two-digit year is read
only when it is marked (an apostrophe, "FY", a quarter or month beside it), 50-99 as 19xx and 00-49 as
20xx. A text naming two different periods with a hedge ("2018 or 2019") reads as nothing.
"""

from __future__ import annotations

import re

from .words import is_hedge

__all__ = ["parse_period"]

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_Y4 = r"(?<![\d.,])([12]\d{3})(?![\d]|[.,]\d|['’]?s\b)"  # not "1990s": a decade is no year
_YY = r"(?:([12]\d{3})|['’‘](\d{2})|(\d{2}))"  # a year after a quarter/month/FY marker
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("range", re.compile(r"between\s+" + _Y4 + r"\s+and\s+(\d{4})(?!\d)", re.IGNORECASE)),
    ("range", re.compile(r"(?:fy\s*)?" + _Y4 + r"\s*(?:-|–|—|/|to|through)\s*(?:fy\s*)?(\d{4}|\d{2})(?!\d)", re.IGNORECASE)),
    ("quarter", re.compile(r"\bq([1-4])\s*(?:of\s+)?(?:fy\s*)?" + _YY + r"(?!\d)", re.IGNORECASE)),
    ("quarter_y", re.compile(r"(?<!\d)([12]\d{3})\s*[-/ ]?\s*q([1-4])\b", re.IGNORECASE)),
    ("quarter_n", re.compile(r"(?<!\w)([1-4])q\s*" + _YY + r"(?!\d)", re.IGNORECASE)),
    ("month", re.compile(r"\b(" + _MONTH + r")\.?,?\s*(?:of\s+)?" + _YY + r"(?!\d)", re.IGNORECASE)),
    ("month_num", re.compile(r"(?<![\d/])(0?[1-9]|1[0-2])/([12]\d{3})(?![\d/])")),
    ("year_month", re.compile(r"(?<![\d-])([12]\d{3})-(0[1-9]|1[0-2])(?![\d-])")),
    ("fy", re.compile(r"\bfy\s*['’]?(\d{2}|[12]\d{3})(?!\d)", re.IGNORECASE)),
    ("apostrophe", re.compile(r"(?<![\w'’])['’‘](\d{2})(?![\d'’])")),
    ("year", re.compile(_Y4)),
)


def _full_year(four: str | None, apos: str | None = None, bare: str | None = None) -> int:
    if four:
        return int(four)
    two = int(apos or bare or "0")
    return (1900 if two >= 50 else 2000) + two


def _read(kind: str, m: re.Match[str]) -> str | None:
    g = m.groups()
    if kind == "range":
        start, end = int(g[0]), g[1]
        stop = int(end) if len(end) == 4 else start // 100 * 100 + int(end)
        if len(end) == 2 and stop <= start:
            stop += 100  # "1999-00"
        span = 10 if len(end) == 2 else 100  # "2019-09" is a month, not 2019-2109
        return f"{start}-{stop}" if start < stop <= start + span else None
    if kind == "quarter":
        return f"{_full_year(g[1], g[2], g[3])}-Q{g[0]}"
    if kind == "quarter_y":
        return f"{g[0]}-Q{g[1]}"
    if kind == "quarter_n":
        return f"{_full_year(g[1], g[2], g[3])}-Q{g[0]}"
    if kind == "month":
        return f"{_full_year(g[1], g[2], g[3])}-{_MONTHS[g[0].casefold()]:02d}"
    if kind == "month_num":
        return f"{g[1]}-{int(g[0]):02d}"
    if kind == "year_month":
        return f"{g[0]}-{g[1]}"
    if kind == "fy":
        return str(_full_year(g[0] if len(g[0]) == 4 else None, g[0] if len(g[0]) == 2 else None))
    if kind == "apostrophe":
        return str(_full_year(None, g[0]))
    return g[0]


def periods(text: str) -> list[tuple[int, str]]:
    """Every period the text names, as (position, canonical form), most specific reading first at a
    position (a quarter's year is not read again as a bare year)."""
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            value = _read(kind, m)
            if value is not None:
                found.append((m.start(), m.end(), value))
                taken.append((m.start(), m.end()))
    return [(start, value) for start, _, value in sorted(found)]


def parse_period(text: str) -> str | None:
    """The canonical period the text gives (its last one), or None when it names none or hedges
    between two ("2018 or 2019")."""
    found = [value for _, value in periods(text[-4096:])]
    if not found or is_hedge(text, found):
        return None
    return found[-1]
