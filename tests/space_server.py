"""Start ``spaces/app.py`` on 127.0.0.1 in a subprocess and open it in headless Debian Chromium.

Used by ``tests/test_space.py`` and ``benchmarks/space_startup.py``. Chromium is the
distribution's ``/usr/bin/chromium`` (``scripts/install.sh`` installs it with apt-get),
driven by the Python ``playwright`` package; ``playwright install`` is never run.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "spaces" / "app.py"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_serving(url: str, proc: subprocess.Popen, log: Path, timeout: float = 600.0) -> float:
    """Poll ``url`` until it answers 200; returns the seconds waited (raises with the log tail).

    ``timeout`` is a cap, not a wait: generous, since a loaded machine starts the Space slowly."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"the Space exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                return time.perf_counter() - start
        time.sleep(0.1)
    raise TimeoutError(f"the Space did not serve {url} within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def running_space(data: Path, log: Path, predictions: Path | None = None,
                  env: dict[str, str] | None = None) -> Iterator[tuple[str, float]]:
    """Run the Space over the local releases in ``data``; yields (url, seconds until it served)."""
    port = free_port()
    cmd = [sys.executable, str(APP), "--data", str(data), "--host", "127.0.0.1", "--port", str(port)]
    if predictions is not None:
        cmd += ["--predictions", str(predictions)]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **OFFLINE, **(env or {})})
    url = f"http://127.0.0.1:{port}/"
    try:
        yield url, wait_until_serving(url, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def launch_chromium(playwright) -> object:
    """Headless Debian Chromium with the flags that work on our CPU machines."""
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: run scripts/install.sh (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@contextlib.contextmanager
def space_page(data: Path, log: Path, predictions: Path | None, cache: Path) -> Iterator[object]:
    """A Chromium page on a running Space (1400x1000, 30 s waits for actions and assertions)."""
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait up to 30 s, like page actions: on a loaded 2-core machine a load takes > 5 s.
    expect.set_options(timeout=30_000)
    with running_space(data, log, predictions, env={"HF_DATASETS_CACHE": str(cache)}) as (url, _), \
            sync_playwright() as p:
        browser = launch_chromium(p)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.set_default_timeout(30_000)
        pg.goto(url)
        yield pg
        browser.close()
