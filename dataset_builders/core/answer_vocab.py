"""Closed answer sets with their synonyms: what a categorical template accepts as its answer.

A template whose label answer comes from a fixed set names one of these tables
(``answer_vocabulary = "correlation"``); its rows store the table as JSON in the
``answer_aliases`` column ({canonical: [synonyms]}) and the label matcher maps every synonym to
its canonical answer, so "positive correlation", "positively correlated" and "positive" are
one answer, while "negative" stays another (no substring matching: "not positive" is not
"positive"). The tables are printed in each dataset card.
"""

from __future__ import annotations

import json

__all__ = ["VOCABULARIES", "aliases_json", "vocabulary"]

VOCABULARIES: dict[str, dict[str, tuple[str, ...]]] = {
    "correlation": {
        "positive": ("positive correlation", "positively correlated", "a positive correlation",
                     "positive relationship", "a positive relationship", "positive association",
                     "positive linear relationship", "direct relationship", "a direct relationship"),
        "negative": ("negative correlation", "negatively correlated", "a negative correlation",
                     "negative relationship", "a negative relationship", "negative association",
                     "negative linear relationship", "inverse relationship", "an inverse relationship",
                     "inversely correlated"),
    },
    "trend": {
        "increasing": ("increase", "increases", "increasing trend", "an increasing trend", "upward",
                       "upward trend", "an upward trend", "rising", "rises", "ascending", "going up"),
        "decreasing": ("decrease", "decreases", "decreasing trend", "a decreasing trend", "downward",
                       "downward trend", "a downward trend", "falling", "falls", "descending", "declining",
                       "going down"),
        "fluctuating": ("fluctuates", "fluctuation", "fluctuating trend", "a fluctuating trend",
                        "no clear trend", "no consistent trend", "up and down", "goes up and down",
                        "mixed", "irregular"),
    },
    # What probes draw and ask the name of: a scene object's shape and colour, a chart mark's
    # named colour. Every drawn value is a key (tests/test_answer_aliases.py holds them to the
    # renderer's sets), and no synonym names two values.
    "shape": {
        "circle": ("circles", "round", "disc", "disk", "round shape"),
        "square": ("squares", "box"),
        "triangle": ("triangles", "triangular", "triangular shape"),
        "star": ("stars", "five-pointed star", "star shape"),
    },
    "scene_color": {
        "red": ("scarlet",), "blue": ("royal blue",), "green": ("emerald",), "yellow": ("gold", "golden"),
        "purple": ("violet",), "orange": ("dark orange",), "gray": ("grey",), "cyan": ("teal", "turquoise", "aqua"),
    },
    "chart_color": {
        "blue": ("steel blue", "dark blue"), "orange": ("dark orange",), "green": ("dark green",),
        "red": ("dark red", "crimson"), "purple": ("violet",), "brown": ("dark brown",), "pink": ("orchid",),
        "gray": ("grey",), "cyan": ("teal", "turquoise", "aqua"), "black": ("dark",), "yellow": ("gold", "golden"),
    },
}
"""Vocabulary name -> canonical answer -> synonyms (compared after label normalization)."""


def vocabulary(name: str) -> dict[str, tuple[str, ...]]:
    """The synonym table ``name`` (``""`` -> empty: the template has an open answer set)."""
    if not name:
        return {}
    try:
        return VOCABULARIES[name]
    except KeyError:
        raise ValueError(f"unknown answer vocabulary {name!r}; expected one of {sorted(VOCABULARIES)}") from None


def aliases_json(name: str) -> str:
    """The ``answer_aliases`` cell of a row of a template with vocabulary ``name`` ("" for none)."""
    table = vocabulary(name)
    return json.dumps({k: list(v) for k, v in table.items()}, sort_keys=True) if table else ""
