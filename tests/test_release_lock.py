"""Builds lock their ``--out``: two builds or merges of one release name never both write it.

Two builds into one ``--out`` once both found the release name free, both reported success and the
later swap silently replaced the earlier release. ``release/lock.py`` holds ``fcntl.flock`` on
``<out>/.chartprobe-<name>.lock`` from before the existence check through the swap. Here another
process holds it while ``build`` and ``merge`` run (with and without ``--overwrite``): each is
refused in one line naming the holder, and writes nothing; then two builds run at once in one
process: exactly one succeeds.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from chartprobe.dataset_builders.release import hub
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.dataset_builders.release.lock import ReleaseBusy, lock_path, release_lock
from cli_cases import assert_one_error_line

from chartprobe.cli import main

NAME = "chartprobe-smoke"
HOLD = ("import sys\nfrom chartprobe.dataset_builders.release.lock import release_lock\n"
        "with release_lock(sys.argv[1], sys.argv[2]):\n    print('held', flush=True)\n    sys.stdin.read()\n")


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> list[str]:
    """The two shards of the smoke build (what `chartprobe merge` assembles)."""
    root = tmp_path_factory.mktemp("shards")
    return [str(build_release("smoke", root, "small", shard=(i, 2)).path) for i in range(2)]


@pytest.fixture
def holder(tmp_path):
    """Another process holding the lock of ``hub/chartprobe-smoke``; yields (hub, its pid)."""
    out = tmp_path / "hub"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out), NAME], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        yield out, proc.pid
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def _tree(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*"))


@pytest.mark.parametrize("command", ["build", "merge"])
@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]], ids=["", "overwrite"])
def test_a_second_writer_of_the_release_is_refused_naming_the_holder(holder, shards, capsys, command, overwrite):
    out, pid = holder
    before = _tree(out)
    argv = (["build", "smoke"] if command == "build" else ["merge", *shards]) + ["--out", str(out), "--quiet"]
    capsys.readouterr()
    code = main([*argv, *overwrite])
    assert_one_error_line(code, capsys.readouterr().err, f"{out / NAME} is being written by another chartprobe "
                                                         f"process (pid {pid} on this machine")
    assert _tree(out) == before == [f".{NAME}.lock"]  # no release, no work folder


def test_a_killed_holder_leaves_no_stale_lock(tmp_path, capsys):
    out = tmp_path / "hub"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out), NAME], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    proc.kill()  # SIGKILL: no cleanup runs, the lock file stays, the kernel drops the flock
    proc.wait(timeout=30)
    proc.stdin.close()
    assert lock_path(out, NAME).exists()
    assert main(["build", "smoke", "--out", str(out), "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [NAME]


def test_two_builds_at_once_exactly_one_succeeds(tmp_path, monkeypatch):
    """Both start before either checks the name; the one that holds the lock waits for the other to end."""
    out, other_done, results = tmp_path / "hub", threading.Event(), {}
    locked = hub._build_locked

    def slow(*args, **kw):  # inside the lock: wait until the other build has been answered
        assert other_done.wait(timeout=30)
        return locked(*args, **kw)

    monkeypatch.setattr(hub, "_build_locked", slow)

    def build(i: int) -> None:
        try:
            results[i] = build_release("smoke", out, "small", overwrite=True)
        except ReleaseBusy as exc:
            results[i] = exc
            other_done.set()

    threads = [threading.Thread(target=build, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    busy = [r for r in results.values() if isinstance(r, ReleaseBusy)]
    built = [r for r in results.values() if not isinstance(r, BaseException)]
    assert len(busy) == 1 and len(built) == 1, results
    assert "being written by another chartprobe process" in str(busy[0])
    assert sorted(p.name for p in out.iterdir()) == [NAME]  # the lock file goes with its holder


def test_the_lock_refuses_a_planted_node_and_never_follows_a_link(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    lock_path(tmp_path, NAME).symlink_to(victim)
    with pytest.raises(OSError, match="symbolic link"), release_lock(tmp_path, NAME):
        pass
    assert victim.read_text() == "keep"
