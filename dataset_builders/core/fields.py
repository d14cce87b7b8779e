"""The closed vocabularies of chart-spec fields, the spec version tag and :class:`SpecError`.

The bottom of the core: ``spec`` builds on it and ``validation`` checks against it, so the
two never need each other's module.
"""

from __future__ import annotations

import re

__all__ = [
    "HATCHES",
    "LEGEND_FORMS",
    "LEGEND_POSITIONS",
    "LINE_STYLES",
    "MARKERS",
    "SCALES",
    "SPEC_VERSION",
    "THEMES",
    "SpecError",
]

SPEC_VERSION = "chartprobe.spec/1"

LEGEND_FORMS = ("box", "direct", "colorbar", "none")
LEGEND_POSITIONS = ("upper right", "upper left", "lower left", "lower right", "right",
                    "center left", "center right", "lower center", "upper center", "center",
                    "outside right", "outside bottom")
LINE_STYLES = ("solid", "dashed", "dotted", "dashdot")
MARKERS = ("", "o", "s", "^", "v", "D", "x", "+", "*", "P", "X", "<", ">", "p", "h")
HATCHES = ("", "/", "\\", "|", "-", "+", "x", "o", "O", ".", "*", "//", "\\\\", "xx", "..")
SCALES = ("linear", "log")
THEMES = ("default", "classic", "dark", "minimal", "scraped")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class SpecError(ValueError):
    """A spec is malformed. ``field`` is the dotted path of the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
