"""Typed field checks for release presets: strict keys, safe names, bounded values.

Each check raises :class:`FieldError` naming the dotted field (``configs.default.splits.test``);
``preset.load_preset`` prefixes the file, so every refusal is one line such as
``presets/x.yaml: configs.default.splits.test: must be a positive integer, got true``.
The checks know no file and no builder, so builders declare their parameters with the same
small type vocabulary (``int``, ``float``, ``str``, ``bool``, ``list[T]``, ``dict[str, T]`` and
:class:`OneOf` for a closed set of strings).
"""

from __future__ import annotations

import difflib
import math
import re
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["CONFIG_NAME", "MAX_NAME_CHARS", "MAX_PARAM_ITEMS", "MAX_PARAM_TEXT", "SPLIT_NAME",
           "FieldError", "OneOf", "PresetError", "check_int", "check_keys", "check_mapping", "check_name",
           "check_value", "did_you_mean"]

CONFIG_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
"""A config name is one path component of the release folder: no separator, no leading dot."""
SPLIT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_]*$")
"""A split name starts parquet file names (``<split>-00000-of-00001``) and must satisfy
``datasets`` (``\\w+``), so it is stricter than a config name: no ``-`` and no ``.``."""
MAX_NAME_CHARS = 64
"""Longest config, split or preset name."""
MAX_PARAM_ITEMS = 1000
"""Most entries of one list or mapping inside ``params``."""
MAX_PARAM_TEXT = 1000
"""Longest string inside ``params``."""


class PresetError(ValueError):
    """A preset file is missing or malformed (re-exported by ``preset``, where users meet it)."""


class FieldError(PresetError):
    """One bad field: ``field`` is its dotted path ('' for the whole document).

    A PresetError itself, so a check run outside ``load_preset`` still ends as one error line.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


@dataclass(frozen=True)
class OneOf:
    """A param type: a string from a closed set. ``choices`` may be a callable, read at check
    time, so a builder can name a registry without loading it at import."""

    choices: Iterable[str] | Callable[[], Iterable[str]]

    def names(self) -> list[str]:
        """The allowed strings."""
        return list(self.choices() if callable(self.choices) else self.choices)


def _show(value: Any) -> str:
    """A value as the user wrote it in YAML (``true``, not ``True``), cut short if long."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def did_you_mean(word: Any, choices: Iterable[str]) -> str:
    """`` (did you mean 'seed'?)`` for the closest choice, or '' when none is close."""
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_mapping(value: Any, where: str, *, empty: bool = False) -> dict:
    """``value`` as a mapping with string keys; refuse other types (and ``{}`` unless ``empty``)."""
    if not isinstance(value, dict):
        raise FieldError(where, f"must be a mapping, got {type(value).__name__} {_show(value)}")
    if not value and not empty:
        raise FieldError(where, "must not be empty")
    for key in value:
        if not isinstance(key, str):
            raise FieldError(where, f"keys must be strings, got {_show(key)}")
    return value


def check_keys(value: dict, allowed: Iterable[str], where: str, *, required: Iterable[str] = ()) -> None:
    """Refuse keys outside ``allowed`` (naming the closest allowed one) and missing ``required``."""
    allowed = list(allowed)
    for key in value:
        if key not in allowed:
            choices = ", ".join(allowed) if allowed else "none"
            raise FieldError(f"{where}.{key}" if where else key,
                             f"unknown key{did_you_mean(key, allowed)}; allowed: {choices}")
    for key in required:
        if key not in value:
            raise FieldError(f"{where}.{key}" if where else key, "missing required key")


def check_int(value: Any, where: str, lo: int, hi: int, limit: str = "") -> int:
    """An int in ``lo..hi``; ``true``/``false`` are refused (YAML booleans are not counts).

    ``limit`` names the documented constant behind ``hi``, so the error says where to look.
    """
    kind = "positive integer" if lo == 1 else "non-negative integer" if lo == 0 else "integer"
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise FieldError(where, f"must be a {kind}, got {_show(value)}")
    if value > hi:
        raise FieldError(where, f"must be at most {hi}{f' ({limit})' if limit else ''}, got {value}")
    return value


def check_name(value: Any, where: str, pattern: re.Pattern[str] = CONFIG_NAME) -> str:
    """A name that is safe as one path component (``pattern``, at most MAX_NAME_CHARS, no ``..``)."""
    if not isinstance(value, str):
        raise FieldError(where, f"must be a string name, got {_show(value)}")
    if len(value) > MAX_NAME_CHARS or ".." in value or not pattern.match(value):
        allowed = "letters, digits and _" + (" . -" if pattern is CONFIG_NAME else "")
        raise FieldError(where, f"{_show(value)} is not a safe name (start with a letter or digit, "
                         f"then {allowed}; no '..'; at most {MAX_NAME_CHARS} characters)")
    return value


def check_value(value: Any, tp: Any, where: str, max_int: int, limit: str = "") -> None:
    """Check ``value`` against a declared param type, bounding every size on the way.

    ``max_int`` bounds every integer (params hold counts, and a count drives work); ``limit``
    names the constant behind it.
    """
    origin = typing.get_origin(tp)
    if tp is Any:
        return
    if isinstance(tp, OneOf):
        names = tp.names()
        if not isinstance(value, str) or value not in names:
            raise FieldError(where, f"{_show(value)} is not one of {', '.join(names)}"
                             f"{did_you_mean(value, names) if isinstance(value, str) else ''}")
        return
    if origin is list:
        if not isinstance(value, list):
            raise FieldError(where, f"must be a list, got {_show(value)}")
        if len(value) > MAX_PARAM_ITEMS:
            raise FieldError(where, f"{len(value)} entries; at most {MAX_PARAM_ITEMS}")
        (inner,) = typing.get_args(tp)
        for i, item in enumerate(value):
            check_value(item, inner, f"{where}[{i}]", max_int, limit)
    elif origin is dict:
        check_mapping(value, where, empty=True)
        if len(value) > MAX_PARAM_ITEMS:
            raise FieldError(where, f"{len(value)} entries; at most {MAX_PARAM_ITEMS}")
        _key, inner = typing.get_args(tp)
        for key, item in value.items():
            check_value(item, inner, f"{where}.{key}", max_int, limit)
    elif tp is int:
        check_int(value, where, 0, max_int, limit)
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise FieldError(where, f"must be a finite number, got {_show(value)}")
    elif tp is bool:
        if not isinstance(value, bool):
            raise FieldError(where, f"must be true or false, got {_show(value)}")
    elif tp is str:
        if not isinstance(value, str):
            raise FieldError(where, f"must be a string, got {_show(value)}")
        if len(value) > MAX_PARAM_TEXT:
            raise FieldError(where, f"longer than {MAX_PARAM_TEXT} characters")
    else:  # a builder declared a type this vocabulary lacks: a bug, said loudly
        raise TypeError(f"unsupported param type {tp!r} for {where}")
