"""Writes never replace what is not ours: an existing output that is a device, FIFO, socket or link is refused.

Run as root with ``--out /dev/full``, ``chartprobe score`` once renamed its JSON over the machine's
``/dev/full``. Every writer now asks ``core/targets.py`` before staging and again before the rename.
Here every writer command meets every kind of node as its output (one ``chartprobe: error:`` line,
exit 2, the node exactly as it was), the atomic-write functions meet them directly, and ``/dev/null``
is refused and left alone. Device nodes are made in the test's own folder with ``os.mknod`` (root
only; skipped otherwise); the real ``/dev/null`` is only ever a target that must stay untouched.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path

import pytest
from chartprobe.dataset_builders.core.atomic import atomic_open, atomic_write, atomic_write_files
from chartprobe.dataset_builders.core.targets import ForeignTarget, refuse_foreign
from cli_cases import BAR, Case, assert_one_error_line

from chartprobe.cli import main

ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="os.mknod of a device needs root")


def _chr(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # the null device's numbers: harmless if it leaked


def _blk(path: Path) -> None:
    os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(7, 255))  # a loop device number; never opened here


def _sock(path: Path) -> None:
    # AF_UNIX paths are limited to ~108 bytes: bind by a name relative to the node's own folder.
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path.name)
        _SOCKETS.append(s)
    finally:
        os.chdir(cwd)


def _link(path: Path) -> None:
    victim = path.parent / f"{path.name}.victim"
    victim.write_text("not yours")
    path.symlink_to(victim.name)


def _dangling(path: Path) -> None:
    path.symlink_to("nowhere-yet")  # writing through it would create a file where the link points


_SOCKETS: list[socket.socket] = []
NODES = {"char-device": pytest.param(_chr, marks=needs_root, id="char-device"),
         "block-device": pytest.param(_blk, marks=needs_root, id="block-device"),
         "fifo": pytest.param(os.mkfifo, id="fifo"), "socket": pytest.param(_sock, id="socket"),
         "symlink": pytest.param(_link, id="symlink"), "dangling-symlink": pytest.param(_dangling, id="dangling-symlink")}


@pytest.fixture(autouse=True)
def _close_sockets():
    yield
    while _SOCKETS:
        _SOCKETS.pop().close()


def _identity(path: Path) -> tuple:
    """What must not change: the node's kind, inode, device numbers and (for a link) its target."""
    st = os.lstat(path)
    return (stat.S_IFMT(st.st_mode), st.st_ino, st.st_rdev, st.st_size,
            os.readlink(path) if stat.S_ISLNK(st.st_mode) else None)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- the helper and the atomic writers --------------------------------------------------------------

@pytest.mark.parametrize("make", NODES.values())
@pytest.mark.parametrize("folder", [False, True], ids=["file-output", "folder-output"])
def test_refuse_foreign_names_the_node_kind(tmp_path, make, folder):
    target = tmp_path / "out"
    make(target)
    with pytest.raises(ForeignTarget) as err:
        refuse_foreign(target, folder=folder)
    assert err.value.filename == str(target) and "refusing to replace it" in err.value.strerror


def test_refuse_foreign_accepts_what_is_ours(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "d").mkdir()
    for path, folder in ((tmp_path / "f", False), (tmp_path / "d", True), (tmp_path / "new", False),
                         (tmp_path / "new", True), (tmp_path / "f" / "under", False)):
        refuse_foreign(path, folder=folder)
    with pytest.raises(ForeignTarget, match="is a folder, not a regular file"):
        refuse_foreign(tmp_path / "d")
    with pytest.raises(ForeignTarget, match="is a regular file, not a folder"):
        refuse_foreign(tmp_path / "f", folder=True)


WRITERS = {
    "atomic_write": lambda p: atomic_write(p, b"data"),
    "atomic_write_files": lambda p: atomic_write_files({p.parent / "first.json": "{}", p: "second"}),
    "atomic_open": lambda p: atomic_open(p).__enter__(),
}


@pytest.mark.parametrize("write", WRITERS.values(), ids=WRITERS.keys())
@pytest.mark.parametrize("make", [*NODES.values(), pytest.param(os.mkdir, id="folder")])
def test_atomic_writers_refuse_and_leave_the_node_and_no_temp_file(tmp_path, make, write):
    target = tmp_path / "out.json"
    make(target)
    before = _identity(target)
    with pytest.raises(ForeignTarget):
        write(target)
    assert _identity(target) == before
    assert _leftovers(tmp_path) == [] and not (tmp_path / "first.json").exists()  # both or neither


def test_a_node_planted_while_staging_is_refused_at_the_rename(tmp_path):
    target = tmp_path / "results.json"
    with pytest.raises(ForeignTarget, match="FIFO"), atomic_open(target) as fh:
        fh.write("{}")
        os.mkfifo(target)  # appears during a long write (score streams millions of records)
    assert stat.S_ISFIFO(os.lstat(target).st_mode) and _leftovers(tmp_path) == []


