"""Vega drawers, one module per chart kind, registered with ``@vega_kind("<kind>")``.

A drawer turns a spec into Vega-Lite layers (:class:`~.base.Plot`); the engine adds title,
legend, theme and size. Every chart kind has one; what Vega cannot draw is refused by the engine
with the field named: hatch patterns (Vega has no pattern fills). Radar charts are projected onto
a hidden Cartesian plane (Vega-Lite has no polar coordinates) and lose the light fill under each
outline.
"""

from __future__ import annotations

from ...registry import Registry

__all__ = ["VEGA_KINDS", "vega_kind"]

VEGA_KINDS = Registry("vega kind", __name__)
vega_kind = VEGA_KINDS.register
