"""Visual themes: spec.style.theme -> a matplotlib style list (pure data, no matplotlib import).

Each theme starts from a built-in matplotlib style so that a user's matplotlibrc can never
leak into a render (byte-identical PNGs across machines), then adds overrides. The font is
pinned to DejaVu Sans, which ships with matplotlib.
"""

from __future__ import annotations

from typing import Any

__all__ = ["COMMON_RC", "THEME_STYLES", "style_list"]

COMMON_RC: dict[str, Any] = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "mathtext.fontset": "dejavusans",
    # '$' appears in money tick formats; it must print, not start mathtext.
    "text.parse_math": False,
    "text.hinting": "force_autohint",
    "savefig.dpi": "figure",
    "savefig.facecolor": "auto",
    "figure.constrained_layout.use": False,
}

THEME_STYLES: dict[str, list[Any]] = {
    "default": ["default"],
    "classic": ["default", "classic"],
    "dark": ["default", "dark_background"],
    "minimal": ["default", {
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.edgecolor": "#777777",
        "xtick.color": "#555555",
        "ytick.color": "#555555",
        "axes.labelcolor": "#333333",
        "grid.color": "#e5e5e5",
        "legend.frameon": False,
    }],
    # Looks like a chart scraped from a report or web page: grey panel, white grid.
    "scraped": ["default", "ggplot", {"axes.titleweight": "bold"}],
    # The house styles matplotlib ships a style for (fields.HOUSE_STYLES; the rest are Vega's only).
    "fivethirtyeight": ["default", "fivethirtyeight"],
    "ggplot2": ["default", "ggplot"],
}


def style_list(theme: str, font_size: float) -> list[Any]:
    """The style sequence for ``matplotlib.style.context``: theme, then pinned font and size."""
    if theme not in THEME_STYLES:
        from .fields import SpecError

        raise SpecError("spec.style.theme", f"{theme!r} is a house style only the Vega engine draws; render it "
                        f"with engine='vega', or use one of {', '.join(THEME_STYLES)}")
    return [*THEME_STYLES[theme], {**COMMON_RC, "font.size": font_size}]
