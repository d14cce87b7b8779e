"""Serve a local model directory with ``chartprobe serve`` on 127.0.0.1, for API-path tests.

``chartprobe serve`` is ``transformers serve`` with the two fixes lm-eval's requests need (see
``eval_tasks/harness/serve_cli.py``). ``served_model(model_dir)`` is the context manager tests use:
it starts the command as a subprocess on 127.0.0.1 at a free port, waits for ``/health`` and always
terminates the server.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple


class Served(NamedTuple):
    """A running server: ``base_url`` ends in ``/v1``; ``model`` is the only name it accepts."""

    base_url: str
    model: str


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"transformers serve exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise TimeoutError(f"transformers serve not ready at {url} after {timeout:.0f} s")


@contextlib.contextmanager
def served_model(
    model_dir: str | Path, timeout: float = 600.0, log_path: str | Path | None = None
) -> Iterator[Served]:
    """Serve ``model_dir`` with the patched ``transformers serve``; yield a ``Served``.

    Readiness is polled every 0.25 s; ``timeout`` is only a cap, generous because a loaded CI
    machine (load 15 seen) once took over 60 s to start the server.

    The server is pinned to ``model_dir`` and answers HTTP 400 to any other ``model`` name.

    The server runs offline on CPU in a subprocess whose output goes to ``log_path`` (or is
    discarded); it is terminated (then killed) on exit, whatever happens in the block.
    """
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115 - closed below
    for attempt in (1, 2):
        # free_port() closes its socket before the server binds: another process can take the
        # port in between (seen once in CI as an early exit), so an early exit gets one retry.
        port = free_port()
        cmd = [sys.executable, "-m", "chartprobe.cli", "serve", str(model_dir), "--port", str(port),
               "--device", "cpu"]
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_ready(f"http://127.0.0.1:{port}/health", proc, timeout)
            break
        except BaseException as exc:
            if isinstance(exc, RuntimeError) and attempt == 1:  # it exited: nothing left to stop
                continue
            if proc.poll() is None:  # not ready in time (or interrupted): stop it before raising
                proc.kill()
                proc.wait()
            if log is not subprocess.DEVNULL:
                log.close()
            raise
    try:
        yield Served(f"http://127.0.0.1:{port}/v1", str(model_dir))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log is not subprocess.DEVNULL:
            log.close()
