"""Code checks that survive concurrency: the AST check never races, and one chart's failure is that chart's.

CPython 3.11 keeps the depth counter of its AST-to-Python conversion in state all threads share;
parses from several reconstruct threads at once once ended a whole run with ``SystemError: AST
constructor recursion depth mismatch``. The check now parses under one lock. A garbage-collection
callback that hands the GIL over (``time.sleep(0)``) makes the race likely: with it, 16 threads
over 2,000 snippets give dozens of these errors without the lock and none with it. Then a real
``chartprobe reconstruct`` run in which one chart's check raises: the other charts go on, and that
chart's outcome records the stage and the reason.
"""

from __future__ import annotations

import gc
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct import sandbox
from chartprobe.dataset_builders.families.reconstruct.sandbox import MECHANISMS, CodeRejected, check_code
from reconstruct_standin import scripted_model

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "reconstruct"


def _snippet(i: int) -> str:
    body = "\n".join(f"    x{j} = [({j} + {i}) * k for k in range(3) if k % 2 == 0]" for j in range(5))
    bad = "\n    open('x')" if i % 7 == 0 else ""  # some refused, as model code often is
    return f"import numpy\n\n\ndef make_figure(data):\n{body}{bad}\n    return x0\n"


@pytest.fixture
def gil_handover_in_gc():
    """Every garbage collection hands the GIL to another thread (what a busy process does by chance)."""
    def handover(phase, info):
        time.sleep(0)

    threshold = gc.get_threshold()
    gc.callbacks.append(handover)
    gc.set_threshold(50)
    yield
    gc.callbacks.remove(handover)
    gc.set_threshold(*threshold)


def test_the_check_from_16_threads_over_2000_snippets_never_errs(gil_handover_in_gc):
    def check(i: int) -> str:
        try:
            check_code(_snippet(i), "make_figure")
        except CodeRejected:
            return "refused"
        return "ok"

    with ThreadPoolExecutor(max_workers=16) as pool:
        found = list(pool.map(check, range(2000)))  # any other exception propagates here and fails the test
    assert found == ["refused" if i % 7 == 0 else "ok" for i in range(2000)]


@pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed")
def test_a_chart_whose_check_raises_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    replies = {r["chart_id"]: r for r in json.loads((FIXTURE / "responses.json").read_text()).values()}
    doomed = replies["c01"]["reconstruct"]["chart_code"]
    checked = sandbox.check_code

    def flaky(code: str, function: str, *allowed) -> None:
        if code == doomed:
            raise SystemError("AST constructor recursion depth mismatch (before=33, after=27)")
        checked(code, function, *allowed)

    monkeypatch.setattr(sandbox, "check_code", flaky)
    work, out = tmp_path / "work", tmp_path / "hub"
    with scripted_model(FIXTURE / "responses.json") as server:
        code = main(["reconstruct", "--source", str(FIXTURE), "--limit", "2", "--license", "cc0-1.0", "--model",
                     "standin-vlm", "--base-url", server.base_url, "--work", str(work), "--out", str(out),
                     "--concurrency", "2", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "1 of 2 charts failed" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and "SystemError: AST constructor" in err, err  # one line, with why
    manifest = json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())
    items = {it["chart_id"]: it for it in manifest["items"]}
    assert items["c00"]["status"] == "accepted"  # the other chart went on to its family
    assert items["c01"]["status"] == "error" and items["c01"]["stage"] == "refine"
    assert "SystemError: AST constructor recursion depth mismatch" in items["c01"]["reason"]
    assert (out / "chartprobe-families").is_dir() and len((work / "runs.jsonl").read_text().splitlines()) == 1
