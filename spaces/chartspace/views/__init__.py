"""The Space's views, one module each.

A dataset view module defines ``TITLE`` and ``build(source, state) -> ViewHandle``; the
predictions and generate tabs have their own ``build`` signatures. ``app.py`` composes them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["load"]


def load(name: str) -> ModuleType:
    """The view module ``chartspace.views.<name>``."""
    return importlib.import_module(f"chartspace.views.{name}")
