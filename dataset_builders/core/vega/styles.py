"""House styles for the Vega engine: our themes translated to Vega config, and Vega's published
themes (vega-themes, bundled by vl-convert) taken as they are, except the font.

Every font is pinned to DejaVu Sans (the file matplotlib ships, registered with vl-convert by the
engine): a theme naming a font this machine lacks would otherwise fall back to whatever font the
system has, and the PNG would differ between machines.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from ..spec import ChartSpec

__all__ = ["FONT", "OUR_THEMES", "vega_config"]

FONT = "DejaVu Sans"

OUR_THEMES: dict[str, dict[str, Any] | str] = {
    # Vega's own defaults: white background, light grid, grey domain.
    "default": {},
    "classic": {"view": {"stroke": "#000000", "strokeWidth": 1},
                "axis": {"domainColor": "#000000", "tickColor": "#000000", "labelColor": "#000000",
                         "tickSize": 6, "gridColor": "#b0b0b0"}},
    "dark": "dark",
    "minimal": {"view": {"stroke": None},
                "axis": {"domainColor": "#777777", "tickColor": "#777777", "labelColor": "#555555",
                         "titleColor": "#333333", "gridColor": "#e5e5e5"}},
    # A grey panel with a white grid, like a chart scraped from a report (ggplot2's look).
    "scraped": "ggplot2",
}
"""Our theme names -> a Vega config of their own, or the name of the Vega theme that looks alike."""


@functools.cache
def _published() -> dict[str, dict[str, Any]]:
    from .runtime import vlc

    return vlc().get_themes()


def _pin_fonts(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (FONT if (k == "font" or k.endswith("Font")) and isinstance(v, str) else _pin_fonts(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_pin_fonts(v) for v in node]
    return node


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def theme_config(theme: str) -> dict[str, Any]:
    """The Vega config of a theme name (ours or a published one), fonts not yet pinned."""
    source = OUR_THEMES.get(theme, theme)
    return copy.deepcopy(_published()[source] if isinstance(source, str) else source)


def vega_config(spec: ChartSpec, px: float) -> dict[str, Any]:
    """Theme config with the spec's font sizes (points x ``px``) and DejaVu Sans everywhere."""
    fs = spec.style.font_size * px
    sizes = {
        "font": FONT,
        "axis": {"labelFontSize": 0.85 * fs, "titleFontSize": 0.9 * fs, "titleFontWeight": "normal"},
        "legend": {"labelFontSize": 0.85 * fs, "titleFontSize": 0.85 * fs},
        "title": {"fontSize": 1.15 * fs},
        "text": {"fontSize": 0.8 * fs},
    }
    return _pin_fonts(_merge(theme_config(spec.style.theme), sizes))
