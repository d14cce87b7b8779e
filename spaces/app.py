"""chartprobe Space: browse every dataset, variant and model prediction (Gradio).

    python spaces/app.py                    # Hub releases at their pinned revisions
    python spaces/app.py --data hub/        # local releases: hub/chartprobe-<name>/ (the one switch)
    CHARTPROBE_DATA=hub/ python spaces/app.py                  # the same switch as the lm-eval tasks
    python spaces/app.py --data hub/ --predictions out/        # offer out/'s samples and results files
    python spaces/app.py --data hub/ --review work/review      # review `chartprobe reconstruct`'s queue

This file only composes the views (``chartspace/views/<name>.py``, one module each) and
launches the server; it adds its own folder to ``sys.path`` (``spaces`` itself is not an
importable package). ``chartprobe`` comes from the installed distribution in a checkout
(``pip install -e .``) and from the copy ``scripts/stage_space.sh`` puts beside this file.
No GPU is used anywhere.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # chartspace/ (and, in a staged Space, the chartprobe/ package beside it)
    sys.path.insert(0, str(HERE))

SESSION_CAPACITY = int(os.environ.get("CHARTSPACE_SESSION_CAPACITY", "200"))
"""Sessions whose state gradio keeps in memory; past it the oldest is dropped (memory levels off)."""
SESSION_TTL = float(os.environ.get("CHARTSPACE_SESSION_TTL_S", "3600"))
"""Seconds a session's loaded predictions live after their last change (then the tab starts over)."""

VIEWS = ("probes", "families", "legend", "judge")
"""Dataset views, in tab order (module names under chartspace/views/)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (every one also has an environment variable, for a Space)."""
    ap = argparse.ArgumentParser(description="chartprobe Space: browse releases and predictions.")
    ap.add_argument("--data", default=os.environ.get("CHARTPROBE_DATA"),
                    help="folder of local release folders (chartprobe-<name>/); sets CHARTPROBE_DATA. "
                         "Default: the Hub repos at their pinned revisions")
    ap.add_argument("--predictions", default=os.environ.get("CHARTPROBE_PREDICTIONS"),
                    help="server folder whose samples_*.jsonl folders and results .json files the page "
                         "may load (nothing outside it is ever read)")
    ap.add_argument("--review", default=os.environ.get("CHARTPROBE_REVIEW"),
                    help="a `chartprobe reconstruct` work folder's review/ folder: its needs-review items get "
                         "a Review tab whose approve / reject writes review/decisions.jsonl")
    ap.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
    ap.add_argument("--port", type=int, default=int(os.environ.get("GRADIO_SERVER_PORT", "7860")))
    return ap.parse_args(argv)


def _tab(title: str, key: str, build):
    """A tab whose view (``build()`` -> ViewHandle) re-renders each time the tab is opened, so
    it always shows the session's current predictions (they are loaded in another tab)."""
    import gradio as gr

    with gr.Tab(title, id=key, elem_id=f"tab-{key}") as tab:
        handle = build()
    tab.select(handle.refresh, handle.inputs, handle.outputs)
    return handle


def build_app(predictions_root: Path | None, workspace, review_root: Path | None = None, preloaded=None):
    """The Blocks app: a header, one tab per dataset view, predictions, leaderboard, profile and generator.
    ``workspace`` (``chartspace.workspace.Workspace``) holds every file the app writes;
    ``preloaded`` (a ``PredictionSet``) is what every session starts with."""
    import gradio as gr
    from chartspace import views
    from chartspace.images import atomic_image_cache
    from chartspace.predictions import PredictionSet
    from chartspace.source import DataSource
    from chartspace.views import generate, leaderboard, predictions, profile, review

    atomic_image_cache()  # many sessions or models re-rendering one chart must never serve a half file
    source = DataSource()
    # Charts handed to gr.Image become files in gradio's cache: drop those older than an hour.
    with gr.Blocks(title="chartprobe", delete_cache=(3600, 3600)) as demo:
        gr.Markdown(f"# chartprobe\nDiagnostic chart benchmarks, built from charts defined as data. "
                    f"Reading {source.describe()}.")
        # Preloaded runs (``--predictions``) are every session's start; a TTL frees what a session loaded.
        state = gr.State(preloaded if preloaded is not None else PredictionSet(), time_to_live=SESSION_TTL)
        with gr.Tabs():
            handles = [_tab(m.TITLE, name, lambda m=m: m.build(source, state))
                       for name, m in ((n, views.load(n)) for n in VIEWS)]
            with gr.Tab("Predictions", id="predictions", elem_id="tab-predictions"):
                predictions.build(state, predictions_root, workspace)
            _tab(leaderboard.TITLE, "leaderboard", lambda: leaderboard.build(state))
            _tab(profile.TITLE, "profile", lambda: profile.build(state, workspace))
            _tab("Generate", "generate", generate.build)
            _tab(review.TITLE, "review", lambda: review.build(review_root))
        demo.load(handles[0].refresh, handles[0].inputs, handles[0].outputs)  # the first screen
        demo.unload(predictions.unload_handler(workspace))  # a closed tab's uploads go with it
    first = handles[0]  # render it once in the background: the first visitor finds its split open
    args = [PredictionSet(), *[None] * (len(first.inputs) - 2), 1]
    threading.Thread(target=first.refresh, args=args, name="warm-first-view", daemon=True).start()
    return demo


def main(argv: list[str] | None = None) -> None:
    """Parse options, set the data switch, build the app and serve it."""
    args = parse_args(argv)
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    if args.data:
        os.environ["CHARTPROBE_DATA"] = str(Path(args.data).expanduser().resolve())
    from chartspace.workspace import UploadGuard, Workspace, quota_from_env

    # Before gradio builds anything: its upload and cache folder goes inside the work folder.
    workspace = Workspace.create(session_quota=quota_from_env("CHARTSPACE_SESSION_QUOTA_MB", 256),
                                 total_quota=quota_from_env("CHARTSPACE_TOTAL_QUOTA_MB", 1024))
    from chartspace.html import CSS
    from chartspace.predictions import MAX_FILE_BYTES
    from starlette.middleware import Middleware

    root = Path(args.predictions).expanduser().resolve() if args.predictions else None
    review_root = Path(args.review).expanduser().resolve() if args.review else None
    from chartspace.preload import preload

    preloaded = preload(root, workspace.root)  # every run in --predictions, on the leaderboard at start
    demo = build_app(root, workspace, review_root, preloaded)
    demo.queue(default_concurrency_limit=4)
    demo.launch(server_name=args.host, server_port=args.port, css=CSS, show_error=False,
                max_file_size=MAX_FILE_BYTES, state_session_capacity=SESSION_CAPACITY, footer_links=["api", "gradio"], prevent_thread_lock=True,
                app_kwargs={"middleware": [Middleware(UploadGuard, workspace=workspace)]})
    workspace.install_signal_handlers()  # after launch, so that any handler gradio set is chained
    workspace.start_sweeper(demo.upload_file_set)
    demo.block_thread()


if __name__ == "__main__":
    main()
