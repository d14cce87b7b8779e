"""Element boxes from a Vega scenegraph (``vl_convert.vega_to_scenegraph``).

Data marks carry their element id in ``description`` (every layer encodes it), so a mark's box is
the union of the scenegraph items that carry the id; guides (axes, legend, title) are found by
their Vega role, in the order Vega lays them out, which :mod:`.layers` fixes (explicit tick
values, explicit legend values). Coordinates are accumulated through nested groups from the
scenegraph's ``origin``; the result uses the matplotlib engine's ids and normalisation.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from .text import text_box

__all__ = ["ID_PREFIXES", "SceneBoxes", "scene_boxes"]

ID_PREFIXES = ("mark/", "line/", "area/", "value_label/", "band/", "legend/direct/", "tick/")
"""Element ids a data layer may put in ``description`` (Vega-Lite's own descriptions are ignored)."""

Box = tuple[float, float, float, float]


@dataclass
class SceneBoxes:
    """Pixel boxes of one scenegraph, by element id, plus tick label boxes per guide, in order."""

    boxes: dict[str, Box] = field(default_factory=dict)
    ticks: dict[str, list[Box | None]] = field(default_factory=dict)
    """``tick/x``, ``tick/y``, ``legend/colorbar_tick`` -> label boxes in scale order."""
    legend_symbols: list[Box] = field(default_factory=list)
    legend_labels: list[Box] = field(default_factory=list)

    def add(self, key: str, box: Box | None) -> None:
        """Union ``box`` into the box of ``key``."""
        if box is None:
            return
        old = self.boxes.get(key)
        self.boxes[key] = box if old is None else (min(old[0], box[0]), min(old[1], box[1]),
                                                   max(old[2], box[2]), max(old[3], box[3]))


def _f(item: dict, key: str, default: float = 0.0) -> float:
    v = item.get(key, default)
    return float(v) if v is not None else default


def _arc_box(item: dict, ox: float, oy: float) -> Box:
    # Vega arcs: angle 0 at 12 o'clock, clockwise; sample the outline (both radii).
    cx, cy = ox + _f(item, "x"), oy + _f(item, "y")
    a0, a1 = _f(item, "startAngle"), _f(item, "endAngle")
    pts = []
    for r in (_f(item, "innerRadius"), _f(item, "outerRadius")):
        for k in range(65):
            a = a0 + (a1 - a0) * k / 64
            pts.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _item_box(marktype: str, item: dict, ox: float, oy: float) -> Box | None:
    """Pixel box of one non-group item."""
    x, y = ox + _f(item, "x"), oy + _f(item, "y")
    if marktype == "text":
        return text_box(item, ox, oy)
    if marktype == "arc":
        return _arc_box(item, ox, oy)
    if marktype == "symbol":
        half = math.sqrt(max(_f(item, "size", 64.0), 0.0)) / 2 + _f(item, "strokeWidth", 0.0) / 2
        return (x - half, y - half, x + half, y + half)
    if marktype in ("rect", "image"):
        x2 = ox + _f(item, "x2") if "x2" in item else x + _f(item, "width")
        y2 = oy + _f(item, "y2") if "y2" in item else y + _f(item, "height")
        return (min(x, x2), min(y, y2), max(x, x2), max(y, y2))
    if marktype == "rule":
        x2 = ox + _f(item, "x2") if "x2" in item else x
        y2 = oy + _f(item, "y2") if "y2" in item else y
        return (min(x, x2), min(y, y2), max(x, x2), max(y, y2))
    if marktype in ("line", "area", "trail"):
        y2 = oy + _f(item, "y2") if "y2" in item else y
        return (x, min(y, y2), x, max(y, y2))
    return None


def _walk(mark: dict, ox: float, oy: float, roles: tuple[str, ...]) -> Iterator[tuple]:
    """(marktype, role path, item, origin x, origin y) of every item below ``mark``."""
    marktype, role = mark.get("marktype", ""), mark.get("role", "")
    path = (*roles, role)
    for item in mark.get("items", []):
        yield marktype, path, item, ox, oy
        if marktype == "group":
            gx, gy = ox + _f(item, "x"), oy + _f(item, "y")
            for child in item.get("items", []):
                yield from _walk(child, gx, gy, path)


def _group_box(item: dict, ox: float, oy: float) -> Box:
    x, y = ox + _f(item, "x"), oy + _f(item, "y")
    return (x, y, x + _f(item, "width"), y + _f(item, "height"))


def scene_boxes(scenegraph: dict) -> SceneBoxes:
    """Every box the renderer reports, in pixels (origin top-left), from an exported scenegraph."""
    ox, oy = (float(v) for v in scenegraph.get("origin", (0, 0)))
    out = SceneBoxes()
    axis_orient = ""
    for marktype, path, item, gx, gy in _walk(scenegraph["scenegraph"], ox, oy, ()):
        role = path[-1]
        if marktype == "group" and role == "axis":
            axis_orient = item.get("orient", "")
        if marktype == "group" and path == ("frame",):
            out.add("axes", _group_box(item, gx, gy))
            continue
        if marktype == "group" and role == "legend":
            out.add("legend/box", _group_box(item, gx, gy))
            continue
        if marktype == "group":
            continue
        box = _item_box(marktype, item, gx, gy)
        desc = item.get("description")
        if role == "mark" and isinstance(desc, str) and desc.startswith(ID_PREFIXES):
            if desc.startswith("tick/"):  # drawn as marks where no axis exists (radar)
                guide, k = desc.rsplit("/", 1)
                labels = out.ticks.setdefault(guide, [])
                labels += [None] * (int(k) + 1 - len(labels))
                labels[int(k)] = box
            else:
                out.add(desc, box)
        elif role == "axis-label":
            guide = "tick/x" if axis_orient in ("bottom", "top") else "tick/y"
            out.ticks.setdefault(guide, []).append(box)
        elif role == "axis-title":
            out.add("axis/x/label" if axis_orient in ("bottom", "top") else "axis/y/label", box)
        elif role == "title-text":
            out.add("title", box)
        elif role == "legend-title":
            out.add("legend/title", box)
        elif role == "legend-symbol":
            out.legend_symbols.append(box)
        elif role == "legend-label":
            (out.ticks.setdefault("legend/colorbar_tick", []) if "legend/colorbar" in out.boxes
             else out.legend_labels).append(box)
        elif role == "legend-gradient":
            out.add("legend/colorbar", box)
    return out

