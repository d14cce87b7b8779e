"""The Space in a real browser: ``spaces/app.py --data <small releases>`` driven by headless Chromium.

One server and one page for the module, tests in page order: every view renders over the
small releases (image present, gold answers shown), a filter changes what is shown, an
lm-eval samples upload (one answer in three deliberately wrong) marks items correct and
wrong, a second model from the allowlisted server folder is compared side by side, the
profile tab draws the report plots, and a malformed file gives a readable error while the
app keeps working. Screenshots go to ``$CHARTPROBE_SCREENS`` (default ``out/space-screens``).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
from space_server import space_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))  # chartspace: the Space's own modules (spaces/ is no package)
SCREENS = Path(os.environ.get("CHARTPROBE_SCREENS", ROOT / "out" / "space-screens"))
STAMP = "2025-01-01T00-00-00.000000"
WRONG = "zzz-wrong"
UPLOAD_TASKS = ("chartprobe_probes_bar_perception", "chartprobe_probes_bar_grounding",
                "chartprobe_probes_bar_reasoning", "chartprobe_families", "chartprobe_judge_cpa",
                "chartprobe_judge_crj_edit", "chartprobe_legend", "chartprobe_smoke")
GOLD_GREEN = (20, 150, 60)


def _write_model(release_root: Path, folder: Path, only: tuple[str, ...] | None = None) -> list[Path]:
    """lm-eval samples for every task of the releases present: gold answers, every third one wrong."""
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.suites._task_index import task_index

    written, rows_of = [], {}
    for name, task in sorted(task_index().items()):
        release = release_root / f"chartprobe-{task.release}"
        if (only and name not in only) or not release.is_dir():
            continue
        if task.release not in rows_of:
            rows_of[task.release] = load_release_rows(release)
        rows = [r for r in rows_of[task.release].get((task.config, task.split), [])
                if task.selects(task.config, task.split, r)]
        docs = suite_for_release(task.release).documents(task.config, rows)
        answers = [WRONG if i % 3 == 1 else str(d["answer"]) for i, d in enumerate(docs)]
        if docs:
            written.append(write_samples(folder, name, docs, answers, stamp=STAMP))
    return written


@pytest.fixture(scope="module")
def predictions(release_root, tmp_path_factory) -> dict[str, object]:
    """The server's allowlisted folder (model ``model-b``), an upload set and a malformed file."""
    root = tmp_path_factory.mktemp("space_predictions")
    _write_model(release_root, root / "server" / "model-b")
    uploads = _write_model(release_root, root / "upload", UPLOAD_TASKS)
    bad = root / "bad" / f"samples_chartprobe_smoke_{STAMP}.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"doc_id": 0, "doc": {"id": "x"}, "filtered_resps": ["1"]}\nthis line is not json\n')
    return {"server": root / "server", "uploads": uploads, "bad": bad}


@pytest.fixture(scope="module")
def page(release_root, predictions, tmp_path_factory):
    """A Chromium page on the running Space (datasets cache in a temp folder)."""
    with space_page(release_root, SCREENS / "server.log", predictions["server"],
                    tmp_path_factory.mktemp("hf_datasets_cache")) as pg:
        yield pg


def _shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def _choose(page, elem_id: str, option: str) -> None:
    page.locator(f"#{elem_id} input").click()
    page.get_by_role("option", name=option, exact=True).click()


def _first_chart_rows(release_root: Path) -> list[dict]:
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows

    rows = load_release_rows(release_root / "chartprobe-probes")[("bar", "test")]
    return [r for r in rows if r["chart_id"] == rows[0]["chart_id"]]


def test_first_screen_is_a_chart_with_its_probes(page, release_root):
    from playwright.sync_api import expect

    expect(page.locator("#probes-image img")).to_be_visible()
    expect(page.locator("#probes-status")).to_contain_text("Chart 1 of")
    table = page.locator("#probes-table")
    for row in _first_chart_rows(release_root):
        expect(table).to_contain_text(row["question"])
        expect(table).to_contain_text(row["answer"])
    _shot(page, "01-probes")


