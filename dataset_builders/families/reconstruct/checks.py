"""The checks a generated family passes before any of it is used (A.4, A.5).

- :func:`schema_problem`: a variant's data keeps the template's schema: the same keys at every
  level and the same value types (ints and floats count as numbers). With ``fixed_lengths`` (the
  paper's protocol) every list keeps its length and each item its own template item's schema;
  without, list lengths may change and items keep the type of the template's first item.
- :func:`same_answer`: ``generate_answer`` on the base reconstruction gives the source answer:
  numbers within 0.1% (after ``%``, currency signs and thousands commas), anything else equal
  once stripped and case-folded (``Yes`` = ``yes``; a one-item list as its item).
- :func:`answer_text`: an answer value as the row's string (ints without ``.0``, bools as Yes/No).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["answer_text", "same_answer", "schema_problem"]

_NUM = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "list", dict: "object", type(None): "null"}.get(type(value), type(value).__name__)


def schema_problem(template: Any, data: Any, path: str = "data", *, fixed_lengths: bool = False) -> str | None:
    """None when ``data`` has ``template``'s schema, else where it differs (one line)."""
    if _kind(template) != _kind(data) and _kind(template) != "null":
        return f"{path} is {_kind(data)}, the template has {_kind(template)}"
    if isinstance(template, dict):
        if set(template) != set(data):
            lost, new = sorted(set(template) - set(data)), sorted(set(data) - set(template))
            return f"{path} keys differ (missing {lost}, new {new})"
        for key in template:
            problem = schema_problem(template[key], data[key], f"{path}.{key}", fixed_lengths=fixed_lengths)
            if problem:
                return problem
    if isinstance(template, list) and fixed_lengths:
        if len(template) != len(data):
            return f"{path} has {len(data)} items, the template {len(template)}"
        for i, (want, item) in enumerate(zip(template, data, strict=True)):
            problem = schema_problem(want, item, f"{path}[{i}]", fixed_lengths=True)
            if problem:
                return problem
    elif isinstance(template, list) and template and data:
        for i, item in enumerate(data):
            problem = schema_problem(template[0], item, f"{path}[{i}]")
            if problem:
                return problem
    return None


def answer_text(value: Any) -> str:
    """The answer as the row stores it."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return json.dumps([answer_text(v) for v in value], ensure_ascii=False)
    return str(value).strip()


def _number(text: str) -> float | None:
    flat = re.sub(r"[,$€£¥%\s]", "", text)
    return float(flat) if _NUM.fullmatch(flat) else None


def _unwrap(text: str) -> str:
    text = text.strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return str(value[0]).strip() if isinstance(value, list) and len(value) == 1 else text


def same_answer(source: str, computed: str) -> bool:
    """Whether ``generate_answer``'s value matches the source benchmark's answer."""
    a, b = _unwrap(source), _unwrap(computed)
    x, y = _number(a), _number(b)
    if x is not None and y is not None:
        return math.isclose(x, y, rel_tol=1e-3, abs_tol=1e-9)
    return a.casefold().rstrip(".") == b.casefold().rstrip(".")
