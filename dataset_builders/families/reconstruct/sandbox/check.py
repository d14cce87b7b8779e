"""The AST check every piece of model-written code passes before it runs (the contract of A.2-A.5).

A module may hold only a docstring, imports from :data:`ALLOWED_IMPORTS`, and exactly one top-level
function, the one the stage asks for. Inside it, no names that reach the interpreter's machinery
(``exec``, ``open``, ``__import__``, ``getattr`` ...) and no dunder attributes (``__class__``,
``__globals__`` ...), no attributes named like a module that reaches the system (``x.os``,
``x.subprocess``, ``x.ctypes``, ``x.sys`` ...) and no string holding a dunder name, the usual ways
out of a namespace. This is a first filter with clear messages for the revise loop, not a
boundary: Python offers more ways round any such list than it can name. The sandbox (:mod:`.jobs`)
is what contains the code.

``ast.parse`` runs under one lock (:data:`_PARSE`): CPython 3.11 keeps the depth counter of its
AST-to-Python conversion in state shared by all threads, so parses from several reconstruct
threads at once can fail with ``SystemError: AST constructor recursion depth mismatch``.
Parsing one chart's code takes well under a millisecond, so serialising it costs nothing.
"""

from __future__ import annotations

import ast
import re
import threading

__all__ = ["ALLOWED_IMPORTS", "FORBIDDEN_ATTRIBUTES", "FORBIDDEN_NAMES", "CodeRejected", "check_code",
           "imported_modules"]

ALLOWED_IMPORTS = frozenset({
    "numpy", "pandas", "matplotlib", "math", "random", "statistics", "itertools", "collections",
    "functools", "copy", "datetime", "re", "json", "string", "colorsys", "decimal", "fractions",
    "operator", "typing", "textwrap", "calendar", "numbers",
})
"""Top-level modules the contract's code may import: plotting, numbers, dates, text."""

FORBIDDEN_NAMES = frozenset({
    "exec", "eval", "compile", "open", "__import__", "input", "breakpoint", "globals", "locals", "vars",
    "getattr", "setattr", "delattr", "exit", "quit", "help", "memoryview", "__builtins__", "__loader__",
    "__spec__",
})


FORBIDDEN_ATTRIBUTES = frozenset({
    "os", "sys", "subprocess", "ctypes", "ctypeslib", "builtins", "importlib", "posix", "nt", "shutil",
    "socket", "pty", "signal", "multiprocessing", "threading", "_thread", "gc", "inspect", "marshal",
    "pickle", "io", "pathlib", "tempfile", "runpy", "codeop", "pkgutil", "sysconfig", "resource",
    "fcntl", "mmap", "asyncio", "urllib", "http", "ftplib", "smtplib", "webbrowser", "tarfile",
    "zipfile", "zipimport", "glob", "weakref",
})
"""Attribute names that reach a module the allowed ones import internally (``matplotlib.os``,
``matplotlib.cbook.subprocess``, ``np.ctypeslib.ctypes``); with one leading underscore too
(``tempfile._os``). A chart has no use for any of them."""

_DUNDER = re.compile(r"__\w+__")
"""A dunder name inside a string (``operator.attrgetter('__self__.__import__')``)."""

_PARSE = threading.Lock()
"""Held around every ``ast.parse`` of model code (see the module docstring)."""


class CodeRejected(ValueError):
    """The code breaks the contract; the message says where and how (it goes back to the model)."""


def _imports(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            raise CodeRejected(f"line {node.lineno}: relative import")
        if any(a.name == "*" for a in node.names):
            raise CodeRejected(f"line {node.lineno}: `from {node.module} import *`")
        return [node.module or ""]
    return []


def _allowed(name: str, allowed: frozenset[str]) -> bool:
    """Whether an import of ``name`` passes: its top-level package is allowed, or the dotted name or
    one of its parents is (``mpl_toolkits.mplot3d`` allows only that part of ``mpl_toolkits``)."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in allowed for i in range(1, len(parts) + 1))


def _check_node(node: ast.AST, allowed: frozenset[str]) -> None:
    for name in _imports(node):
        if isinstance(node, ast.ImportFrom) and all(_allowed(f"{name}.{a.name}", allowed) for a in node.names):
            continue  # `from mpl_toolkits import mplot3d` when only that part is allowed
        if not _allowed(name, allowed):
            raise CodeRejected(f"line {node.lineno}: import of {name!r} (allowed: "
                               f"{', '.join(sorted(allowed))})")
    if isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
        raise CodeRejected(f"line {node.lineno}: use of {node.id!r}")
    if isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr.endswith("__"):
        raise CodeRejected(f"line {node.lineno}: dunder attribute {node.attr!r}")
    if isinstance(node, ast.Attribute) and node.attr.removeprefix("_") in FORBIDDEN_ATTRIBUTES:
        raise CodeRejected(f"line {node.lineno}: attribute {node.attr!r} reaches a module the code may not use")
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
        found = _DUNDER.search(text)
        if found:
            raise CodeRejected(f"line {node.lineno}: dunder name {found.group()!r} in a string")
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        raise CodeRejected(f"line {node.lineno}: `{type(node).__name__.lower()}` statement")


def imported_modules(code: str) -> list[str]:
    """The modules ``code`` imports, in order (what the sandbox loads before it drops privileges)."""
    try:
        with _PARSE:
            tree = ast.parse(code)
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    return [n for n in dict.fromkeys(names) if n]


def check_code(code: str, function: str, allowed: frozenset[str] = ALLOWED_IMPORTS) -> None:
    """Raise :class:`CodeRejected` unless ``code`` is one top-level ``function`` plus imports of
    ``allowed`` modules (a protocol's list for that function: :mod:`..protocol`)."""
    try:
        with _PARSE:
            tree = ast.parse(code)
    except SyntaxError as exc:
        raise CodeRejected(f"syntax error, line {exc.lineno}: {exc.msg}") from None
    functions = []
    for i, node in enumerate(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            continue  # the module docstring
        if isinstance(node, ast.FunctionDef):
            functions.append(node)
            continue
        raise CodeRejected(f"line {node.lineno}: only imports and one function `{function}` may stand at the "
                           f"top level, not a {type(node).__name__}")
    if [f.name for f in functions] != [function]:
        found = ", ".join(f.name for f in functions) or "none"
        raise CodeRejected(f"the code must define exactly one top-level function `{function}` (found: {found})")
    for node in ast.walk(tree):
        _check_node(node, allowed)
