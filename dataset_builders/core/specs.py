"""Every kind of spec a row can store, by its ``version`` string: one load and render entry point.

A row's ``spec`` column is the JSON of a chart (``chartprobe.spec/1``, :class:`ChartSpec`) or of
a shape scene (``chartprobe.scene/1``, :class:`SceneSpec`). :func:`load_spec` reads either,
dispatching on the ``version`` tag, and :func:`render_spec` renders whatever it loaded, so
``chartprobe render`` re-renders the ``spec`` of any row of any release. A new spec kind is
one more :class:`SpecKind` in :data:`SPEC_KINDS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .fields import SpecError
from .render import Rendered, render
from .scenes.render import render_scene
from .scenes.spec import SCENE_VERSION, SceneSpec
from .spec import SPEC_VERSION, ChartSpec

__all__ = ["SPEC_KINDS", "SpecKind", "load_spec", "render_spec"]


@dataclass(frozen=True)
class SpecKind:
    """A kind of stored spec: its class (``from_dict``/``to_json``/``validate``) and its renderer."""

    version: str
    spec_class: type
    render: Callable[[Any], Rendered]


SPEC_KINDS: dict[str, SpecKind] = {
    kind.version: kind for kind in (
        SpecKind(SPEC_VERSION, ChartSpec, render),
        SpecKind(SCENE_VERSION, SceneSpec, render_scene),
    )
}
"""Spec kinds by version tag. A spec without a tag is a chart (the tag was optional in v1)."""


def _kind_of(d: Any) -> SpecKind:
    if not isinstance(d, dict):
        raise SpecError("spec", f"expected a JSON object, got {type(d).__name__}")
    version = d.get("version", SPEC_VERSION)
    try:
        return SPEC_KINDS[version]
    except (KeyError, TypeError):
        raise SpecError("spec.version", f"unsupported version {version!r}; expected one of: "
                        f"{', '.join(map(repr, SPEC_KINDS))}") from None


def load_spec(data: str | dict[str, Any]) -> ChartSpec | SceneSpec:
    """Parse a stored spec (JSON text or a dict) of any kind and validate it."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise SpecError("spec", f"invalid JSON: {exc}") from None
    return _kind_of(data).spec_class.from_dict(data).validate()


def render_spec(spec: ChartSpec | SceneSpec) -> Rendered:
    """Render a loaded spec of any kind: PNG bytes, size and normalized element boxes."""
    for kind in SPEC_KINDS.values():
        if isinstance(spec, kind.spec_class):
            return kind.render(spec)
    raise SpecError("spec", f"no renderer for {type(spec).__name__}")