def test_probe_filters_and_grounding_boxes(page):
    import numpy as np
    from PIL import Image
    from playwright.sync_api import expect

    _choose(page, "probes-skill", "grounding")
    expect(page.locator("#probes-table td:nth-child(2)").first).to_have_text("grounding")
    # The table redraws row by row: wait until no row of another skill is left.
    expect(page.locator("#probes-table td:nth-child(2)").filter(has_not_text="grounding")).to_have_count(0)
    assert set(page.locator("#probes-table td:nth-child(2)").all_inner_texts()) == {"grounding"}
    _choose(page, "probes-template", "G-BBOX-ELEMENT")
    expect(page.locator("#probes-table")).to_contain_text("G-BBOX-ELEMENT")
    page.locator("#probes-next").click()
    expect(page.locator("#probes-status")).to_contain_text("Chart 2 of")
    src = page.locator("#probes-image img").get_attribute("src")
    pixels = np.asarray(Image.open(io.BytesIO(page.request.get(src).body())).convert("RGB"), dtype=int)
    # within 24 per channel: the image is served lossy, and a model's box may hug the gold one
    green = int((np.abs(pixels - np.array(GOLD_GREEN)).max(axis=2) < 24).sum())
    assert green > 100, "the gold box of the bbox probe is not drawn on the chart"
    _shot(page, "02-probes-bbox")


def test_families_grid_highlights_changed_answers(page):
    from playwright.sync_api import expect

    _tab(page, "Families")
    expect(page.locator("#families-status")).to_contain_text("Family 1 of")
    expect(page.locator("#families-grid img")).to_have_count(12)  # original, reconstruction, 10 variants
    expect(page.locator("#families-grid")).to_contain_text("answer changed")
    page.locator("#families-source input").click()
    source = page.get_by_role("option").nth(2).inner_text().strip()
    page.get_by_role("option", name=source, exact=True).click()
    expect(page.locator("#families-status")).to_contain_text(f"source {source}")
    _shot(page, "03-families")


def test_legend_group_and_chain(page):
    from playwright.sync_api import expect

    _tab(page, "Legend groups")
    expect(page.locator("#legend-status")).to_contain_text("Group 1 of")
    assert page.locator("#legend-grid img").count() >= 2  # the base chart and at least one variant
    expect(page.locator("#legend-grid")).to_contain_text("expected:")
    _choose(page, "legend-family", "altering")
    expect(page.locator("#legend-grid")).to_contain_text("alter")
    expect(page.locator("#legend-chain")).to_contain_text("Diagnostic chain")
    _shot(page, "04-legend")


def test_judge_pairs_and_crj_items(page):
    from playwright.sync_api import expect

    _tab(page, "Judge items")
    expect(page.locator("#judge-pair img")).to_have_count(2)
    expect(page.locator("#judge-pair")).to_contain_text("flaw:")
    expect(page.locator("#judge-evidence")).to_contain_text("criterion")  # a facts table, no raw JSON
    expect(page.locator("#judge-evidence")).not_to_contain_text('"criterion"')
    _shot(page, "05-judge-cpa")
    _choose(page, "judge-config", "crj_editing")
    expect(page.locator("#judge-pair")).to_contain_text("gold label")
    expect(page.locator("#judge-status")).to_contain_text("Instruction:")
    _shot(page, "06-judge-crj")


def test_generate_a_chart_and_its_probes_live(page):
    from playwright.sync_api import expect

    _tab(page, "Generate")
    expect(page.locator("#generate-image img")).to_be_visible()
    # Grounding and reasoning on every chart (perception only where no value labels print the values).
    expect(page.locator("#generate-probes")).to_contain_text("grounding")
    expect(page.locator("#generate-probes")).to_contain_text("reasoning")
    assert page.locator("#generate-probes tbody tr").count() >= 9
    _shot(page, "07-generate")


def test_predictions_mark_items_and_compare_models(page, predictions):
    from playwright.sync_api import expect

    _tab(page, "Predictions")
    page.locator("#predictions-files input[type=file]").set_input_files([str(p) for p in predictions["uploads"]])
    expect(page.locator("#predictions-files")).to_contain_text("chartprobe_smoke")  # uploaded
    page.locator("#predictions-model textarea").fill("model-a")
    page.locator("#predictions-load").click()
    expect(page.locator("#predictions-status")).to_contain_text("Loaded model-a")
    page.locator("#predictions-server input").click()
    page.get_by_role("option", name="model-b", exact=True).click()
    page.locator("#predictions-load-server").click()
    expect(page.locator("#predictions-status")).to_contain_text("Loaded model-b")
    expect(page.locator("#predictions-models")).to_contain_text("model-a")
    _shot(page, "08-predictions")

    _tab(page, "Probes")
    _choose(page, "probes-template", "(all)")
    rows = page.locator("#probes-table tbody tr")
    expect(rows.first.locator(".cp-mark")).to_have_count(2)  # one badge per model, side by side
    expect(page.locator("#probes-table .cp-bad").first).to_contain_text(WRONG)
    assert page.locator("#probes-table .cp-ok").count() > 0
    _shot(page, "09-probes-marked")
    _tab(page, "Families")
    expect(page.locator("#families-grid .cp-ok").first).to_be_visible()
    expect(page.locator("#families-grid .cp-bad").first).to_contain_text(WRONG)
    _tab(page, "Judge items")
    expect(page.locator("#judge-pair")).to_contain_text("model-b")
    _shot(page, "09-judge-marked")
    _tab(page, "Profile")
    # The report (plots for every suite) takes well over 30 s on a loaded 2-core machine.
    expect(page.locator("#profile-plots img").first).to_be_visible(timeout=120_000)
    expect(page.locator("#profile-comparison")).to_contain_text("model-b")
    _shot(page, "10-profile")


