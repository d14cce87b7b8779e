"""Spec round trip, validation errors, registries and local RNGs."""

from __future__ import annotations

import json
import math
import sys
import textwrap

import pytest
from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.registry import RegistryError
from chartprobe.dataset_builders.core.rng import rng_for, stable_int
from chartprobe.dataset_builders.core.spec import (
    SPEC_VERSION,
    ChartSpec,
    DataTable,
    Encoding,
    Series,
    SpecError,
)


def bar_spec(values=(3.0, 5.0, 8.0)) -> ChartSpec:
    cats = tuple(f"C{i}" for i in range(len(values)))
    return ChartSpec(kind="bar", data=DataTable(categories=cats, series=(Series("Sales", tuple(values)),)),
                     encodings=(Encoding("#1f77b4"),))


def test_round_trip_and_version_tag():
    spec = bar_spec()
    d = spec.to_dict()
    assert d["version"] == SPEC_VERSION
    assert ChartSpec.from_dict(json.loads(json.dumps(d))) == spec
    assert ChartSpec.from_json(spec.to_json()) == spec


@pytest.mark.parametrize("kind", CHARTS.names())
def test_sampled_spec_round_trips_for_every_kind(kind):
    spec = CHARTS.get(kind)().sample(rng_for(7, kind))
    spec.validate()
    assert ChartSpec.from_dict(json.loads(spec.to_json())) == spec


def _mutate(d, path, value):
    node = d
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return d


@pytest.mark.parametrize("path,value,field", [
    (("kind",), "sunburst", "spec.kind"),
    (("data", "series", 0, "values"), [1.0, 2.0], "spec.data.series[0].values"),
    (("data", "series", 0, "values"), [1.0, float("nan"), 2.0], "spec.data.series[0].values[1]"),
    (("encodings", 0, "color"), "blue", "spec.encodings[0].color"),
    (("legend", "form"), "floating", "spec.legend.form"),
    (("legend", "order"), [0, 0], "spec.legend.order"),
    (("axes", "y_limits"), [5, 1], "spec.axes.y_limits"),
    (("style", "dpi"), 5, "spec.style.dpi"),
    (("data", "bogus"), 1, "spec.data.bogus"),
])
def test_malformed_spec_names_the_field(path, value, field):
    d = _mutate(bar_spec().to_dict(), path, value)
    with pytest.raises(SpecError) as err:
        ChartSpec.from_dict(json.loads(json.dumps(d))).validate()
    assert err.value.field == field
    assert str(err.value).startswith(field) and "\n" not in str(err.value)


def test_nan_built_in_python_is_rejected_by_validate():
    with pytest.raises(SpecError, match=r"spec.data.series\[0\].values\[0\]"):
        bar_spec((math.nan, 1.0, 2.0)).validate()


def test_wrong_version_is_rejected():
    d = bar_spec().to_dict() | {"version": "chartprobe.spec/999"}
    with pytest.raises(SpecError, match="spec.version"):
        ChartSpec.from_dict(d)


def test_rng_is_keyed_not_ordered():
    a = rng_for(3, "item-1", "data").random(4)
    rng_for(3, "item-0", "data").random(100)  # another item drawn in between changes nothing
    b = rng_for(3, "item-1", "data").random(4)
    assert (a == b).all()
    assert not (rng_for(3, "item-1", "data").random(4) == rng_for(3, "item-1", "style").random(4)).all()
    assert stable_int("abc") == stable_int("abc") and stable_int(5) == 5


def test_rng_stable_across_processes():
    import subprocess

    code = "from chartprobe.dataset_builders.core.rng import rng_for; print(rng_for(11, 'x', 2).integers(10**9))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout.strip()
    assert int(out) == int(rng_for(11, "x", 2).integers(10**9))


@pytest.fixture()
def plugin_pkg(tmp_path, monkeypatch):
    """Make a throwaway plug-in package whose __init__ holds its own Registry."""
    import importlib

    monkeypatch.syspath_prepend(str(tmp_path))

    def make(name, files):
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text(
            f"from chartprobe.dataset_builders.core.registry import Registry\nREG = Registry('thing', {name!r})\n")
        for fname, body in files.items():
            (pkg / fname).write_text(textwrap.dedent(body))
        return importlib.import_module(name).REG

    yield make
    for mod in [m for m in sys.modules if m.startswith("plugpkg")]:
        del sys.modules[mod]


def test_registry_autoloads_sorted_and_registers(plugin_pkg):
    reg = plugin_pkg("plugpkg_ok", {
        "b.py": "from . import REG\n@REG.register('bee')\nclass B: pass\n",
        "a.py": "from . import REG\n@REG.register('ay')\nclass A: pass\n",
        "_private.py": "X = 1\n",  # underscore modules are helpers, not plug-ins
    })
    assert reg.names() == ["ay", "bee"]
    assert reg.get("bee").name == "bee"
    with pytest.raises(RegistryError, match="unknown thing 'cee'"):
        reg.get("cee")


def test_registry_module_registering_nothing_raises(plugin_pkg):
    reg = plugin_pkg("plugpkg_empty", {"lonely.py": "X = 1\n"})
    with pytest.raises(RegistryError, match="registers nothing"):
        reg.names()


def test_registry_module_failing_import_raises(plugin_pkg):
    reg = plugin_pkg("plugpkg_broken", {"broken.py": "raise ImportError('boom')\n"})
    with pytest.raises(RegistryError, match="failed to import"):
        reg.names()


def test_registry_duplicate_name_from_two_modules_raises(plugin_pkg):
    reg = plugin_pkg("plugpkg_dup", {
        "a.py": "from . import REG\n@REG.register('same')\nclass A: pass\n",
        "b.py": "from . import REG\n@REG.register('same')\nclass B: pass\n",
    })
    with pytest.raises(RegistryError, match="registered twice"):
        reg.names()


def _submodule_registry(tmp_path, name, packages):
    """A package whose sub-packages may hold ``builder.py``; its Registry scans for that submodule."""
    import importlib

    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text(
        "from chartprobe.dataset_builders.core.registry import Registry\n"
        f"REG = Registry('dataset', {name!r}, submodule='builder')\n")
    for sub, builder in packages.items():
        (root / sub).mkdir()
        (root / sub / "__init__.py").write_text("")
        if builder is not None:
            (root / sub / "builder.py").write_text(builder)
    return importlib.import_module(name).REG


def test_submodule_registry_imports_builder_of_every_subpackage(tmp_path, monkeypatch):
    """How DATASETS finds `<package>/builder.py`: packages without one (core, release) are skipped."""
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = _submodule_registry(tmp_path, "subreg_ok", {
        "alpha": "from subreg_ok import REG\n@REG.register('alpha')\nclass A: pass\n",
        "core": None,
        "beta": "from subreg_ok import REG\n@REG.register('beta')\nclass B: pass\n"})
    assert reg.names() == ["alpha", "beta"]
    bad = _submodule_registry(tmp_path, "subreg_bad", {"gamma": "X = 1\n"})
    with pytest.raises(RegistryError, match=r"subreg_bad\.gamma\.builder registers nothing"):
        bad.names()


def test_the_dataset_registry_finds_every_benchmark_builder():
    from chartprobe.dataset_builders.release.dataset import DATASETS

    assert DATASETS.names() == ["families", "judge", "legend", "probes", "smoke"]
    assert all(DATASETS.get(n).__module__ == f"chartprobe.dataset_builders.{n}.builder" for n in DATASETS.names())
