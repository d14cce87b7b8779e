"""Cross-check a ChartBench table against ChartBench's own true statements (its ``Qr`` texts).

The tables are read under an assumed format (``tables``), so a misread must not pass quietly:
each index entry's true statements are matched against the table *as read*, using the table's
own names (series, x values, x label) as the only things a statement may mention, and must
hold. ChartBench phrases them in a few families (read from its index at commit
53e41b857619f4041fcd86cb31d8d029638d8a70), e.g. for lines and bars::

    chart_number    for Brazil, the Millions of Units Sold at Years 2018 is 80.0.
                    the Growth Rate of Cambodia at Year 2019 is 4.20.
    number_compare  the Millions of Units Sold of China is higher than India at Years 2019.
                    at Year 2020, the Growth Rate of Vietnam is higher than Cambodia.
    high_number     China has the highest Millions of Units Sold 300.0 at Years 2022.
                    the Vietnam at Year 2016 has the highest Growth Rate 6.80.

and, for radars and pies, over spokes or wedges (``for group A, the value of Tennis is 92.00``,
``the Percentage of Rock is 25.00%``). A value holds when the table's cell rounds to the
statement's printed digits; "highest" is checked within its series (the reading both
ChartBench phrasings imply). A statement that fits no phrasing is counted as not checked; a
table with no checked statement, or one statement that fails, is refused (:class:`TablesError`,
one line naming the file and the statement).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .table_types import ChartTable, TablesError

__all__ = ["PHRASINGS", "check_statements"]

_NUM = r"(?P<v>-?\d+(?:\.\d+)?)\s*%?"
# Placeholders: S/S2 a series, X/X2 an x value, XL the x label, M the metric, V a number.
PHRASINGS: dict[str, tuple[str, ...]] = {
    "chart_number": ("for {S}, the {M} at {XL} {X} is {V}", "the {M} of {S} at {XL} {X} is {V}",
                     "for {S}, the {M} of {X} is {V}", "the {M} of {X} is {V}"),
    "number_compare": ("the {M} of {S} is higher than {S2} at {XL} {X}", "at {XL} {X}, the {M} of {S} is higher than {S2}",
                       "for {S}, the {M} of {X} is higher than {X2}", "the {M} of {X} is higher than {X2}"),
    "high_number": ("{S} has the highest {M} {V} at {XL} {X}", "the {S} at {XL} {X} has the highest {M} {V}",
                    "the {X} of {S} has the highest {M} {V}", "the {X} has the highest {M} {V}"),
}
"""ChartBench's true-statement phrasings, by QA name. A phrasing without {S} is about a
one-series table (a pie's wedges)."""
_PREFIX = "According to this chart, "


def _alternation(names: tuple[str, ...]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def _pattern(phrasing: str, table: ChartTable) -> re.Pattern[str]:
    slots = {"S": f"(?P<s>{_alternation(table.series)})", "S2": f"(?P<s2>{_alternation(table.series)})",
             "X": f"(?P<x>{_alternation(table.x_values)})", "X2": f"(?P<x2>{_alternation(table.x_values)})",
             "XL": re.escape(table.x_label), "M": "(?P<m>.+?)", "V": _NUM}
    parts = re.split(r"\{(\w+)\}", phrasing)
    body = "".join(re.escape(p) if i % 2 == 0 else slots[p] for i, p in enumerate(parts))
    return re.compile(rf"{body}\.?")


def _digits(printed: str) -> int:
    return len(printed.split(".", 1)[1]) if "." in printed else 0


def _slack(printed: str, cell: float) -> float:
    """How far a cell may sit from a printed number that rounds it."""
    return 0.5 * 10 ** -_digits(printed) + 1e-9 * max(1.0, abs(cell))


def _close(cell: float, printed: str) -> bool:
    return abs(cell - float(printed)) <= _slack(printed, cell)


def _holds(name: str, m: re.Match[str], table: ChartTable) -> bool:
    g = m.groupdict()
    series = g.get("s") or table.series[0]
    cell = table.value(series, g["x"])
    checks: dict[str, Callable[[], bool]] = {
        "chart_number": lambda: _close(cell, g["v"]),
        "number_compare": lambda: cell > (table.value(g["s2"], g["x"]) if g.get("s2") else table.value(series, g["x2"])),
        "high_number": lambda: _close(cell, g["v"]) and
        max(table.values[table.series.index(series)]) <= cell + _slack(g["v"], cell),
    }
    return checks[name]()


def _match(name: str, text: str, table: ChartTable) -> re.Match[str] | None:
    for phrasing in PHRASINGS[name]:
        if "{S}" not in phrasing and len(table.series) != 1:
            continue
        m = _pattern(phrasing, table).fullmatch(text)
        if m is not None:
            return m
    return None


def check_statements(table: ChartTable, qa: Any, where: str, outcomes: dict[str, int]) -> str:
    """Check every true statement of one index entry against ``table``; return the metric the
    ``chart_number`` statement names ('' if none). Counts go to ``outcomes``."""
    if not isinstance(qa, dict):
        raise TablesError(f"{where}: its QA field is not an object")
    checked, metric = 0, ""
    for name in PHRASINGS:
        item = qa.get(name)
        text = item.get("Qr") if isinstance(item, dict) else None
        if not isinstance(text, str):
            continue
        text = text.strip().removeprefix(_PREFIX)
        m = _match(name, text, table)
        if m is None:
            outcomes["not readable against the table"] = outcomes.get("not readable against the table", 0) + 1
            continue
        if not _holds(name, m, table):
            raise TablesError(f"{where}: the table contradicts ChartBench's true {name} statement "
                              f"{_PREFIX + text!r} (as read: x label {table.x_label!r}, series {list(table.series)})")
        outcomes["checked and true"] = outcomes.get("checked and true", 0) + 1
        checked += 1
        if name == "chart_number":
            metric = m.group("m").strip()
    if not checked:
        raise TablesError(f"{where}: none of ChartBench's true statements can be read against the table as read "
                          f"(x label {table.x_label!r}, series {list(table.series)}); refusing an unchecked table")
    return metric
