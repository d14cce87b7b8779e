"""Resident memory of the Space across many anonymous sessions (goal: levels off).

Starts ``spaces/app.py --data DIR`` on 127.0.0.1 and opens ``--sessions`` sessions the way
a page load does: each a fresh session hash that joins the queue for the app's load event
(the first view's render) and reads its stream to the end, so gradio keeps that session's
state. The server's resident memory (``VmRSS`` from ``/proc``) is read after the first
``--baseline`` sessions and again at the end. The Space keeps at most
``CHARTSPACE_SESSION_CAPACITY`` sessions (``state_session_capacity``; default 200) and drops
a session's loaded predictions ``CHARTSPACE_SESSION_TTL_S`` after its last change, so the
growth after the baseline must stay within ``--budget-mb`` (default 50): exit 1 otherwise.

    python benchmarks/space_sessions.py --data hub/ [--sessions 500] [--baseline 50]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from space_server import running_space


def server_pid(port: int) -> int:
    """The pid of the process serving ``port`` (the app's command line names it)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--port" in args and str(port).encode() in args and any(a.endswith(b"app.py") for a in args):
            return int(proc.name)
    raise RuntimeError(f"no Space process serves port {port}")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def load_event(client: httpx.Client, url: str) -> tuple[int, int, int]:
    """(fn_index, trigger id, input count) of the app's load event, from its config."""
    config = client.get(f"{url}config").json()
    for i, dep in enumerate(config["dependencies"]):
        for target in dep.get("targets") or []:
            if target[1] == "load":
                return dep.get("id", i), target[0], len(dep.get("inputs") or [])
    raise RuntimeError("the app has no load event")


def one_session(client: httpx.Client, url: str, event: tuple[int, int, int]) -> None:
    """A new anonymous session: join the queue for the load event and read it to the end."""
    fn, trigger, n_inputs = event
    session = uuid.uuid4().hex[:11]
    joined = client.post(f"{url}gradio_api/queue/join", json={
        "data": [None] * n_inputs, "fn_index": fn, "trigger_id": trigger, "session_hash": session,
        "event_data": None})
    joined.raise_for_status()
    with client.stream("GET", f"{url}gradio_api/queue/data", params={"session_hash": session}) as stream:
        for line in stream.iter_lines():
            if '"process_completed"' in line:
                return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="hub", help="folder of release folders")
    ap.add_argument("--sessions", type=int, default=500)
    ap.add_argument("--baseline", type=int, default=50)
    ap.add_argument("--budget-mb", type=float, default=50.0)
    ap.add_argument("--json", help="also write the measurements here")
    args = ap.parse_args()
    data = Path(args.data).resolve()
    with tempfile.TemporaryDirectory(prefix="space-sessions-") as tmp:
        env = {"HF_DATASETS_CACHE": str(Path(tmp) / "hf_cache")}
        with running_space(data, Path(tmp) / "server.log", env=env) as (url, _), \
                httpx.Client(timeout=120) as client:
            pid = server_pid(int(url.rstrip("/").rsplit(":", 1)[1]))
            event = load_event(client, url)
            curve, start = [], time.perf_counter()
            for i in range(1, args.sessions + 1):
                one_session(client, url, event)
                if i % 50 == 0 or i == args.baseline:
                    curve.append((i, round(rss_mb(pid), 1)))
                    print(f"{i:>5} sessions  {curve[-1][1]:>8.1f} MB  ({time.perf_counter() - start:.0f} s)",
                          flush=True)
    base = dict(curve)[args.baseline]
    growth = curve[-1][1] - base
    print(f"after {args.baseline}: {base:.1f} MB; after {args.sessions}: {curve[-1][1]:.1f} MB; "
          f"growth {growth:+.1f} MB (budget +{args.budget_mb:.0f} MB)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"data": str(data), "rss_mb": curve, "growth_mb": growth}, indent=1))
    sys.exit(0 if growth <= args.budget_mb else 1)


if __name__ == "__main__":
    main()