def test_malformed_predictions_show_an_error_and_the_app_keeps_working(page, predictions):
    from playwright.sync_api import expect

    _tab(page, "Predictions")
    page.locator("#predictions-files input[type=file]").set_input_files([str(predictions["bad"])])
    expect(page.locator("#predictions-files")).not_to_contain_text("chartprobe_probes")  # replaced
    expect(page.locator("#predictions-files")).to_contain_text("chartprobe_smoke")  # the bad file is uploaded
    page.locator("#predictions-load").click()
    error = page.locator("#predictions-status .cp-error")
    expect(error).to_contain_text("line 2: invalid JSON")
    expect(page.locator("#predictions-models")).to_contain_text("model-a")  # earlier loads kept
    _shot(page, "11-malformed")
    _tab(page, "Families")
    _choose(page, "families-source", "(all)")
    page.locator("#families-next").click()
    expect(page.locator("#families-status")).to_contain_text("Family 2 of")
    expect(page.locator("#families-grid img").first).to_be_visible()
    report = json.dumps({"screens": sorted(p.name for p in SCREENS.glob("*.png"))})
    (SCREENS / "screens.json").write_text(report)


def test_uploads_are_size_limited_schema_checked_and_paths_allowlisted(tmp_path, monkeypatch):
    from chartspace import predictions as cp

    good = tmp_path / f"samples_chartprobe_smoke_{STAMP}.jsonl"
    good.write_text('{"doc_id": 0, "doc": {"id": "a"}, "filtered_resps": ["1"]}\n')
    monkeypatch.setattr(cp, "MAX_FILE_BYTES", 10)
    with pytest.raises(cp.PredictionsError, match="the limit is"):
        cp.load_uploads([good], "m", tmp_path / "work")
    monkeypatch.undo()
    renamed = tmp_path / "predictions.jsonl"
    renamed.write_text(good.read_text())
    with pytest.raises(cp.PredictionsError, match="samples_<task>_<date>.jsonl"):
        cp.load_uploads([renamed], "m", tmp_path / "work")
    good.write_text('{"doc_id": 0, "resps": [["1"]]}\n')
    with pytest.raises(cp.PredictionsError, match="line 1: 'doc' must be the dataset row"):
        cp.load_uploads([good], "m", tmp_path / "work")
    root = tmp_path / "server"
    (root / "model-x").mkdir(parents=True)
    (root / "model-x" / good.name).write_text("")
    (root / "report.json").write_text("{}")  # not a results file: never offered
    (root / "scores.json").write_text('{"format": "chartprobe-results/1", "models": {}}')
    assert cp.allowed_entries(root) == ["model-x", "scores.json"]
    with pytest.raises(cp.PredictionsError, match="no models in this results file"):
        cp.load_allowed(root, "scores.json", tmp_path / "work")
    for outside in ("..", "../server/model-x", str(root / "model-x"), "model-x/../.."):
        with pytest.raises(cp.PredictionsError, match="not one of the server's prediction files"):
            cp.load_allowed(root, outside, tmp_path / "work")


def test_results_files_give_the_same_verdicts_as_their_samples(predictions, release_root, tmp_path, monkeypatch):
    from chartprobe.eval_tasks.rescoring.rescore import score_samples
    from chartspace.predictions import load_allowed, load_uploads

    monkeypatch.setenv("CHARTPROBE_DATA", str(release_root))  # what `app.py --data` sets: the gold's releases
    results = tmp_path / "results.json"
    results.write_text(json.dumps(score_samples([predictions["server"] / "model-b"], releases=release_root)))
    (from_results,) = load_uploads([results], "ignored", tmp_path / "w1")
    (from_samples,) = load_allowed(predictions["server"], "model-b", tmp_path / "w2")
    assert from_results.name == from_samples.name == "model-b"
    assert from_results.marks.keys() == from_samples.marks.keys()
    for release, marks in from_samples.marks.items():
        assert {k: s for k, (s, _) in marks.items()} == {k: s for k, (s, _) in from_results.marks[release].items()}
        assert all(score == 0.0 for score, answer in marks.values() if answer == WRONG), release
        assert all(score == 1.0 for score, answer in marks.values() if answer != WRONG), release
