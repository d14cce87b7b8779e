"""`chartprobe eval --help` shows chartprobe's own switches; `list tasks` is fast; offline fails at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "chartprobe.cli"]
ROOT = Path(__file__).resolve().parents[1]


def _run(args, env_extra=None, drop=("CHARTPROBE_DATA",)):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra or {})
    started = time.monotonic()
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    return done, time.monotonic() - started


def test_eval_help_leads_with_chartprobe_options():
    done, _ = _run(["eval", "--help"])
    assert done.returncode == 0
    ours = done.stdout.index("--max-gen-toks")
    assert "CHARTPROBE_DATA" in done.stdout[:ours + 2000] and "--releases DIR" in done.stdout
    assert ours < done.stdout.index("usage: lm-eval")  # ours first, lm-eval's after


def test_list_tasks_fast_and_from_the_index():
    from chartprobe.eval_tasks.suites._task_index import task_index

    done, seconds = _run(["list", "tasks"])
    assert done.returncode == 0 and seconds < 2.0, seconds
    names = [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert names == sorted(task_index())
    judge, _ = _run(["list", "tasks", "--benchmark", "judge"])
    rows = [line.split("\t") for line in judge.stdout.splitlines()]
    assert rows and all(r[1] == "judge" for r in rows)
    bad, _ = _run(["list", "tasks", "--benchmark", "nosuch"])
    assert bad.returncode == 2 and "known:" in bad.stderr


def test_list_tasks_does_not_import_lm_eval():
    code = ("import sys; from chartprobe.cli import main; main(['list', 'tasks']); "
            "assert 'lm_eval' not in sys.modules")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=False).returncode == 0


def test_offline_without_data_fails_at_once():
    args = ["eval", "--model", "hf-multimodal", "--model_args", "pretrained=org/vlm", "--tasks", "chartprobe_smoke"]
    done, seconds = _run(args, {"HF_HUB_OFFLINE": "1"})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and seconds < 5.0 and len(lines) == 1, (seconds, done.stderr)
    assert "CHARTPROBE_DATA" in lines[0] and "--releases" in lines[0]


def test_unreachable_hub_fails_at_once():
    args = ["eval", "--model", "hf-multimodal", "--model_args", "pretrained=org/vlm", "--tasks", "chartprobe_smoke"]
    done, seconds = _run(args, {"HF_ENDPOINT": "http://127.0.0.1:9"}, drop=("CHARTPROBE_DATA", "HF_HUB_OFFLINE"))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and seconds < 5.0 and len(lines) == 1, (seconds, done.stderr)
    assert "cannot reach 127.0.0.1:9" in lines[0] and "CHARTPROBE_DATA" in lines[0]


def test_releases_switch_sets_the_data(tmp_path):
    from chartprobe.eval_tasks.harness.eval_switches import take_releases

    argv, folder = take_releases(["--model", "m", "--releases", str(tmp_path), "--tasks", "t"])
    assert argv == ["--model", "m", "--tasks", "t"] and folder == str(tmp_path)
    done, _ = _run(["eval", "--releases", str(tmp_path / "missing"), "--tasks", "chartprobe_smoke"])
    assert done.returncode == 2 and "no such folder" in done.stderr


def test_train_shows_trls_own_bar_unless_no_progress():
    from chartprobe.training.config import TrainConfig
    from chartprobe.training.sft import _sft_args

    shown = _sft_args(TrainConfig(model="m", out="/tmp/unused"), bf16=False, has_eval=False)
    hidden = _sft_args(TrainConfig(model="m", out="/tmp/unused", progress=False), bf16=False, has_eval=False)
    assert shown.disable_tqdm is False and hidden.disable_tqdm is True


def test_score_samples_is_a_deprecated_spelling_of_predictions(tmp_path, capsys):
    from chartprobe.cli import main

    missing = str(tmp_path / "samples_chartprobe_smoke_2026-01-01T00-00-00.jsonl")
    assert main(["score", "--samples", missing, "--out", str(tmp_path / "r.json")]) == 2
    old = capsys.readouterr().err.strip().splitlines()
    assert main(["score", "--predictions", missing, "--out", str(tmp_path / "r.json")]) == 2
    new = capsys.readouterr().err.strip().splitlines()
    assert old[0] == ("chartprobe: warning: --samples is deprecated and will be removed in the next release; "
                      "use --predictions")
    assert old[1:] == new and len(new) == 1  # the same command otherwise
