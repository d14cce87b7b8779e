"""Decorator registries with eager, loud autoload.

``@chart("bar")``, ``@template("P-COUNT-BARS")``, ``@intervention("legend_swap")``,
``@flaw("axis_scaling")`` and ``@dataset("smoke")`` register a class (or factory)
under a name. Each registry lives in the ``__init__.py`` of the folder that holds its
plug-ins (``core/charts/``, ``probes/templates/``, ``legend/interventions/``...) and
imports every module there in sorted order the first time it is read; a registry with a
``submodule`` instead imports that module of every sub-package (the dataset registry
imports ``<benchmark>/builder.py`` of every benchmark package). A module that fails to
import, or imports fine but registers nothing, raises :class:`RegistryError`: a
plug-in must never vanish silently (a silently skipped file is a silently missing
benchmark slice). This module knows no plug-in: the core names no benchmark.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Registry", "RegistryError"]


class RegistryError(RuntimeError):
    """A plug-in module is broken, registers nothing, or a name is unknown/duplicated."""


class Registry:
    """A name -> object mapping filled by a decorator and an autoloaded sub-package."""

    def __init__(self, kind: str, package: str | None, *, submodule: str | None = None) -> None:
        self.kind = kind
        self.package = package
        self.submodule = submodule
        self._items: dict[str, Any] = {}
        self._origin: dict[str, str] = {}
        self._loaded = package is None
        self._loading = False

    def register(self, name: str) -> Callable[[Any], Any]:
        """Return a decorator that registers its target under ``name``."""

        def decorator(obj: Any) -> Any:
            module = getattr(obj, "__module__", "?")
            if name in self._items and self._origin[name] != module:
                raise RegistryError(
                    f"{self.kind} {name!r} registered twice ({self._origin[name]} and {module})")
            self._items[name] = obj
            self._origin[name] = module
            if isinstance(obj, type) and not hasattr(obj, "name"):
                obj.name = name
            return obj

        return decorator

    def load(self) -> None:
        """Import every module of the plug-in package once, in sorted order."""
        if self._loaded or self._loading:
            return
        self._loading = True
        try:
            try:
                pkg = importlib.import_module(self.package)
            except ModuleNotFoundError as exc:
                if exc.name != self.package:
                    raise
                # The plug-in package does not exist yet (e.g. no flaws written): empty registry.
                self._loaded = True
                return
            for full in self._plugin_modules(pkg):
                try:
                    importlib.import_module(full)
                except Exception as exc:  # re-raised with the module named
                    raise RegistryError(f"{self.kind} module {full} failed to import: {exc!r}") from exc
                if full not in self._origin.values():
                    raise RegistryError(f"{self.kind} module {full} registers nothing")
            self._loaded = True
        finally:
            self._loading = False

    def _plugin_modules(self, pkg: Any) -> list[str]:
        """Dotted names of the plug-in modules: every public module, or ``<sub>.<submodule>``."""
        found = sorted((m for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")),
                       key=lambda m: m.name)
        if self.submodule is None:
            return [f"{self.package}.{m.name}" for m in found]
        return [f"{self.package}.{m.name}.{self.submodule}" for m in found if m.ispkg
                and importlib.util.find_spec(f"{self.package}.{m.name}.{self.submodule}") is not None]

    def get(self, name: str) -> Any:
        """Return the object registered under ``name``, or raise a RegistryError listing choices."""
        self.load()
        try:
            return self._items[name]
        except KeyError:
            raise RegistryError(
                f"unknown {self.kind} {name!r}; choose from: {', '.join(sorted(self._items))}") from None

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self.load()
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, Any]]:
        """(name, object) pairs in sorted name order."""
        self.load()
        return iter(sorted(self._items.items()))

    def __contains__(self, name: object) -> bool:
        self.load()
        return name in self._items

    def __len__(self) -> int:
        self.load()
        return len(self._items)

