"""Run lm-eval's hf-multimodal model on the tiny VLM over local releases, offline, in a subprocess
(forked from a warm interpreter: ``warm_python.py``)."""

from __future__ import annotations

import glob
import json
import os
import subprocess
from pathlib import Path

import warm_python
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.rescoring import data

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def run_lm_eval(model: Path, releases: Path, tmp_path: Path, tasks: str, *, limit: int, max_images: int = 1,
                max_gen_toks: int = 16, log_samples: bool = False) -> tuple[subprocess.CompletedProcess, dict]:
    """``lm_eval --tasks <tasks> --limit <limit>`` with ``CHARTPROBE_DATA=releases``; asserts it exits 0.

    lm-eval's own CLI, started through ``own_index`` so that only chartprobe's tasks are indexed (the
    built-in index costs seconds per run; ``test_harness.py`` runs plain ``python -m lm_eval`` once).

    Returns the finished process (its stdout holds the printed table) and the ``results`` block of
    the results JSON.
    """
    out = tmp_path / "results"
    cmd = ["-m", "chartprobe.eval_tasks.harness.own_index", "--model", "hf-multimodal",
           "--model_args", f"pretrained={model},max_images={max_images},dtype=float32", "--device", "cpu",
           "--batch_size", "8", "--tasks", tasks, "--limit", str(limit),
           "--gen_kwargs", f"max_gen_toks={max_gen_toks}",  # a random model uses every token it is allowed
           "--include_path", tasks_path(), "--output_path", str(out), *(["--log_samples"] if log_samples else [])]
    env = {**os.environ, **OFFLINE, data.ENV_VAR: str(releases), "HF_DATASETS_CACHE": str(tmp_path / "cache"),
           "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(cmd, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    return run, read_results(out)


def read_results(out: Path) -> dict:
    """The ``results`` block of the one results JSON lm-eval wrote under ``out``."""
    (path,) = glob.glob(str(out / "**" / "results_*.json"), recursive=True)
    return json.loads(Path(path).read_text())["results"]


def run_chartprobe_eval(argv: list[str], releases: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """``chartprobe eval <argv>`` (``run_eval``, so chartprobe's model classes are registered) in a
    subprocess over local releases, offline; asserts it exits 0."""
    code = f"import sys; from chartprobe.eval_tasks.harness.runner import run_eval; sys.exit(run_eval({argv!r}))"
    env = {**os.environ, **OFFLINE, data.ENV_VAR: str(releases), "HF_DATASETS_CACHE": str(tmp_path / "cache"),
           "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(["-c", code], env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    return run
