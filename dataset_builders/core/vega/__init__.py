"""The second drawing engine: the same ChartSpec (or shape scene) drawn by Vega through
vl-convert's embedded engine (no browser, no network), with the matplotlib engine's
``Rendered`` contract: RGB PNG bytes and normalized element boxes under the same ids.

``render_spec(spec, engine="vega")`` (:mod:`..specs`) is the entry point. Drawers are registered
per chart kind in :mod:`.kinds`; the scenegraph is read for boxes in :mod:`.scene`; house styles
in :mod:`.styles`. Needs ``pip install chartprobe[vega]`` (vl-convert-python pinned).
"""

from __future__ import annotations

from .engine import VEGA_LITE_VERSION, engine_versions, render_vega, vega_lite_spec
from .kinds import VEGA_KINDS

__all__ = ["VEGA_KINDS", "VEGA_LITE_VERSION", "engine_versions", "render_vega", "vega_lite_spec"]
