"""The layout is the architecture: imports run one way and every package is installed.

The import graph is read with ``ast`` from the source files (nothing is imported), every
``import`` counted wherever it stands (a function-level import is a dependency too) except
under ``if TYPE_CHECKING:``. Rules:

- no import circle anywhere (module level: a file never reaches itself);
- faces run one way: ``chartprobe.cli`` -> ``training`` -> ``eval_tasks`` -> ``dataset_builders``;
- inside ``dataset_builders``: benchmark packages -> ``release`` -> ``core``; the core imports
  no other package of the tree, the release layer only the core, and no benchmark package
  imports another benchmark package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
FACES = {"chartprobe": "chartprobe", "chartprobe.dataset_builders": "dataset_builders",
         "chartprobe.eval_tasks": "eval_tasks", "chartprobe.training": "training"}
DB = "chartprobe.dataset_builders"
LAYERS = {f"{DB}.core": 0, f"{DB}.release": 1}
"""Layers of dataset_builders below the benchmark packages; a package may import its own layer and
lower ones. Every other sub-package of dataset_builders is a benchmark package (layer 2)."""
FACE_ORDER = ["chartprobe.dataset_builders", "chartprobe.eval_tasks", "chartprobe.training", "chartprobe.cli"]


def _module_files() -> dict[str, Path]:
    out = {}
    for package, folder in FACES.items():
        base = ROOT / folder
        # chartprobe/ holds only its own modules (the faces are mapped in from their folders)
        for path in (base.glob("*.py") if package == "chartprobe" else base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join((package, *rel))] = path
    return out


MODULES = _module_files()


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import node, skipping ``if TYPE_CHECKING:`` bodies (annotations only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _imports(child))
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(node)


def _resolve(name: str) -> str | None:
    """The module of the tree that ``name`` refers to (a module, or a name inside one)."""
    while name and name not in MODULES and name != "chartprobe":
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of the tree it imports."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets = set()
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{a.name}" for a in node.names]
            targets |= {t for t in map(_resolve, names) if t and t != module}
        graph[module] = targets
    return graph


GRAPH = import_graph()


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _face(module: str) -> int | None:
    for i, face in reversed(list(enumerate(FACE_ORDER))):
        if module == face or module.startswith(face + "."):
            return i
    return None  # the chartprobe root package (__version__): below everything


def _db_package(module: str) -> str | None:
    """``chartprobe.dataset_builders.<package>`` of a module inside one, else None."""
    parts = module.split(".")
    return ".".join(parts[:3]) if module.startswith(DB + ".") and len(parts) > 3 else None


def _layer(package: str) -> int:
    return LAYERS.get(package, 2)


def test_graph_reads_the_whole_tree():
    assert f"{DB}.core.spec" in GRAPH and "chartprobe.cli" in GRAPH and "chartprobe.eval_tasks.scoring" in GRAPH
    assert f"{DB}.core.fields" in GRAPH[f"{DB}.core.spec"]  # relative imports resolve
    assert f"{DB}.probes.program" in GRAPH["chartprobe.eval_tasks.suites.probes"]  # function-level, absolute
    assert f"{DB}.core.render" in GRAPH[f"{DB}.families.builder"]  # function-level, relative across rooms


def test_no_import_circles():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_circles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_faces_import_one_way():
    bad = [f"{m} -> {t}" for m, ts in GRAPH.items() for t in ts
           if _face(t) is not None and _face(m) is not None and _face(t) > _face(m)]
    assert bad == []


def test_core_release_and_benchmarks_import_one_way():
    bad = []
    for module, targets in GRAPH.items():
        src = _db_package(module)
        if src is None:
            continue
        for target in targets:
            dst = _db_package(target)
            if target == DB:
                bad.append(f"{module} -> {target} (the package face sits above every room)")
            elif dst is None or dst == src:
                continue
            elif _layer(dst) > _layer(src) or (_layer(dst) == 2 and _layer(src) == 2):
                bad.append(f"{module} -> {target}")
    assert bad == []


def test_the_layer_rules_catch_a_core_import_of_a_benchmark():
    module, target = f"{DB}.core.render", f"{DB}.probes.templates"
    assert _layer(_db_package(target)) > _layer(_db_package(module))
    assert _db_package(f"{DB}.legend.unit") != _db_package(f"{DB}.judge.cpa")


def _packages_on_disk() -> set[str]:
    found = {"chartprobe"}
    for package, folder in FACES.items():
        if package == "chartprobe":
            continue
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *rel)))
    return found


def test_pyproject_installs_every_package_under_one_name():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _packages_on_disk()
    assert all(p == "chartprobe" or p.startswith("chartprobe.") for p in config["packages"])
    assert config["package-dir"] == FACES


BENCHMARKS = sorted(p.name for p in (ROOT / "dataset_builders").iterdir()
                    if (p / "builder.py").exists() and p.name != "smoke")


def test_there_are_four_benchmark_packages():
    assert BENCHMARKS == ["families", "judge", "legend", "probes"]


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_package_says_where_its_evaluation_lives(name):
    """Each benchmark's docstring names its metrics, suite and task hooks, and they exist."""
    doc = ast.get_docstring(ast.parse((ROOT / "dataset_builders" / name / "__init__.py").read_text()))
    for path in (f"eval_tasks/metrics/{name}.py", f"eval_tasks/suites/{name}.py", f"eval_tasks/tasks/{name}_utils.py"):
        assert (ROOT / path).exists(), path
        assert path in doc or path.rsplit("/", 1)[1] in doc, f"{name}: docstring does not name {path}"
