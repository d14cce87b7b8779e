"""The Space reads a real lm-eval run (issue #18, acceptance 4), in headless Chromium.

lm-eval runs the tiny VLM over every chartprobe task once per test run (conftest's ``all_tasks_run``: ``--log_samples``,
``--limit 2``, 4 new tokens: the cheapest run that still writes every task's samples file, CPA
pairs included), and its output is laid out as the quick start lays it out
(``out/eval/<model_dir>/results_*.json`` + ``samples_*.jsonl``). The Space serves that ``out/``
folder (``--predictions``) and must load the model folder as it is, list every task on the
leaderboard, and, with a second model loaded (the same samples answered with the gold, plus an
arc_easy samples file that must be skipped with a note), filter "models disagree" and "only
wrong" and draw a judge flaw's evidence boxes on the worse chart. Screenshots go to
``$CHARTPROBE_SCREENS`` (default ``out/space-screens``).
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from chartprobe.eval_tasks.rescoring.predictions import _SAMPLES_NAME
from space_server import space_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))  # chartspace (spaces/ is no package)
SCREENS = Path(os.environ.get("CHARTPROBE_SCREENS", ROOT / "out" / "space-screens"))
ORANGE = (230, 120, 0)  # chartspace.images.EVIDENCE

pytestmark = pytest.mark.slow


def _gold_copy(model_dir: Path, folder: Path) -> None:
    """The run's samples answered with each document's target, plus a task no chartprobe suite scores."""
    folder.mkdir(parents=True)
    for path in model_dir.glob("samples_*.jsonl"):
        lines = [json.loads(t) for t in path.read_text().splitlines() if t.strip()]
        for line in lines:
            line["resps"], line["filtered_resps"] = [[str(line["target"])]], [str(line["target"])]
        (folder / path.name).write_text("".join(json.dumps(line) + "\n" for line in lines))
    stamp = next(model_dir.glob("results_*.json")).name.removeprefix("results_").removesuffix(".json")
    (folder / f"samples_arc_easy_{stamp}.jsonl").write_text(
        json.dumps({"doc_id": 0, "doc": {"question": "2+2?"}, "target": "4", "filtered_resps": ["4"]}) + "\n")


@pytest.fixture(scope="module")
def quickstart_out(all_tasks_run, tmp_path_factory) -> dict[str, object]:
    """``out/`` as the quick start leaves it after its lm-eval step, plus a second model folder."""
    out = tmp_path_factory.mktemp("space_runs") / "out"
    out.mkdir()
    shutil.copytree(all_tasks_run, out / "eval")  # lm-eval --output_path out/eval (the shared run, copied)
    (model_dir,) = (out / "eval").iterdir()
    (results,) = model_dir.glob("results_*.json")
    tasks = sorted(json.loads(results.read_text())["results"])
    logged = sorted(_SAMPLES_NAME.match(p.name)["task"] for p in model_dir.glob("samples_*.jsonl"))
    assert logged == tasks and any(t == "chartprobe_judge_cpa" for t in tasks)  # every task wrote its samples
    _gold_copy(model_dir, out / "eval" / "gold-model")
    return {"out": out, "model_dir": model_dir, "tasks": tasks}


@pytest.fixture(scope="module")
def page(release_root, quickstart_out, tmp_path_factory):
    with space_page(release_root, SCREENS / "server-runs.log", quickstart_out["out"],
                    tmp_path_factory.mktemp("hf_datasets_cache_runs")) as pg:
        yield pg


def _shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _choose(page, elem_id: str, option: str) -> None:
    page.locator(f"#{elem_id} input").click()
    page.get_by_role("option", name=option, exact=True).click()


def _load_server_entry(page, entry: str, name: str) -> None:
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Predictions").click()
    _choose(page, "predictions-server", entry)
    page.locator("#predictions-load-server").click()
    # Rescoring every task of a run takes several seconds; more on a loaded 2-core machine.
    expect(page.locator("#predictions-status")).to_contain_text(f"Loaded {name}", timeout=120_000)


def test_the_quick_start_model_folder_loads_with_every_task_on_the_leaderboard(page, quickstart_out):
    from chartspace.leaderboard import split_of
    from chartspace.predictions import safe_model_name
    from playwright.sync_api import expect

    model_dir = quickstart_out["model_dir"]
    name = safe_model_name(model_dir.name)
    _load_server_entry(page, f"eval/{model_dir.name}", name)
    status = page.locator("#predictions-status")
    expect(status).not_to_contain_text("skipped")  # every file of the run is a chartprobe task's
    for suite in ("probes", "families", "judge", "legend", "smoke"):
        expect(status).to_contain_text(f"{suite} (")
    _shot(page, "12-quickstart-loaded")
    page.get_by_role("tab", name="Leaderboard").click()
    board = page.locator("#leaderboard-table")
    # the default (headline) view lists the test tasks; validation ones only where every metric is listed
    test_tasks = [t for t in quickstart_out["tasks"] if split_of(t) == "test"]
    assert 0 < len(test_tasks) < len(quickstart_out["tasks"])
    expect(page.locator("#leaderboard-status")).to_contain_text(f"× {len(test_tasks)} task(s)")
    expect(page.locator("#leaderboard-status")).to_contain_text("lm-eval results")
    for task in test_tasks:
        expect(board.locator("code", has_text=task).first).to_be_visible()
    expect(board).to_contain_text("two_pass_accuracy")
    _shot(page, "13-leaderboard")


def test_a_second_model_skips_foreign_tasks_and_the_filters_find_disagreement(page, quickstart_out):
    from playwright.sync_api import expect

    _load_server_entry(page, "eval/gold-model", "gold-model")
    expect(page.locator("#predictions-status")).to_contain_text("skipped 1 non-chartprobe task(s): arc_easy")
    page.get_by_role("tab", name="Probes").click()
    _choose(page, "probes-verdict", "models disagree")
    rows = page.locator("#probes-table tbody tr")
    not_right = ".cp-bad, .cp-part"  # wrong, or partial credit (list recall)
    expect(page.locator("#probes-status")).to_contain_text("filter: models disagree")
    expect(rows.filter(has_not=page.locator(".cp-mark"))).to_have_count(0)  # the filtered table is in
    expect(rows.first.locator(".cp-mark")).to_have_count(2)
    for row in rows.all():  # the two models' verdicts (✓, ✗ or ◐ score) differ on every row shown
        verdicts = [m.inner_text().split(f" {m.get_attribute('title')}:")[0] for m in row.locator(".cp-mark").all()]
        assert len(verdicts) == 2 and verdicts[0] != verdicts[1], verdicts
    _shot(page, "14-probes-disagree")
    _choose(page, "probes-verdict", "only wrong")
    expect(page.locator("#probes-status")).to_contain_text("filter: only wrong")
    expect(page.locator("#probes-table tbody tr").first.locator(not_right).first).to_be_visible()
    assert all(r.locator(not_right).count() for r in page.locator("#probes-table tbody tr").all())


def test_judge_evidence_boxes_are_drawn_on_the_worse_chart(page):
    import numpy as np
    from PIL import Image
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Judge items").click()
    _choose(page, "judge-config", "cpa")
    _choose(page, "judge-verdict", "(all)")
    _choose(page, "judge-flaw", "component_positioning")
    expect(page.locator("#judge-evidence")).to_contain_text("outlined in orange")
    src = page.locator("#judge-pair .cp-changed img").first.get_attribute("src")
    pixels = np.asarray(Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).convert("RGB"), dtype=int)
    orange = int((np.abs(pixels - np.array(ORANGE)).max(axis=2) < 40).sum())
    assert orange > 100, "the evidence boxes are not drawn on the worse chart"
    _shot(page, "15-judge-evidence")
