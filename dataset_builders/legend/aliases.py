"""Names a person uses for each channel value LegendBench draws: the ``answer_aliases`` of a row.

Every colour, marker, line style and texture the generator draws has one canonical name
(:mod:`.vocab`); a reader may call the same drawing by another name ("dotted", "dot pattern"
for the ``.`` hatch whose canonical name is "dots"). A row stores, as JSON
``{canonical: [aliases]}``, the tables of the channels it uses, so the label and list matchers
map every alias to its canonical value ("brown, dotted" == ``["brown", "dots"]``) while a
different pattern stays different: within a channel no alias names two drawings
(``tests/test_answer_aliases.py`` renders each one and checks it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from .vocab import COLORS, HATCH_NAMES, LINE_STYLE_NAMES, MARKER_NAMES

__all__ = ["CHANNEL_ALIASES", "channel_aliases", "row_aliases_json"]

CHANNEL_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "color": {
        "blue": ("dark blue", "steel blue", "navy blue"),
        "orange": ("dark orange", "amber"),
        "green": ("dark green", "forest green"),
        "red": ("dark red", "crimson"),
        "purple": ("violet", "lavender purple"),
        "brown": ("dark brown", "chocolate"),
        "pink": ("light pink", "orchid", "rose"),
        "cyan": ("teal", "turquoise", "aqua"),
    },
    "marker": {
        "circle": ("circles", "dot marker", "round"),
        "square": ("squares", "box"),
        "triangle": ("triangles", "upward triangle", "up triangle", "triangle up", "upward-pointing triangle"),
        "diamond": ("diamonds", "rhombus"),
        "star": ("stars", "asterisk"),
        "plus": ("plus sign", "plus signs", "filled plus"),
        "inverted triangle": ("downward triangle", "down triangle", "triangle down", "upside-down triangle",
                              "downward-pointing triangle", "inverted triangles"),
    },
    "line_style": {
        "solid": ("solid line", "continuous", "continuous line", "unbroken line", "plain line"),
        "dashed": ("dashes", "dashed line", "broken line", "dash"),
        "dotted": ("dots", "dotted line", "dot line", "dot"),
        "dash-dot": ("dashdot", "dash dot", "dash-dotted", "dash-dot line", "dot-dash", "dot dash"),
    },
    "texture": {
        "diagonal lines": ("diagonal", "diagonal stripes", "diagonal hatching", "forward diagonal lines",
                           "forward slashes", "slashes"),
        "back-diagonal lines": ("back diagonal", "backward diagonal lines", "back-diagonal stripes",
                                "backslashes", "reverse diagonal lines"),
        "crosshatch": ("cross-hatch", "cross hatch", "crosshatched", "crosshatching", "diagonal crosshatch",
                       "x pattern", "criss-cross"),
        "dots": ("dotted", "dot pattern", "dotted pattern", "stippled", "stipple", "small dots", "dotted texture"),
        "horizontal lines": ("horizontal", "horizontal stripes", "horizontal hatching"),
        "vertical lines": ("vertical", "vertical stripes", "vertical hatching"),
        "small circles": ("circles", "rings", "small rings", "circle pattern", "circular pattern"),
    },
}
"""Channel -> canonical value name -> what else a person calls that drawing."""

_CANONICAL = {"color": tuple(COLORS), "marker": tuple(MARKER_NAMES.values()),
              "line_style": tuple(LINE_STYLE_NAMES.values()), "texture": tuple(HATCH_NAMES.values())}


def _norm(text: str) -> str:
    """Case, punctuation and spacing folded the way the answer matchers fold them."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def channel_aliases(channel: str) -> Mapping[str, tuple[str, ...]]:
    """The alias table of ``channel`` (``color``, ``marker``, ``line_style`` or ``texture``)."""
    try:
        return CHANNEL_ALIASES[channel]
    except KeyError:
        raise ValueError(f"unknown channel {channel!r}; expected one of {sorted(CHANNEL_ALIASES)}") from None


def row_aliases_json(channels: Sequence[str]) -> str:
    """The ``answer_aliases`` cell of a legend row over ``channels``: every value of each channel
    with its aliases (JSON, keys sorted); ``""`` when the row uses no named channel (colour scale).

    An alias that would name values of two of the row's channels (a circle marker and the circles
    texture) is dropped there, so an answer is never mapped to the wrong value."""
    table: dict[str, list[str]] = {}
    for ch in channels:
        if ch in CHANNEL_ALIASES:
            for canonical in _CANONICAL[ch]:
                table.setdefault(canonical, []).extend(CHANNEL_ALIASES[ch].get(canonical, ()))
    owners: dict[str, set[str]] = {}
    for canonical, names in table.items():
        for name in (canonical, *names):
            owners.setdefault(_norm(name), set()).add(canonical)
    clean = {k: sorted({n for n in v if len(owners[_norm(n)]) == 1}) for k, v in table.items()}
    return json.dumps(clean, sort_keys=True) if clean else ""
