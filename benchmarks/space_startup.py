"""Time to first screen of the Space (goal: <= 5 s on the full preset), measured in Chromium.

Starts ``spaces/app.py --data DIR`` on 127.0.0.1, opens it in headless Debian Chromium and
waits until the first view (Probes: a chart image decoded in the page and its probe table)
is rendered. Reported per run:

- ``serve_s``: process start -> the server answers HTTP 200 (Python, gradio, app build);
- ``first_screen_s``: page navigation -> first chart rendered (what a visitor waits for);
- ``reload_s``: a second page load on the same server (decoded-image and split caches warm);
- ``total_s``: process start -> first chart rendered.

Run 1 uses an empty ``datasets`` cache (the Arrow conversion of the first config is paid
once, as on a fresh Space); later runs reuse it, as a restarted Space does.

    python benchmarks/space_startup.py --data hub/ [--runs 3] [--json out/space_startup.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from space_server import launch_chromium, running_space

FIRST_VIEW = "#probes-table tbody tr"
FIRST_IMAGE = "#probes-image img"


def first_screen(browser, url: str) -> float:
    """Seconds from navigation to the first chart image decoded and its table shown."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    start = time.perf_counter()
    page.goto(url)
    page.locator(FIRST_VIEW).first.wait_for(timeout=60_000)
    page.wait_for_function(f"() => {{ const i = document.querySelector('{FIRST_IMAGE}');"
                           " return i && i.complete && i.naturalWidth > 0; }", timeout=60_000)
    elapsed = time.perf_counter() - start
    page.close()
    return elapsed


def measure(data: Path, cache: Path, log: Path) -> dict[str, float]:
    """One cold server start: serve, first screen, reload."""
    from playwright.sync_api import sync_playwright

    launched = time.perf_counter()
    with running_space(data, log, env={"HF_DATASETS_CACHE": str(cache)}) as (url, serve_s), \
            sync_playwright() as p:
        browser = launch_chromium(p)
        shown = first_screen(browser, url)
        total = time.perf_counter() - launched
        reload_s = first_screen(browser, url)
        browser.close()
    return {"serve_s": serve_s, "first_screen_s": shown, "reload_s": reload_s, "total_s": total}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="hub", help="folder of release folders (what quickstart builds)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the measurements here")
    args = ap.parse_args()
    data = Path(args.data).resolve()
    with tempfile.TemporaryDirectory(prefix="space-bench-") as tmp:
        cache = Path(tmp) / "hf_datasets_cache"
        runs = [measure(data, cache, Path(tmp) / f"server-{i}.log") for i in range(args.runs)]
    print(f"Space over {data} ({args.runs} runs; run 1 with an empty datasets cache)")
    print(f"{'run':>4} {'serve_s':>8} {'first_screen_s':>15} {'reload_s':>9} {'total_s':>8}")
    for i, r in enumerate(runs, 1):
        print(f"{i:>4} {r['serve_s']:>8.2f} {r['first_screen_s']:>15.2f} {r['reload_s']:>9.2f} {r['total_s']:>8.2f}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"data": str(data), "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
