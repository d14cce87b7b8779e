"""Flat 2D shape scenes: chartprobe's CLEVR-like, non-chart transfer domain.

A :class:`SceneSpec` is the scene graph (objects with shape, colour, size, fill and a
centre); :func:`sample_scene` draws one from a Generator, :func:`render_scene` draws it
with Pillow, and :class:`SceneView` answers the scene-graph queries the ``S-*`` probe
templates (``dataset_builders/probes/templates/s_*.py``) are built on.
"""

from .render import render_scene
from .sample import sample_scene
from .spec import SceneObject, SceneSpec
from .view import SceneView

__all__ = ["SceneObject", "SceneSpec", "SceneView", "render_scene", "sample_scene"]
