"""The Space with ``--predictions`` holding 12 models, in Chromium (issue #41, acceptance 7).

The Space starts over the small releases with a server folder of 12 crafted models (lm-eval
samples files, each model wrong on a different share of the documents). At start the
leaderboard lists 12 rows, one per model, with headline metrics as columns, each naming its
split. Every tab is opened (two pages at once, as two visitors, so the same chart is
rendered by two sessions together: what once left a broken Probes image and ``h11
LocalProtocolError: Too little data for declared Content-Length`` in the server log) and
every ``<img>`` on it must have loaded (``naturalWidth > 0``). Screenshots go to
``$CHARTPROBE_SCREENS`` (default ``out/space-screens``), the path is printed. ~2 min.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from space_server import launch_chromium, running_space

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))
SCREENS = Path(os.environ.get("CHARTPROBE_SCREENS", ROOT / "out" / "space-screens"))
STAMP = "2025-01-01T00-00-00.000000"
MODELS = 12
TASKS = ("chartprobe_probes_bar_perception", "chartprobe_probes_bar_grounding", "chartprobe_families",
         "chartprobe_legend", "chartprobe_judge_cpa")
TABS = ("Probes", "Families", "Legend groups", "Judge items", "Leaderboard", "Profile")

# Every <img> the page shows, with whether it finished and its decoded width.
IMAGES_JS = """() => [...document.querySelectorAll('img')]
  .filter(i => i.offsetParent !== null)
  .map(i => ({src: i.currentSrc.slice(0, 90), complete: i.complete, width: i.naturalWidth}))"""


def _write_models(release_root: Path, root: Path) -> list[str]:
    """12 model folders of samples for TASKS; model k answers every (k+2)-th document wrong."""
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.suites._task_index import task_index

    index, rows_of, names = task_index(), {}, []
    docs_of = {}
    for name in TASKS:
        task = index[name]
        if task.release not in rows_of:
            rows_of[task.release] = load_release_rows(release_root / f"chartprobe-{task.release}")
        rows = [r for r in rows_of[task.release].get((task.config, task.split), [])
                if task.selects(task.config, task.split, r)]
        docs_of[name] = suite_for_release(task.release).documents(task.config, rows)
    for k in range(MODELS):
        model = f"model-{k:02d}"
        for name, docs in docs_of.items():
            answers = ["zzz-wrong" if i % (k + 2) == 0 else str(d["answer"]) for i, d in enumerate(docs)]
            write_samples(root / model, name, docs, answers, stamp=STAMP)
        names.append(model)
    return names


def _images_loaded(page, tab: str) -> list[dict]:
    """Wait until every visible image of the page has finished; return them."""
    # gradio keeps a stream open (no network idle): wait until no output is pending instead
    page.wait_for_function("""() => document.querySelectorAll('.pending, .generating').length === 0
        && [...document.querySelectorAll('img')].filter(i => i.offsetParent !== null).every(i => i.complete)""",
                           timeout=120_000)
    return page.evaluate(IMAGES_JS)


def test_twelve_models_preloaded_and_every_image_loads(release_root, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=60_000)
    names = _write_models(release_root, tmp_path / "server")
    log = tmp_path / "server.log"
    SCREENS.mkdir(parents=True, exist_ok=True)
    env = {"HF_DATASETS_CACHE": str(tmp_path / "hf_cache")}
    with running_space(release_root, log, tmp_path / "server", env=env) as (url, _), sync_playwright() as p:
        browser = launch_chromium(p)
        pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
        for pg in pages:
            pg.set_default_timeout(60_000)
            pg.goto(url)
        first = pages[0]
        first.get_by_role("tab", name="Leaderboard").click()
        rows = first.locator("#leaderboard-table table").first.locator("tbody tr")
        expect(rows).to_have_count(MODELS)  # every model of --predictions, at start, one row each
        assert [r.locator("td").first.inner_text() for r in rows.all()] == names
        header = first.locator("#leaderboard-table table").first.locator("thead")
        expect(header).to_contain_text("[test]")
        shot = SCREENS / "20-leaderboard-12-models.png"
        first.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}")
        broken = []
        for tab in TABS:
            for pg in pages:  # both visitors open the tab together: one chart, two sessions
                pg.get_by_role("tab", name=tab).click()
            for i, pg in enumerate(pages):
                images = _images_loaded(pg, tab)
                broken += [(tab, i, im) for im in images if im["width"] <= 0]
                if tab in ("Probes", "Profile"):
                    assert images, f"{tab}: no image shown"
            shot = SCREENS / f"21-models12-{tab.split()[0].lower()}.png"
            first.screenshot(path=str(shot), full_page=True)
            print(f"screenshot: {shot}")
        browser.close()
    assert not broken, broken
    text = log.read_text()
    assert "Too little data" not in text and "LocalProtocolError" not in text, text[-3000:]


def test_preload_loads_nothing_without_a_folder(tmp_path):
    from chartspace.preload import preload

    assert preload(None, tmp_path).runs == {}
    assert preload(tmp_path / "nothing", tmp_path).runs == {}
