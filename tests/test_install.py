"""The wheel installs one import package, ``chartprobe``, and nothing that another project's
top-level ``training`` or ``eval_tasks`` could shadow or be shadowed by.

A real wheel is built from the checkout (``pip wheel``, no build isolation: no network) and
installed with pip into a fresh virtual environment whose site-packages already holds dummy
top-level ``training`` and ``eval_tasks`` packages. Third-party dependencies come from this
test run's own environment through a ``.pth`` line (the new environment gets no pip install
of them; the editable finder of the checkout is not loaded from there, because only a site
directory's own ``.pth`` files are processed). Then, from outside the checkout:
``chartprobe --help``, the dummy packages still import as themselves, ``chartprobe build``
writes a release, and lm-eval loads every chartprobe task from ``chartprobe tasks-path`` and
builds the smoke task on that release (its ``!function`` hooks import ``chartprobe.*``).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("install")
    src, wheels = tmp / "src", tmp / "wheels"
    # setuptools builds in the source tree (build/, *.egg-info): build a copy, not the checkout
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "hub", "out", "build", "*.egg-info",
                                                             "__pycache__", ".pytest_cache", ".ruff_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(src)], check=True, timeout=300)
    wheel = next(wheels.glob("chartprobe-*.whl"))
    tops = {name.split("/", 1)[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"chartprobe", wheel.name.split("-py3")[0] + ".dist-info"}, tops

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    purelib = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    for name in ("training", "eval_tasks"):  # another project's top-level packages
        (purelib / name).mkdir()
        (purelib / name / "__init__.py").write_text(f"DUMMY = {name!r}\n")
    (purelib / "zz_chartprobe_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                    str(wheel)], check=True, timeout=300)
    return venv


def _run(venv: Path, *cmd: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", **(env or {})}
    full_env.pop("PYTHONPATH", None)
    return subprocess.run(cmd, check=False, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=600)


def test_installed_package_runs_beside_dummy_training_and_eval_tasks(fresh_env, tmp_path):
    bin_ = fresh_env / "bin"
    proc = _run(fresh_env, str(bin_ / "chartprobe"), "--help", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "build" in proc.stdout and "train" in proc.stdout and "validate" in proc.stdout

    code = ("import training, eval_tasks, chartprobe, chartprobe.training.cli, chartprobe.eval_tasks.scoring.typed\n"
            "assert training.DUMMY == 'training' and eval_tasks.DUMMY == 'eval_tasks'\n"
            "assert 'site-packages' in chartprobe.eval_tasks.__file__\n"
            "print(chartprobe.eval_tasks.__file__)")
    proc = _run(fresh_env, str(bin_ / "python"), "-c", code, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert str(ROOT) not in proc.stdout

    proc = _run(fresh_env, str(bin_ / "chartprobe"), "build", "smoke", "--out", str(tmp_path / "hub"), "--quiet",
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "hub" / "chartprobe-smoke" / "README.md").exists()


def test_installed_tasks_load_in_lm_eval(fresh_env, tmp_path):
    bin_ = fresh_env / "bin"
    assert _run(fresh_env, str(bin_ / "chartprobe"), "build", "smoke", "--out", str(tmp_path / "hub"), "--quiet",
                cwd=tmp_path).returncode == 0
    code = ("import training\n"
            "from lm_eval.tasks import TaskManager, get_task_dict\n"
            "from chartprobe.eval_tasks.harness.runner import tasks_path\n"
            "tm = TaskManager(include_path=tasks_path(), include_defaults=False)\n"
            "names = [t for t in tm.all_tasks if t.startswith('chartprobe')]\n"
            "assert 'chartprobe_smoke' in names and 'chartprobe_judge_cpa' in names, names\n"
            "task = get_task_dict(['chartprobe_smoke'], tm)['chartprobe_smoke']\n"
            "docs = list(task.test_docs())\n"
            "print(len(names), len(docs), task.process_results(docs[0], [docs[0]['answer']]))\n")
    proc = _run(fresh_env, str(bin_ / "python"), "-c", code, cwd=tmp_path,
                env={"CHARTPROBE_DATA": str(tmp_path / "hub")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    n_tasks, n_docs, metrics = proc.stdout.strip().splitlines()[-1].split(" ", 2)
    assert int(n_tasks) >= 30 and int(n_docs) == 20 and "'accuracy': 1.0" in metrics


def test_staged_space_carries_the_package_as_a_wheel_lays_it_out(tmp_path):
    """``scripts/stage_space.sh`` puts ``chartprobe/`` (with the faces the app imports) beside
    ``app.py``; from that folder alone the app's imports resolve to the staged copy."""
    out = tmp_path / "space"
    subprocess.run(["bash", str(ROOT / "scripts" / "stage_space.sh"), str(out)], check=True, cwd=ROOT, timeout=120)
    assert (out / "app.py").exists() and (out / "chartprobe" / "__init__.py").exists()
    assert (out / "chartprobe" / "dataset_builders" / "core" / "spec.py").exists()
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "import chartprobe, chartspace.generate\n"
            "from chartprobe.dataset_builders.release.dataset import DATASETS\n"
            "from chartprobe.eval_tasks.suites import SUITES\n"
            "assert chartprobe.__file__.startswith(sys.argv[1]), chartprobe.__file__\n"
            "import chartprobe.dataset_builders as db; assert db.__file__.startswith(sys.argv[1]), db.__file__\n"
            "print(DATASETS.names(), SUITES.names())")
    proc = subprocess.run([sys.executable, "-c", code, str(out)], check=False, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "'legend'" in proc.stdout and "'probes'" in proc.stdout
