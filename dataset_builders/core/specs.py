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

__all__ = ["ENGINES", "SPEC_KINDS", "SpecKind", "load_spec", "render_spec"]


@dataclass(frozen=True)
class SpecKind:
    """A kind of stored spec: its class (``from_dict``/``to_json``/``validate``) and its renderers."""

    version: str
    spec_class: type
    render: Callable[[Any], Rendered]
    """The native engine: what every release is drawn with."""
    engine: str
    """The native engine's name."""
    others: dict[str, Callable[[Any], Rendered]]
    """Further engines by name (the same boxes contract, another drawing)."""

    def engines(self) -> dict[str, Callable[[Any], Rendered]]:
        """Every engine of this kind by name, native first."""
        return {self.engine: self.render, **self.others}


def _vega_chart(spec: ChartSpec) -> Rendered:
    from .vega.engine import render_vega

    return render_vega(spec)


def _vega_scene(scene: SceneSpec) -> Rendered:
    from .vega.scenes import render_scene_vega

    return render_scene_vega(scene)


SPEC_KINDS: dict[str, SpecKind] = {
    kind.version: kind for kind in (
        SpecKind(SPEC_VERSION, ChartSpec, render, "matplotlib", {"vega": _vega_chart}),
        SpecKind(SCENE_VERSION, SceneSpec, render_scene, "pillow", {"vega": _vega_scene}),
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


ENGINES = ("matplotlib", "pillow", "vega")
"""Every engine name some spec kind knows (charts: matplotlib, vega; scenes: pillow, vega)."""


def render_spec(spec: ChartSpec | SceneSpec, *, engine: str | None = None) -> Rendered:
    """Render a loaded spec of any kind: PNG bytes, size and normalized element boxes.

    ``engine`` None draws with the kind's native engine (as releases are drawn); ``"vega"``
    draws the same spec with Vega (``pip install chartprobe[vega]``).
    """
    for kind in SPEC_KINDS.values():
        if isinstance(spec, kind.spec_class):
            engines = kind.engines()
            if engine is not None and engine not in engines:
                raise SpecError("engine", f"{engine!r} cannot draw a {kind.version} spec; use one of "
                                f"{', '.join(engines)}")
            return engines[engine or kind.engine](spec)
    raise SpecError("spec", f"no renderer for {type(spec).__name__}")
