"""Words for LegendBench: label pools, channel value names and visual-cue phrases.

Series labels follow the paper's ``Entity | Metric`` format. Every channel value the
generator draws has one plain name, so questions can name a visual cue ("the red dashed
line") and parsing answers ("red, dashed") are exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.spec import Encoding
from ..core.vocab import NAMED_COLORS

__all__ = ["CHANNEL_NAMES", "COLORS", "ENTITIES", "HATCH_NAMES", "LINE_STYLE_NAMES", "MARKER_NAMES",
           "METRICS", "PRODUCTS", "RADAR_AXES", "REGIONS", "cue_phrase", "value_names", "vocabulary_hint"]

ENTITIES = ("NVIDIA", "Apple", "Microsoft", "Amazon", "Alphabet", "Meta", "Tesla", "Intel", "AMD",
            "Samsung", "Sony", "Toyota", "Siemens", "Nestle", "Pfizer", "Visa", "Oracle", "Adobe",
            "Netflix", "Airbus")
METRICS = ("Net Profit Margin", "Revenue Growth", "Operating Margin", "Market Share", "R&D Intensity",
           "Return on Equity", "Gross Margin", "Customer Retention")
REGIONS = ("North", "South", "East", "West", "Central")
PRODUCTS = ("Laptops", "Phones", "Tablets", "Monitors", "Cameras")
RADAR_AXES = ("Speed", "Cost", "Quality", "Reliability", "Support", "Security", "Scale", "Design")

COLORS: dict[str, str] = {name: NAMED_COLORS[name] for name in
                          ("blue", "orange", "green", "red", "purple", "brown", "pink", "cyan")}
"""Colours series may get: unambiguous names, distinguishable on every theme."""
NEUTRAL_COLOR = "#555555"
"""The one colour of every series when colour is not an identity channel."""
MARKER_NAMES = {"o": "circle", "s": "square", "^": "triangle", "D": "diamond", "*": "star",
                "P": "plus", "v": "inverted triangle"}
LINE_STYLE_NAMES = {"solid": "solid", "dashed": "dashed", "dotted": "dotted", "dashdot": "dash-dot"}
HATCH_NAMES = {"/": "diagonal lines", "\\": "back-diagonal lines", "x": "crosshatch", ".": "dots",
               "-": "horizontal lines", "|": "vertical lines", "o": "small circles"}
CHANNEL_NAMES = {"color": "colour", "marker": "marker", "line_style": "line style", "texture": "texture"}
_COLOR_OF_HEX = {hex_.lower(): name for name, hex_ in COLORS.items()}

MARK_NOUNS = {"scatter": "points", "line": "line", "radar": "line", "grouped_bar": "bars", "pie": "wedge",
              "area": "area", "heatmap": "cells"}


def value_names(enc: Encoding, channels: Sequence[str]) -> list[str]:
    """Plain names of ``enc``'s values on ``channels`` (in channel order)."""
    names = {"color": lambda: _COLOR_OF_HEX.get(enc.color.lower(), enc.color),
             "marker": lambda: MARKER_NAMES.get(enc.marker, enc.marker),
             "line_style": lambda: LINE_STYLE_NAMES.get(enc.line_style, enc.line_style),
             "texture": lambda: HATCH_NAMES.get(enc.hatch, enc.hatch)}
    return [names[c]() for c in channels]


def cue_phrase(enc: Encoding, channels: Sequence[str], kind: str) -> str:
    """A visual cue naming the marks of ``enc`` ("the red dashed line", "the bars with dots")."""
    noun = MARK_NOUNS[kind]
    words = dict(zip(channels, value_names(enc, channels)))
    parts = []
    if "color" in words:
        parts.append(words["color"])
    if "line_style" in words:
        parts.append(words["line_style"])
    head = " ".join([*parts, noun])
    tails = []
    if "marker" in words:
        tails.append(f"{words['marker']} markers")
    if "texture" in words:
        tails.append(f"{words['texture']} texture")
    return f"the {head}" + (f" with {' and '.join(tails)}" if tails else "")


def vocabulary_hint(channels: Sequence[str]) -> str:
    """The visual-vocabulary hint every question ends with: the channels, never the mapping."""
    if channels == ("colour scale",) or list(channels) == ["colour scale"]:
        return "(Visual channels used in this chart: colour scale.)"
    return "(Visual channels used in this chart: " + ", ".join(CHANNEL_NAMES[c] for c in channels) + ".)"
