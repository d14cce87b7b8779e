"""The Space's disk hygiene (issue #20, acceptance 4): uploads leave no trace, quotas, cleanup.

End to end, over HTTP with ``gradio_client`` (no browser): three 30 MB samples uploads and a
rejected one each leave the work folder at the size it had before the load; an upload
request past the total quota is refused before its body is read; SIGTERM removes the work
folder. Unit tests cover the per-session quota, the files a request may make the Space
delete, the signal handler chaining, and symlinks in the server's predictions folder.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from space_server import running_space

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))  # chartspace (spaces/ is no package)
STAMP = "2025-01-01T00-00-00.000000"
MB = 2**20


@pytest.fixture(scope="module")
def smoke_only(tmp_path_factory) -> Path:
    """A folder holding only chartprobe-smoke (small preset, ~10 s)."""
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("space_hygiene_data")
    build_release("smoke", root, "small")
    return root


def _samples(release_root: Path, folder: Path, size: int, tag: str) -> Path:
    """A valid lm-eval samples file for chartprobe_smoke, padded to about ``size`` bytes with a
    long prompt in each line's ``arguments`` (as lm-eval logs them)."""
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples
    from chartprobe.eval_tasks.suites import suite_for_release

    rows = load_release_rows(release_root / "chartprobe-smoke")[("default", "test")]
    docs = suite_for_release("smoke").documents("default", rows)
    path = write_samples(folder / tag, "chartprobe_smoke", docs, [str(d["answer"]) for d in docs], stamp=STAMP)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    pad = "x" * (size // len(lines))
    for i, line in enumerate(lines):
        line["arguments"] = {"gen_args_0": {"arg_0": f"{tag}-{i}-{pad}"}}  # distinct content per file
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _tree_bytes(root: Path) -> int:
    return sum(p.lstat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def test_uploads_leave_no_trace_quota_and_sigterm(smoke_only, tmp_path):
    from gradio_client import Client, handle_file

    uploads = [_samples(smoke_only, tmp_path, 30 * MB, f"model-{i}") for i in range(3)]
    rejected = _samples(smoke_only, tmp_path, 30 * MB, "bad")
    rejected.write_text(rejected.read_text() + "this line is not json\n")
    assert all(p.stat().st_size > 29 * MB for p in [*uploads, rejected])
    parent = tmp_path / "gradio_tmp"  # GRADIO_TEMP_DIR: the Space makes its work folder inside
    env = {"GRADIO_TEMP_DIR": str(parent), "CHARTSPACE_TOTAL_QUOTA_MB": "100",
           "HF_DATASETS_CACHE": str(tmp_path / "hf_cache")}
    with running_space(smoke_only, tmp_path / "server.log", env=env) as (url, _):
        (work,) = parent.glob("chartspace-*")
        assert (work / "gradio").is_dir()  # gradio's uploads and cache live inside it
        probe = tmp_path / "probe.json"
        probe.write_text("{}")
        with probe.open("rb") as fh:  # where gradio stores an upload: inside the work folder
            stored = httpx.post(f"{url}gradio_api/upload", files={"files": fh}, timeout=30).json()
        assert Path(stored[0]).resolve().is_relative_to((work / "gradio").resolve()), stored
        client = Client(url, verbose=False)
        for path, expect in [(uploads[0], "Loaded"), (rejected, "line 21: invalid JSON"),
                             (uploads[1], "Loaded"), (uploads[2], "Loaded")]:
            before = _tree_bytes(work)
            message, models, box = client.predict([handle_file(str(path))], path.parent.name,
                                                  api_name="/on_upload")  # the state stays server-side
            assert expect in message, message
            assert box is None  # the box is emptied: its files are gone
            assert _tree_bytes(work) == before, f"{path.parent.name}: the work folder grew"
            assert not [p for p in work.rglob(path.name)], "the upload is still on disk"
        assert "model-0" in models and "model-2" in models  # loads accumulate in the session
        # An upload request past the total quota: refused before its body is sent.
        host = urlparse(url)
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
        conn.putrequest("POST", "/gradio_api/upload")
        conn.putheader("Content-Type", "multipart/form-data; boundary=x")
        conn.putheader("Content-Length", str(200 * MB))
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 413 and b"upload space is full" in response.read()
        conn.close()
        assert list(parent.iterdir()) == [work]  # nothing of gradio's outside the work folder
    # running_space ends with proc.terminate(): SIGTERM
    assert not work.exists(), "SIGTERM left the work folder behind"


def test_per_session_quota_and_what_a_session_may_delete(tmp_path):
    from chartspace.workspace import QuotaError, Workspace

    ws = Workspace(tmp_path / "work", session_quota=10 * MB, total_quota=25 * MB)

    def upload(name: str, size: int) -> str:
        path = ws.uploads / f"sha-{name}" / name
        path.parent.mkdir()
        path.write_bytes(b"x" * size)
        return str(path)

    a, b = upload("a.jsonl", 6 * MB), upload("b.jsonl", 6 * MB)
    ws.hold("s1", [a])
    with pytest.raises(QuotaError, match="a session may hold 10 MB"):
        ws.hold("s1", [a, b])  # 12 MB in one box
    assert not Path(a).exists() and not Path(b).exists()  # the box is emptied, files deleted
    assert not Path(a).parent.exists()  # and their hash folders
    c, d = upload("c.jsonl", 9 * MB), upload("d.jsonl", 9 * MB)
    ws.hold("s1", [c])
    ws.hold("s2", [d])
    e = upload("e.jsonl", 9 * MB)
    with pytest.raises(QuotaError, match="upload space is full"):
        ws.hold("s3", [e])  # 27 MB on disk, 25 allowed
    assert not Path(e).exists() and Path(c).exists() and Path(d).exists()
    ws.hold("s1", [])  # the box was cleared
    assert not Path(c).exists()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep")
    link = ws.uploads / "link.jsonl"
    link.symlink_to(outside)
    ws.hold("s2", [str(outside), str(link), str(ws.uploads / ".." / ".." / "precious.txt")])
    ws.release("s2", [str(outside), str(link)])
    assert outside.read_text() == "keep"  # never deleted: not an upload
    ws.release("s2")  # the tab closed
    assert not Path(d).exists()
    shared = upload("f.jsonl", MB)  # identical uploads share one file: deleted with its last holder
    ws.hold("s4", [shared])
    ws.hold("s5", [shared])
    ws.release("s4", [shared])
    assert Path(shared).exists()
    ws.release("s5", [shared])
    assert not Path(shared).exists()


def test_orphan_uploads_are_swept(tmp_path, monkeypatch):
    from chartspace import workspace as wsmod

    ws = wsmod.Workspace(tmp_path / "work", session_quota=MB, total_quota=MB)
    held, orphan = ws.uploads / "h" / "held.json", ws.uploads / "o" / "orphan.json"
    for p in (held, orphan):
        p.parent.mkdir()
        p.write_text("{}")
    ws.hold("s", [str(held)])
    ws.sweep([str(held), str(orphan)])
    assert orphan.exists()  # young
    monkeypatch.setattr(wsmod, "ORPHAN_SECONDS", -1)
    ws.sweep([str(held), str(orphan)])
    assert held.exists() and not orphan.exists()


_SIGNAL_SCRIPT = """
import os, signal, sys, time
sys.path.insert(0, {spaces!r})
from chartspace.workspace import Workspace
chained = {chain!r}
if chained:
    signal.signal(signal.SIGTERM, lambda n, f: (print("previous handler ran", flush=True), sys.exit(3)))
ws = Workspace.create(session_quota=1, total_quota=1)
(ws.uploads / "upload.jsonl").write_text("x")
ws.install_signal_handlers()
print(ws.root, flush=True)
time.sleep(30)
"""


@pytest.mark.parametrize("chain", [False, True])
def test_sigterm_cleans_up_and_chains_the_previous_handler(tmp_path, chain):
    code = _SIGNAL_SCRIPT.format(spaces=str(ROOT / "spaces"), chain=chain)
    env = {**os.environ, "GRADIO_TEMP_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    work = Path(proc.stdout.readline().strip())
    assert (work / "gradio" / "upload.jsonl").exists()
    proc.send_signal(signal.SIGTERM)
    rest = proc.communicate(timeout=20)[0]
    assert not work.exists()
    if chain:
        assert proc.returncode == 3 and "previous handler ran" in rest
    else:
        assert proc.returncode == -signal.SIGTERM  # still dies of the signal, as supervisors expect


def test_symlinks_in_the_server_folder_are_not_listed_or_followed(tmp_path):
    from chartspace import predictions as cp

    secret = tmp_path / "elsewhere"
    (secret / "model-s").mkdir(parents=True)
    (secret / "model-s" / f"samples_chartprobe_smoke_{STAMP}.jsonl").write_text("")
    (secret / "scores.json").write_text('{"format": "chartprobe-results/1", "models": {}}')
    root = tmp_path / "server"
    (root / "model-x").mkdir(parents=True)
    (root / "model-x" / f"samples_chartprobe_smoke_{STAMP}.jsonl").write_text("")
    (root / "linked-dir").symlink_to(secret / "model-s")  # a folder link
    (root / "linked.json").symlink_to(secret / "scores.json")  # a file link
    (root / "model-y").mkdir()
    (root / "model-y" / f"samples_chartprobe_smoke_{STAMP}.jsonl").symlink_to(
        secret / "model-s" / f"samples_chartprobe_smoke_{STAMP}.jsonl")
    (root / "tree").symlink_to(secret)  # a link to a whole tree
    assert cp.allowed_entries(root) == ["model-x"]
    for choice in ("linked-dir", "linked.json", "model-y", "tree/model-s", "tree/scores.json"):
        with pytest.raises(cp.PredictionsError, match="not one of the server's prediction files"):
            cp.load_allowed(root, choice, tmp_path / "work")


def test_a_load_keeps_nothing_on_disk(tmp_path):
    """Results are kept in memory; the scratch folder a load stages in is the caller's to delete."""
    from chartspace import predictions as cp

    results = tmp_path / "scores.json"
    results.write_text(json.dumps({"format": "chartprobe-results/1", "models": {
        "m": {"records": {}}}}))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (run,) = cp.load_uploads([results], "ignored", scratch)
    assert run.results["models"].keys() == {"m"} and "results" not in repr(run)
    assert list(scratch.iterdir()) == []
