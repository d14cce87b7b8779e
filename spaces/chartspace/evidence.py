"""Evidence boxes: what a row's stored evidence points at, as boxes to outline on its chart.

Two release schemas carry evidence:

- ``chartprobe-legend``: ``evidence`` (JSON list of the legend box ids the question needs)
  and ``legend_boxes`` (JSON: box id -> normalized box, as the renderer measured it);
- ``chartprobe-judge``: ``evidence`` (the JSON dict a flaw's ``verify`` read off the two
  renders). Its ``*_box`` entries are normalized boxes; strings naming rendered elements
  (``mark/0/1``, ``value_label/0/0``, ``tick/x/3`` ...) are located by re-rendering the
  row's stored spec (the image is a pure function of it), once per spec (LRU cache).

A box is ``((x0, y0, x1, y1), label, colour)``, origin top-left, ready for
:func:`chartspace.images.draw_boxes`; the tuples are hashable so drawn thumbnails cache.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

from chartspace.images import EVIDENCE

__all__ = ["evidence_facts", "judge_boxes", "legend_boxes"]

Box = tuple[tuple[float, float, float, float], str, tuple[int, int, int]]


def _loads(text: Any) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return None


def _is_box(value: Any) -> bool:
    return (isinstance(value, list | tuple) and len(value) == 4
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            and all(-0.01 <= float(v) <= 1.01 for v in value))


def legend_boxes(evidence: Any, boxes: Any) -> tuple[Box, ...]:
    """The legend entries a legend row's question needs, located in its ``legend_boxes``."""
    ids, where = _loads(evidence), _loads(boxes)
    if not isinstance(ids, list) or not isinstance(where, dict):
        return ()
    return tuple((tuple(where[i]), i.rsplit("/", 2)[-2] + " " + i.rsplit("/", 1)[-1], EVIDENCE)
                 for i in ids if isinstance(i, str) and _is_box(where.get(i)))


def _walk(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """(key, leaf) pairs of a nested evidence dict (lists of strings are walked item by item)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, str(k))
    elif isinstance(node, list) and not _is_box(node):
        for v in node:
            yield from _walk(v, key)
    else:
        yield key, node


@functools.lru_cache(maxsize=64)
def _rendered_boxes(spec_json: str) -> dict[str, tuple]:
    """Element boxes of a stored spec, re-rendered (no row keeps every box of a judge chart)."""
    from chartprobe.dataset_builders.core.fields import SpecError
    from chartprobe.dataset_builders.core.specs import load_spec, render_spec

    try:
        return dict(render_spec(load_spec(spec_json)).boxes)
    except (SpecError, ValueError, KeyError, TypeError):  # another generator's spec: stored boxes only
        return {}


def judge_boxes(evidence: Any, spec_json: str | None = None) -> tuple[Box, ...]:
    """Boxes a judge row's evidence names: its ``*_box`` entries, and the rendered elements it
    names (located on ``spec_json``, the chart the evidence was read off)."""
    found = _loads(evidence)
    if not isinstance(found, dict):
        return ()
    out: list[Box] = []
    named: list[str] = []
    for key, value in _walk(found):
        if _is_box(value) and key.endswith("box"):
            out.append((tuple(float(v) for v in value), key.removesuffix("_box"), EVIDENCE))
        elif isinstance(value, str) and "/" in value and value not in named:
            named.append(value)
    if named and spec_json:
        where = _rendered_boxes(spec_json)
        out += [(tuple(where[n]), n, EVIDENCE) for n in named if _is_box(list(where.get(n) or ()))]
    return tuple(out)


def evidence_facts(evidence: Any) -> list[tuple[str, str]]:
    """The evidence's readable facts (key, value), boxes left out (they are drawn on the chart)."""
    found = _loads(evidence)
    if not isinstance(found, dict):
        return [("evidence", str(evidence or ""))] if evidence else []
    facts = []
    for key, value in sorted(found.items()):
        if _is_box(value):
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in sorted(value.items()) if not _is_box(v))
        elif isinstance(value, list):
            value = ", ".join(" ↔ ".join(map(str, v)) if isinstance(v, list) else str(v) for v in value)
        facts.append((str(key), str(value)))
    return facts
