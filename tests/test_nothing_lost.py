"""Nothing lost (issue 20): interrupted swaps, full disks and killed builds keep the previous files.

Every build here uses a 3-row smoke preset, well under a second each.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chartprobe.dataset_builders.core import atomic
from chartprobe.dataset_builders.release import hub, swap
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples

from chartprobe.cli import main

PRESET = """dataset: smoke
preset: tiny
seed: {seed}
shard_size: 4
configs:
  default:
    splits: {{test: 3}}
    params: {{kind: bar}}
"""


def _preset(tmp_path: Path, seed: int) -> Path:
    path = tmp_path / f"tiny-{seed}.yaml"
    path.write_text(PRESET.format(seed=seed))
    return path


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def previous(tmp_path):
    """A release (seed 0) in ``out`` and its bytes, plus a seed-1 preset that would replace it."""
    out = tmp_path / "out"
    build_release("smoke", out, _preset(tmp_path, 0))
    return out, _snapshot(out), _preset(tmp_path, 1)


def _assert_previous_intact(out: Path, before: dict[str, bytes], cache: Path) -> None:
    from datasets import load_dataset

    assert _snapshot(out) == before  # byte for byte, and no leftover temp file or folder
    assert sorted(os.listdir(out)) == ["chartprobe-smoke"]
    ds = load_dataset(str(out / "chartprobe-smoke"), "default", split="test", cache_dir=str(cache))
    assert len(ds) == 3 and set(ds["seed"]) == {0}
    assert read_card_metadata(out / "chartprobe-smoke")["chartprobe"]["seed"] == 0


# -- (1) a failure at every step of the swap -------------------------------------------------

STEPS = ["card", "verify", "rename aside", "rename aside (took effect)", "rename into place",
         "rename into place (took effect)"]


def _inject(monkeypatch, step: str, exc: BaseException) -> None:
    if step == "card":
        def card(*args, **kwargs):
            raise exc
        monkeypatch.setattr(hub, "write_card", card)
    elif step == "verify":
        def verify(*args, **kwargs):
            raise exc
        monkeypatch.setattr(hub, "check_written", verify)
    else:
        which = 1 if step.startswith("rename aside") else 2
        after = step.endswith("(took effect)")  # the interrupt lands just after the syscall
        calls = []
        real = swap._rename

        def rename(src, dst):
            calls.append(src)
            if len(calls) == which and not after:
                raise exc
            real(src, dst)
            if len(calls) == which:
                raise exc
        monkeypatch.setattr(swap, "_rename", rename)


@pytest.mark.parametrize("exc_type", [OSError, KeyboardInterrupt])
@pytest.mark.parametrize("step", STEPS)
def test_a_failure_at_any_step_of_the_swap_keeps_the_previous_release(previous, step, exc_type,
                                                                     monkeypatch, tmp_path):
    out, before, new_preset = previous
    _inject(monkeypatch, step, exc_type(f"injected at {step}"))
    with pytest.raises(exc_type, match="injected"):
        build_release("smoke", out, new_preset, overwrite=True)
    _assert_previous_intact(out, before, tmp_path / "hf")


def test_without_a_failure_the_new_release_replaces_the_old_and_nothing_is_left(previous):
    out, _, new_preset = previous
    build_release("smoke", out, new_preset, overwrite=True)
    assert sorted(os.listdir(out)) == ["chartprobe-smoke"]
    assert read_card_metadata(out / "chartprobe-smoke")["chartprobe"]["seed"] == 1


def test_an_interrupt_after_the_swap_leaves_the_new_release_and_the_next_build_cleans_up(
        previous, monkeypatch, capsys):
    out, _, new_preset = previous

    real = swap.shutil.rmtree

    def rmtree(path, *args, **kwargs):  # interrupted while deleting the old release
        if ".old-" in Path(path).name:
            raise KeyboardInterrupt
        return real(path, *args, **kwargs)
    monkeypatch.setattr(swap.shutil, "rmtree", rmtree)
    with pytest.raises(KeyboardInterrupt):
        build_release("smoke", out, new_preset, overwrite=True)
    monkeypatch.undo()
    assert read_card_metadata(out / "chartprobe-smoke")["chartprobe"]["seed"] == 1  # the new one
    assert len(os.listdir(out)) > 1  # the old release aside and the work folder are left over
    capsys.readouterr()
    build_release("smoke", out, _preset(out.parent, 2), overwrite=True)
    assert sorted(os.listdir(out)) == ["chartprobe-smoke"]
    assert "removed" in capsys.readouterr().err


# -- leftovers of killed builds ----------------------------------------------------------------

def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()  # reaped: the pid names no process any more
    return proc.pid


def _leftover(out: Path, kind: str, pid: int, host: str | None = None) -> Path:
    path = out / f".chartprobe-smoke.{kind}-{host or swap._host()}-{pid}-abc_123"
    (path / "default").mkdir(parents=True)
    (path / "default" / "x.parquet").write_bytes(b"x" * 1000)
    return path


def test_leftovers_of_dead_builds_are_removed_and_live_or_foreign_ones_kept(previous, capsys):
    out, _, new_preset = previous
    dead = _leftover(out, "tmp", _dead_pid())
    dead_aside = _leftover(out, "old", _dead_pid())  # a release is in place: the aside is stale
    live = _leftover(out, "tmp", os.getppid())  # a concurrent build: must survive
    foreign = _leftover(out, "tmp", _dead_pid(), host="0" * 8)
    unnamed = out / ".chartprobe-smoke.tmp-k2j4h5g6"  # written before owners were recorded
    unnamed.mkdir()
    capsys.readouterr()
    build_release("smoke", out, new_preset, overwrite=True)
    err = capsys.readouterr().err
    assert not dead.exists() and not dead_aside.exists()
    assert live.exists() and foreign.exists() and unnamed.exists()
    assert err.count("removed") == 2 and "another machine" in err and "names no owner" in err
    assert all(line.startswith("chartprobe: ") for line in err.splitlines())


def test_a_release_left_aside_by_a_killed_build_is_restored(previous, tmp_path, capsys):
    out, before, new_preset = previous
    aside = out / f".chartprobe-smoke.old-{swap._host()}-{_dead_pid()}-abc_123"
    os.replace(out / "chartprobe-smoke", aside)  # killed between the two renames
    with pytest.raises(hub.ReleaseError, match="already exists"):  # it is back before the check
        build_release("smoke", out, new_preset)
    assert "restored the previous release" in capsys.readouterr().err
    _assert_previous_intact(out, before, tmp_path / "hf")


# -- (3) a full disk ---------------------------------------------------------------------------

def _disk_full_after(monkeypatch, n_ok: int = 0) -> None:
    """Let ``n_ok`` files be written, then fail the next one half-way with ENOSPC."""
    real = atomic._write_all
    calls = []

    def write(fh, data):
        calls.append(len(data))
        if len(calls) <= n_ok:
            return real(fh, data)
        fh.write(data[: len(data) // 2])
        fh.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(atomic, "_write_all", write)


def _fails_on_full_disk(argv: list[str], capsys) -> None:
    capsys.readouterr()
    try:
        rc = main(argv)
    except OSError as exc:  # the CLI may report it as one line (exit 2) or let it through
        assert exc.errno == errno.ENOSPC
        return
    assert rc != 0 and os.strerror(errno.ENOSPC) in capsys.readouterr().err


def test_full_disk_during_the_card_write_of_a_build_keeps_the_previous_release(previous, monkeypatch,
                                                                               tmp_path):
    out, before, new_preset = previous
    _disk_full_after(monkeypatch)
    with pytest.raises(OSError) as info:
        build_release("smoke", out, new_preset, overwrite=True)
    assert info.value.errno == errno.ENOSPC
    _assert_previous_intact(out, before, tmp_path / "hf")


def test_full_disk_during_the_parquet_write_of_a_build_keeps_the_previous_release(previous, monkeypatch,
                                                                                  tmp_path, capsys):
    out, before, new_preset = previous

    def full(ds, folder, config, split):
        (folder / config).mkdir(parents=True, exist_ok=True)
        (folder / config / f"{split}-00000-of-00001.parquet").write_bytes(b"PAR1 cut off")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(hub, "write_split", full)
    _fails_on_full_disk(["build", "smoke", "--preset", str(new_preset), "--out", str(out),
                         "--overwrite", "--quiet"], capsys)
    _assert_previous_intact(out, before, tmp_path / "hf")


@pytest.fixture
def scored(previous, tmp_path):
    """Samples of one model on the previous release, scored once into results.json."""
    out = previous[0]
    rows = load_release_rows(out / "chartprobe-smoke")[("default", "test")]
    samples = tmp_path / "samples" / "m"
    write_samples(samples, "chartprobe_smoke", rows, ["1"] * len(rows), "2026-01-01T00-00-00.1")
    results = tmp_path / "results.json"
    assert main(["score", "--predictions", str(samples), "--releases", str(out), "--out", str(results)]) == 0
    return out, samples, results


def _mark_previous(folder: Path) -> dict[str, bytes]:
    """Give every file in ``folder`` contents no command writes, so any replacement shows."""
    for path in folder.iterdir():
        path.write_bytes(b"previous " + path.name.encode() + b"\n")
    return _snapshot(folder)


def test_full_disk_during_score_keeps_the_previous_results(scored, monkeypatch, capsys):
    out, samples, results = scored
    keep = results.parent / "keep"
    keep.mkdir()
    os.replace(results, keep / "results.json")
    before = _mark_previous(keep)
    _disk_full_after(monkeypatch)
    _fails_on_full_disk(["score", "--predictions", str(samples), "--releases", str(out),
                         "--out", str(keep / "results.json")], capsys)
    assert _snapshot(keep) == before


@pytest.mark.parametrize("n_ok", [0, 2])  # the first file, or one after two were written
def test_full_disk_during_report_keeps_the_previous_report(scored, n_ok, monkeypatch, tmp_path, capsys):
    results = scored[2]
    report = tmp_path / "report"
    assert main(["report", str(results), "--out", str(report)]) == 0
    assert len(os.listdir(report)) >= 3  # report.json, report.md and at least one plot
    before = _mark_previous(report)
    _disk_full_after(monkeypatch, n_ok)
    _fails_on_full_disk(["report", str(results), "--out", str(report)], capsys)
    assert _snapshot(report) == before


@pytest.mark.parametrize("n_ok", [0, 1])
def test_full_disk_during_validate_out_keeps_the_previous_tables(previous, n_ok, monkeypatch, tmp_path,
                                                                  capsys):
    out = previous[0]
    tables = tmp_path / "validity"
    assert main(["validate", str(out / "chartprobe-smoke"), "--out", str(tables)]) == 0
    before = _mark_previous(tables)
    _disk_full_after(monkeypatch, n_ok)
    _fails_on_full_disk(["validate", str(out / "chartprobe-smoke"), "--out", str(tables)], capsys)
    assert _snapshot(tables) == before


def test_full_disk_during_validate_write_card_keeps_the_previous_card(previous, monkeypatch, tmp_path,
                                                                      capsys):
    out, before, _ = previous
    _disk_full_after(monkeypatch)
    _fails_on_full_disk(["validate", str(out / "chartprobe-smoke"), "--write-card"], capsys)
    _assert_previous_intact(out, before, tmp_path / "hf")
    monkeypatch.undo()  # with room on the disk, the same command does change the card
    assert main(["validate", str(out / "chartprobe-smoke"), "--write-card"]) == 0
    assert "## Validity" in (out / "chartprobe-smoke" / "README.md").read_text()


# -- the write primitive itself ------------------------------------------------------------------

def test_atomic_write_keeps_permissions_and_leaves_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    atomic.atomic_write_text(target, "one")
    os.chmod(target, 0o640)
    atomic.atomic_write(target, b"two")
    assert target.read_bytes() == b"two" and (target.stat().st_mode & 0o777) == 0o640
    _disk_full_after(monkeypatch, 1)
    with pytest.raises(OSError):
        atomic.atomic_write_files({tmp_path / "b.txt": "new", target: "three"})
    assert sorted(os.listdir(tmp_path)) == ["a.json"] and target.read_bytes() == b"two"


def test_commands_still_exports_atomic_write():
    from chartprobe.dataset_builders.commands import atomic_write

    assert atomic_write is atomic.atomic_write
