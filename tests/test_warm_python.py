"""``warm_python.run`` answers as ``subprocess.run`` does: exit status, streams, argv, env, folder, timeout."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import warm_python

ENV = {**os.environ, **warm_python.OFFLINE, "TOKENIZERS_PARALLELISM": "false"}


@pytest.mark.parametrize("code, status, err", [
    ("import sys; print('out', sys.argv[1:]); sys.stderr.write('err'); sys.exit(3)", 3, "err"),
    ("raise ValueError('boom')", 1, "ValueError: boom"),
    ("import sys; sys.exit('a message')", 1, "a message"),
    ("print('out', __import__('sys').argv[1:])", 0, ""),
])
def test_exit_status_and_streams_match_a_cold_interpreter(code, status, err, tmp_path):
    warm = warm_python.run(["-c", code, "x"], env=ENV, cwd=tmp_path)
    cold = subprocess.run([sys.executable, "-c", code, "x"], env=ENV, cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert warm.returncode == cold.returncode == status
    assert warm.stdout == cold.stdout and ("out ['x']" in warm.stdout) == ("print" in code)
    if err:  # the same last line (the traceback's file lines name the server's frames)
        assert err in warm.stderr and warm.stderr.strip().splitlines()[-1] == cold.stderr.strip().splitlines()[-1]
    else:
        assert warm.stderr == cold.stderr == ""


def test_the_command_sees_its_env_folder_and_warm_imports(tmp_path):
    code = "import os, sys; print(os.environ['CP_PROBE'], os.getcwd(), 'torch' in sys.modules)"
    run = warm_python.run(["-c", code], env={**ENV, "CP_PROBE": "42"}, cwd=tmp_path)
    assert run.stdout.split() == ["42", str(tmp_path.resolve()), "True"]


def test_a_module_runs_as_main_and_chartprobe_is_imported_by_the_command():
    run = warm_python.run(["-m", "chartprobe.cli", "--version"], env=ENV)
    assert run.returncode == 0 and run.stdout.startswith("chartprobe ") and run.stderr == ""


def test_an_env_the_warm_imports_did_not_see_runs_cold():
    env = {k: v for k, v in ENV.items() if k != "HF_HUB_OFFLINE"}
    run = warm_python.run(["-c", "import sys; print('torch' in sys.modules)"], env=env)
    assert run.stdout.strip() == "False"


def test_a_command_past_its_timeout_is_killed_and_raises():
    with pytest.raises(subprocess.TimeoutExpired):
        warm_python.run(["-c", "import time; print('started', flush=True); time.sleep(60)"], env=ENV, timeout=2)
    assert warm_python.run(["-c", "print('next')"], env=ENV).stdout == "next\n"  # the server still answers
