"""ChartProbe probe templates, one file each, registered with ``@template("<ID>")``."""

from __future__ import annotations

from ...core.registry import Registry

__all__ = ["TEMPLATES", "template"]

TEMPLATES = Registry("template", __name__)
template = TEMPLATES.register
