"""The closed vocabularies of chart-spec fields, the limits on a spec's size, the spec version
tag and :class:`SpecError`.

The bottom of the core: ``spec`` builds on it and ``validation`` checks against it, so the
two never need each other's module.
"""

from __future__ import annotations

import re

__all__ = [
    "COLORBAR_DIRECTIONS",
    "HATCHES",
    "HOUSE_STYLES",
    "LEGEND_FORMS",
    "LEGEND_POSITIONS",
    "LINE_STYLES",
    "MARKERS",
    "MAX_CATEGORIES",
    "MAX_IMAGE_PIXELS",
    "MAX_LEGEND_COLUMNS",
    "MAX_SERIES",
    "MAX_TEXT_CHARS",
    "MAX_TICK_FORMAT_CHARS",
    "SCALES",
    "SPEC_VERSION",
    "THEMES",
    "TICK_FORMAT_SPEC",
    "SpecError",
]

SPEC_VERSION = "chartprobe.spec/1"

LEGEND_FORMS = ("box", "direct", "colorbar", "none")
COLORBAR_DIRECTIONS = ("up", "down")
"""Which way a colour bar's values grow: ``up`` (matplotlib's default) or ``down`` (inverted)."""
LEGEND_POSITIONS = ("upper right", "upper left", "lower left", "lower right", "right",
                    "center left", "center right", "lower center", "upper center", "center",
                    "outside right", "outside bottom")
LINE_STYLES = ("solid", "dashed", "dotted", "dashdot")
MARKERS = ("", "o", "s", "^", "v", "D", "x", "+", "*", "P", "X", "<", ">", "p", "h")
HATCHES = ("", "/", "\\", "|", "-", "+", "x", "o", "O", ".", "*", "//", "\\\\", "xx", "..")
SCALES = ("linear", "log")
THEMES = ("default", "classic", "dark", "minimal", "scraped")
HOUSE_STYLES = ("carbong10", "carbong100", "carbong90", "carbonwhite", "excel", "fivethirtyeight", "ggplot2",
                "googlecharts", "latimes", "powerbi", "quartz", "urbaninstitute", "vox")
"""Published house styles (vega-themes 3.0, bundled by vl-convert) a spec may name as its theme. The
Vega engine draws every one; the matplotlib engine only those it has a style for
(:data:`~chartprobe.dataset_builders.core.themes.THEME_STYLES`). Samplers draw from :data:`THEMES`."""
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")

# -- limits: a spec is untrusted input (``chartprobe render`` reads any file), so the work it
# can ask of validation and of matplotlib is bounded. Generated charts stay far below them
# (at most 15 categories, 6 series, 640x480 px at the time of writing).

MAX_CATEGORIES = 200
"""Most categories (x labels, pie wedges, scatter points) one chart may hold; also the most
explicit legend entries (``LegendSpec.entries``)."""
MAX_SERIES = 16
"""Most data series one chart may hold: a backstop checked before any per-series loop (each
chart kind's own ``max_series``, at most 8, is checked last)."""
MAX_IMAGE_PIXELS = 4096 * 4096
"""Most pixels of a rendered chart: ``width * dpi * height * dpi`` (about 64 MiB as RGBA)."""
MAX_TEXT_CHARS = 1000
"""Longest text field (category, series name, title, axis or legend label)."""
MAX_LEGEND_COLUMNS = 20
"""Most legend columns."""
MAX_TICK_FORMAT_CHARS = 64
"""Longest ``tick_format`` pattern."""
TICK_FORMAT_SPEC = re.compile(
    r"^(?:[^{}]?[<>=^])?[-+ ]?z?#?0?(?:[1-9][0-9]?)?[,_]?(?:\.[0-9]{1,2})?[eEfFgG%]?$")
"""The format spec allowed after ``{x:`` in ``tick_format``: Python's numeric mini-language
(fill/align, sign, ``#``, ``0``, width, grouping, precision, type ``eEfFgG%``) with width and
precision below 100, so a pattern can neither read attributes nor allocate without bound.
No ``n``: its output follows the locale, and renders must not."""


class SpecError(ValueError):
    """A spec is malformed. ``field`` is the dotted path of the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
