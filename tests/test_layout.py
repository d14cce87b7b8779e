"""The layout is the architecture: imports run one way and every package is installed.

The import graph is read with ``ast`` from the source files (nothing is imported), every
``import`` counted wherever it stands (a function-level import is a dependency too) except
under ``if TYPE_CHECKING:``. Rules:

- no import circle anywhere (module level: a file never reaches itself);
- faces run one way: ``chartprobe.cli`` -> ``training`` -> ``eval_tasks`` -> ``dataset_builders``;
- inside ``dataset_builders``: benchmark packages -> ``release`` -> ``core``; the core imports
  no other package of the tree, the release layer only the core, and no benchmark package
  imports another benchmark package;
- inside ``eval_tasks``: every module lives in a room (a sub-package) except the package face and
  the commands module, and rooms import only rooms on a lower floor (:data:`EVAL_FLOORS`).
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
ET = "chartprobe.eval_tasks"
EVAL_FLOORS = {"scoring": 0, "metrics": 1, "suites": 2, "answer_judge": 2, "rescoring": 3, "validity": 4,
               "harness": 4, "report": 5, "commands": 6}
"""The rooms of ``eval_tasks`` by floor: a room imports only rooms on lower floors (peers on one floor
never import each other). harness/report/validity -> rescoring -> suites/answer_judge -> metrics ->
scoring -> ``dataset_builders.core``."""
EVAL_TOP_LEVEL = {"__init__.py", "commands.py"}
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
    assert f"{DB}.core.spec" in GRAPH and "chartprobe.cli" in GRAPH and "chartprobe.eval_tasks.scoring.typed" in GRAPH
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
    for path in (f"eval_tasks/metrics/{name}.py", f"eval_tasks/suites/{name}.py", f"eval_tasks/harness/tasks/{name}_utils.py"):
        assert (ROOT / path).exists(), path
        assert path in doc or path.rsplit("/", 1)[1] in doc, f"{name}: docstring does not name {path}"


def _eval_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if module.startswith(ET + ".") else None


def test_eval_tasks_has_no_flat_modules():
    """Only the package face and the commands module sit at the top of eval_tasks; the rest is in rooms."""
    top = {p.name for p in (ROOT / "eval_tasks").glob("*.py")}
    assert top <= EVAL_TOP_LEVEL and len(top) <= 3, sorted(top - EVAL_TOP_LEVEL)
    rooms = {p.name for p in (ROOT / "eval_tasks").iterdir() if (p / "__init__.py").exists()}
    assert rooms == set(EVAL_FLOORS) - {"commands"}


@pytest.mark.parametrize("room", sorted(set(EVAL_FLOORS) - {"commands"}))
def test_every_eval_room_says_what_it_holds(room):
    doc = ast.get_docstring(ast.parse((ROOT / "eval_tasks" / room / "__init__.py").read_text()))
    assert doc and len(doc.split()) >= 5, f"eval_tasks/{room}/__init__.py needs a docstring saying what it holds"


def _upward_room_imports(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, targets in graph.items():
        src = _eval_room(module)
        if src is None:
            continue
        for target in targets:
            dst = _eval_room(target)
            if target == ET:
                bad.append(f"{module} -> {target} (the package face sits above every room)")
            elif dst is not None and dst != src and EVAL_FLOORS[dst] >= EVAL_FLOORS[src]:
                bad.append(f"{module} -> {target}")
    return bad


def test_eval_rooms_import_downwards_only():
    assert _upward_room_imports(GRAPH) == []


def test_scoring_imports_only_the_core():
    """The bottom room depends on nothing of the tree but ``dataset_builders.core``."""
    bad = [f"{m} -> {t}" for m, ts in GRAPH.items() if _eval_room(m) == "scoring" for t in ts
           if _eval_room(t) not in (None, "scoring") or (t.startswith(DB) and not t.startswith(f"{DB}.core"))]
    assert bad == []


def test_the_room_rule_catches_an_upward_import():
    planted = {f"{ET}.suites.probes": {f"{ET}.report.build"}, f"{ET}.suites.judge": {f"{ET}.answer_judge.client"},
               f"{ET}.report.build": {f"{ET}.suites.probes"}}
    assert _upward_room_imports(planted) == [f"{ET}.suites.probes -> {ET}.report.build",
                                             f"{ET}.suites.judge -> {ET}.answer_judge.client"]
