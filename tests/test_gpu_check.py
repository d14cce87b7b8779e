"""benchmarks/gpu_check.sh (issue 48, point 5): its smoke mode runs the GPU check's pipeline on CPU with tiny
models and prints the table; chartprobe comes from the checkout through PYTHONPATH, not the installed copy."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import gpu_check
from gpu_check_report import COLUMNS

NUMBER = re.compile(r"^\d+(\.\d+)?$")


def _table(stdout: str) -> dict[str, list[str]]:
    """Rows of the markdown table after the '## gpu_check' heading, keyed by their phase's first word."""
    lines = stdout[stdout.index("## gpu_check"):].splitlines()
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.startswith("| ")]
    assert rows[0] == list(COLUMNS)
    return {row[0].split(" (")[0]: row for row in rows[1:]}


def test_package_layout_matches_pyproject(tmp_path):
    tomllib = pytest.importorskip("tomllib")
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    assert gpu_check.PACKAGE_DIR == mapping
    root = gpu_check.package_root(tmp_path)
    for name, folder in mapping.items():
        assert (root.joinpath(*name.split(".")) / "__init__.py").resolve() == (ROOT / folder / "__init__.py")


def test_umbrella_or_fallback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(gpu_check.package_root(tmp_path)))
    defined = any(f"group: {gpu_check.UMBRELLA}" in p.read_text().splitlines()
                  for p in (ROOT / "eval_tasks").glob("**/*.yaml"))
    tasks, note = gpu_check.resolve_tasks(gpu_check.UMBRELLA, env, tmp_path)
    assert tasks == (gpu_check.UMBRELLA if defined else gpu_check.FALLBACK_TASKS)
    assert (note == "") == defined, note
    assert gpu_check.resolve_tasks("chartprobe_legend", env, tmp_path) == ("chartprobe_legend", "")


@pytest.mark.slow
def test_smoke_prints_the_table(release_root, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GPU_CHECK_TASKS")}
    env["PYTHON"] = sys.executable
    report = tmp_path / "report"
    # The explicit list (every benchmark, a two-image judge task) keeps lm-eval's task loading short here.
    cmd = ["bash", str(ROOT / "benchmarks" / "gpu_check.sh"), "--smoke", "--hub", str(release_root),
           "--tasks", gpu_check.FALLBACK_TASKS, "--work", str(tmp_path / "work"), "--report", str(report)]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    rows = _table(proc.stdout)
    assert list(rows) == ["model", "data", "eval", "train", "vllm"]
    assert "Qwen2.5-VL tiny" in rows["model"][1] and "2 images" in rows["model"][7]
    assert rows["data"][2] == "reused"
    assert rows["eval"][2] == f"{len(gpu_check.FALLBACK_TASKS.split(','))} docs"  # --limit 1 per task
    assert rows["train"][2] == "2 steps"
    for phase in ("model", "eval", "train"):
        wall, rate, tokens, peak = rows[phase][3:7]
        assert all(NUMBER.match(x) for x in (wall, rate, tokens)), rows[phase]
        assert float(rate) > 0 and float(tokens) > 0
        assert peak == "-"  # no GPU here
    assert rows["vllm"][7] == "not installed" or rows["vllm"][7].startswith("installed")
    saved = json.loads((report / "gpu_check.json").read_text())
    assert saved["environment"]["transformers"] and len(saved["rows"]) == 5
    assert (report / "gpu_check.md").read_text().startswith("| phase |")
    # the phases imported chartprobe from the checkout laid out on PYTHONPATH, not the installed package
    pkg = tmp_path / "work" / "pkg" / "chartprobe"
    assert f"chartprobe imported from {pkg}\n" in (report / "eval.log").read_text()
