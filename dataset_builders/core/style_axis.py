"""The drawing as a factor: an engine and a house style, named ``<engine>/<theme>``.

A :class:`DrawStyle` is applied to a spec by setting ``spec.style.theme`` and drawing with the
engine, so answers, programs and every other field stay the spec's. ``style_shift`` configs
render each base chart under several styles (:data:`STYLE_SHIFT_DEFAULT`); :func:`pick_style`
draws one by key like every other sampled choice. Vega cannot draw hatch patterns, so a chart
meant for both engines is drawn without them (:func:`both_engines`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .fields import HOUSE_STYLES, THEMES
from .spec import ChartSpec
from .themes import THEME_STYLES

__all__ = ["ENGINE_THEMES", "NATIVE", "STYLE_SHIFT_DEFAULT", "DrawStyle", "both_engines", "parse_styles", "pick_style",
           "style_card"]

ENGINE_THEMES: dict[str, tuple[str, ...]] = {
    "matplotlib": tuple(THEME_STYLES),
    "vega": THEMES + HOUSE_STYLES,
}
"""The themes each chart engine draws."""


@dataclass(frozen=True, order=True)
class DrawStyle:
    """One way to draw a chart: an engine and a theme of it."""

    engine: str
    theme: str

    @property
    def name(self) -> str:
        """``<engine>/<theme>``, the value of a row's ``style`` column."""
        return f"{self.engine}/{self.theme}"

    @classmethod
    def parse(cls, text: str) -> DrawStyle:
        """``"vega/fivethirtyeight"`` -> DrawStyle; ValueError naming the engines or themes allowed."""
        engine, sep, theme = str(text).partition("/")
        if not sep or engine not in ENGINE_THEMES:
            raise ValueError(f"style {text!r}: write <engine>/<theme> with engine one of {', '.join(ENGINE_THEMES)}")
        if theme not in ENGINE_THEMES[engine]:
            raise ValueError(f"style {text!r}: the {engine} engine draws the themes {', '.join(ENGINE_THEMES[engine])}")
        return cls(engine, theme)

    def apply(self, spec: ChartSpec) -> ChartSpec:
        """``spec`` in this style's theme (nothing else changes)."""
        return spec.replace(style=dataclasses.replace(spec.style, theme=self.theme))

    def render(self, spec: ChartSpec):
        """Draw ``spec`` in this style: ``Rendered`` (PNG and boxes) from this style's engine."""
        from .specs import render_spec

        return render_spec(self.apply(spec), engine=self.engine)


NATIVE = DrawStyle("matplotlib", "default")
"""How releases are drawn: the reference style of a style-shift comparison."""

STYLE_SHIFT_DEFAULT = ("matplotlib/default", "matplotlib/dark", "vega/default", "vega/fivethirtyeight",
                       "vega/latimes", "vega/urbaninstitute")
"""The styles a ``style_shift`` config draws unless its ``styles`` param says otherwise: the native
style first (the reference), a second matplotlib theme, and Vega in its default and three
published house styles."""


def parse_styles(names: Sequence[str] | None) -> tuple[DrawStyle, ...]:
    """The styles of a ``styles`` param (default :data:`STYLE_SHIFT_DEFAULT`): at least two, no repeats."""
    styles = tuple(DrawStyle.parse(n) for n in (names if names is not None else STYLE_SHIFT_DEFAULT))
    if len(styles) < 2 or len(set(styles)) != len(styles):
        raise ValueError("params.styles: list at least two different <engine>/<theme> styles")
    return styles


def pick_style(rng: np.random.Generator, pool: Sequence[DrawStyle]) -> DrawStyle:
    """One style of ``pool`` drawn from ``rng`` (a keyed generator: ``rng_for(seed, key, "style")``)."""
    return pool[int(rng.integers(len(pool)))]


def both_engines(spec: ChartSpec) -> ChartSpec:
    """``spec`` without hatch patterns (Vega has no pattern fills), so every engine draws the same chart."""
    if not any(e.hatch for e in spec.encodings):
        return spec
    return spec.replace(encodings=tuple(dataclasses.replace(e, hatch="") for e in spec.encodings))


def style_card(styles: Sequence[str]) -> str:
    """Markdown for a release card: the styles its ``style`` column holds and the pinned engine versions
    that decide their pixels (a re-render with other versions may differ)."""
    import matplotlib

    from .vega import engine_versions

    v = engine_versions()
    listed = ", ".join(f"`{s}`" for s in styles)
    return "\n".join([
        "## Drawing engines and styles", "",
        (f"`style_shift_*` rows show one chart and question in every style of the `style` column ({listed}): "
         "the same spec drawn by matplotlib or by Vega in one of its themes, so the gold is the same in every "
         "style. Re-render a row with `chartprobe render SPEC --engine <engine>` (the `engine` column)."), "",
        "| engine | version |", "|---|---|",
        f"| matplotlib | {matplotlib.__version__} |",
        f"| vl-convert | {v['vl_convert']} |", f"| Vega | {v['vega']} |", f"| Vega-Lite | {v['vega_lite']} |",
        f"| vega-themes | {v['vega_themes']} |", ""])