def test_dev_null_is_refused_and_untouched(tmp_path, capsys):
    before = _identity(Path("/dev/null"))
    with pytest.raises(ForeignTarget, match="character device"):
        atomic_write("/dev/null", b"x")
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(BAR))
    for argv in (["render", str(spec), "--out", "/dev/null"],
                 ["score", "--predictions", str(tmp_path / "s"), "--out", "/dev/null"]):
        capsys.readouterr()
        assert_one_error_line(main(argv), capsys.readouterr().err, "/dev/null: is a character device")
    assert _identity(Path("/dev/null")) == before
    assert not list(Path("/dev").glob(".null.*.tmp"))


# --- every writer command ----------------------------------------------------------------------------

def _spec(c: Case) -> str:
    return c.json("spec.json", BAR)


def _reconstruct(c: Case, out: str, work: str) -> list[str]:
    return ["reconstruct", "--source", c.path("src"), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "--work", work, "--out", out, "--quiet"]


COMMANDS = {  # writer -> (argv with the output path T, whether T is a folder output)
    "render --out": (lambda c, t: ["render", _spec(c), "--out", t], False),
    "render --boxes": (lambda c, t: ["render", _spec(c), "--out", c.path("x.png"), "--boxes", t], False),
    "score --out": (lambda c, t: ["score", "--predictions", c.path("s"), "--out", t], False),
    "profile --out": (lambda c, t: ["profile", c.path("r.json"), "--out", t], False),
    "report --out": (lambda c, t: ["report", c.path("r.json"), "--out", t], True),
    "validate --out": (lambda c, t: ["validate", c.path("rel"), "--out", t], True),
    "validate --predictions-out": (lambda c, t: ["validate", c.path("rel"), "--predictions-out", t], True),
    "build --out": (lambda c, t: ["build", "smoke", "--out", t, "--quiet"], True),
    "merge --out": (lambda c, t: ["merge", c.folder("shard"), "--out", t, "--quiet"], True),
    "train --out": (lambda c, t: ["train", "--model", c.model(), "--data", c.probes(), "--out", t], True),
    "reconstruct --out": (lambda c, t: _reconstruct(c, t, c.path("work")), True),
    "reconstruct --work": (lambda c, t: _reconstruct(c, c.path("hub"), t), True),
    "export vlmevalkit --out": (lambda c, t: ["export", "vlmevalkit", c.path("rel"), "--config", "bar",
                                              "--out", t, "--quiet"], True),
}


@pytest.mark.parametrize("make", [*NODES.values(), pytest.param("other-kind", id="wrong-kind")])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_writer_refuses_a_node_that_is_not_ours(tmp_path, monkeypatch, capsys, command, make):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("CHARTPROBE_DATA", raising=False)
    argv, folder = COMMANDS[command]
    target = tmp_path / "target"
    if make == "other-kind":  # a folder where a file goes, a file where a folder goes
        make = (lambda p: p.write_text("mine")) if folder else os.mkdir
    make(target)
    args = argv(Case(tmp_path, None), str(target))
    before = _identity(target)
    capsys.readouterr()
    code = main(args)
    assert_one_error_line(code, capsys.readouterr().err, f"{target}: is ")  # the refusal, not a later error
    assert _identity(target) == before


@pytest.mark.parametrize("make", [pytest.param(os.mkfifo, id="fifo"), pytest.param(_link, id="symlink"),
                                  pytest.param(lambda p: p.write_text("x"), id="file")])
@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]], ids=["", "overwrite"])
def test_build_refuses_a_node_named_like_its_release(tmp_path, capsys, make, overwrite):
    out = tmp_path / "hub"
    out.mkdir()
    make(out / "chartprobe-smoke")
    before, names = _identity(out / "chartprobe-smoke"), sorted(p.name for p in out.iterdir())
    capsys.readouterr()
    code = main(["build", "smoke", "--out", str(out), "--quiet", *overwrite])
    assert_one_error_line(code, capsys.readouterr().err, "not a folder")
    assert _identity(out / "chartprobe-smoke") == before
    assert sorted(p.name for p in out.iterdir()) == names  # no lock file, work folder or .old- left


def test_the_reconstruct_work_files_are_checked_before_the_run(tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    os.mkfifo(work / "runs.jsonl")  # appended to at the end of a run: a FIFO would block it forever
    capsys.readouterr()
    code = main(_reconstruct(Case(tmp_path, None), str(tmp_path / "hub"), str(work)))
    assert_one_error_line(code, capsys.readouterr().err, "runs.jsonl: is a FIFO")
    assert stat.S_ISFIFO(os.lstat(work / "runs.jsonl").st_mode)
