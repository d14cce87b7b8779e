"""What killed or failed runs leave behind (issue #46 point 8): orphan temp files of a writer
killed by SIGKILL are removed by the next write of the same output, a live writer's are kept; a
full disk names the path; a file or link left aside as ``.old-*`` is removed by the next build;
an unreadable samples folder says "Permission denied", not "no samples files"."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chartprobe.dataset_builders.core import atomic
from chartprobe.dataset_builders.release import swap
from chartprobe.eval_tasks.rescoring.predictions import sample_files

from chartprobe.cli import main


def _dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_orphan_temp_files_of_a_killed_writer_are_removed_by_the_next_write(tmp_path):
    out = tmp_path / "results.json"
    dead = tmp_path / f".results.json.{_dead_pid()}-0123abcd.tmp"
    live = tmp_path / f".results.json.{os.getppid()}-89abcdef.tmp"  # pytest's parent: alive
    other = tmp_path / f".report.json.{_dead_pid()}-0123abcd.tmp"  # another output's: not ours to judge
    for p in (dead, live, other):
        p.write_text("half")
    atomic.atomic_write_text(out, "{}")
    assert out.read_text() == "{}"
    assert not dead.exists() and live.exists() and other.exists()


def test_a_full_disk_names_the_path(tmp_path, monkeypatch):
    def full(fh, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write_all", full)
    with pytest.raises(OSError) as info:
        atomic.atomic_write_text(tmp_path / "results.json", "{}")
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path / "results.json")
    assert list(tmp_path.iterdir()) == []  # no temp file left


def test_a_full_disk_is_one_error_line_naming_the_path(tmp_path, monkeypatch, capsys):
    def full(fh, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write_all", full)
    spec = tmp_path / "s.json"
    spec.write_text('{"version": "chartprobe.spec/1", "kind": "bar", "data": {"categories": ["A"], '
                    '"series": [{"name": "S", "values": [1]}]}, "encodings": [{"color": "#336699"}]}')
    assert main(["render", str(spec), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0] == f"chartprobe: error: {tmp_path / 'x.png'}: No space left on device", err


@pytest.mark.parametrize("kind", ["file", "symlink"])
def test_a_file_or_link_left_aside_as_old_is_removed_once(tmp_path, capsys, kind):
    target = tmp_path / "elsewhere"
    target.mkdir()
    aside = tmp_path / f".chartprobe-smoke.old-{swap._host()}-{_dead_pid()}-x1"
    if kind == "file":
        aside.write_text("x")
    else:
        aside.symlink_to(target)
    assert swap.clean_leftovers(tmp_path) == [aside]
    assert not os.path.lexists(aside) and target.is_dir()  # the link removed, never what it points at
    assert "removed" in capsys.readouterr().err
    assert swap.clean_leftovers(tmp_path) == []  # nothing printed on every later build


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_an_unreadable_samples_folder_says_permission_denied(tmp_path):
    locked = tmp_path / "runs" / "m"
    locked.mkdir(parents=True)
    (locked / "samples_chartprobe_smoke_2026-03-01T00-00-00.000001.jsonl").write_text("{}\n")
    locked.chmod(0)
    try:
        with pytest.raises(PermissionError) as info:
            sample_files([tmp_path / "runs"])
        assert info.value.filename == str(locked)
    finally:
        locked.chmod(0o755)


def test_an_unlistable_samples_folder_is_an_error_not_no_files(tmp_path, monkeypatch):
    """As root (no permission ever denied) the same path is taken with os.walk's error hook."""
    (tmp_path / "runs").mkdir()
    real = os.scandir

    def refuse(path="."):
        if Path(path) == tmp_path / "runs":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", refuse)
    with pytest.raises(PermissionError, match="Permission denied"):
        sample_files([tmp_path / "runs"])


def test_judge_cache_lookups_create_no_folder(tmp_path):
    """A ``score --judge`` whose judge never answers only looks up: no new cache folder is left."""
    from chartprobe.eval_tasks.answer_judge.cache import CachedReply, JudgeCache

    folder = tmp_path / "judge-cache"
    cache = JudgeCache(folder)
    assert cache.get("k") is None and len(cache) == 0 and not folder.exists()
    cache.put("k", "m", CachedReply("yes", "m"))
    assert cache.get("k") == CachedReply("yes", "m") and len(cache) == 1 and folder.is_dir()
    cache.close()


def test_an_interrupt_after_a_completed_swap_says_the_release_is_in_place(tmp_path, monkeypatch, capsys):
    from chartprobe.errors import run_command

    final, work = tmp_path / "chartprobe-smoke", tmp_path / ".chartprobe-smoke.tmp-x"
    final.mkdir()
    (work / "release").mkdir(parents=True)

    def rmtree(path, *args, **kwargs):  # Ctrl-C while the previous release is being deleted
        raise KeyboardInterrupt

    monkeypatch.setattr(swap.shutil, "rmtree", rmtree)

    def command(_args):
        swap.swap_into_place(work / "release", final, work)
        return 0

    assert run_command(command, object()) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [(f"chartprobe: interrupted after {final} was put in place (the new release is complete; "
                    "the previous one set aside is removed by the next build)")], err
    assert final.is_dir() and not (work / "release").exists()
