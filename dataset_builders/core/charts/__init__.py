"""Chart kinds, one module each, registered with ``@chart("<kind>")``: how a kind samples a
spec (``sample``), draws it (``draw``) and checks its own fields (``validate``)."""

from __future__ import annotations

from ..registry import Registry

__all__ = ["CHARTS", "chart"]

CHARTS = Registry("chart", __name__)
chart = CHARTS.register
