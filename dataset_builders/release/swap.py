"""Putting a release in place without ever losing the previous one, and cleaning up after kills.

A build works in a hidden sibling of the release, ``.chartprobe-<name>.tmp-<host>-<pid>-<x>``
(``<host>``: a short hash of the machine's name, ``<pid>``: the building process). Once the
new release is written and verified there, :func:`swap_into_place` renames the previous
release aside to ``.chartprobe-<name>.old-<host>-<pid>-<x>`` (never inside the work folder,
so deleting that folder can never delete it), renames the new one into place and only then
deletes the old one. Any failure before the new one is in place, ``KeyboardInterrupt``
included, renames the previous release back.

A build that is killed (SIGKILL, power loss) cannot clean up, so the next build into the same
``--out`` calls :func:`clean_leftovers`: folders whose owner process is dead are removed, a
previous release left aside is renamed back when no release took its place, and folders of
live builds or of other machines are left alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..core.targets import refuse_foreign

__all__ = ["check_written", "clean_leftovers", "swap_into_place", "workdir"]

_LEFTOVER = re.compile(r"^\.(?P<repo>chartprobe-[\w-]+)\.(?P<kind>tmp|old)-"
                       r"(?:(?P<host>[0-9a-f]{8})-(?P<pid>\d+)-)?[\w]+$")


def _host() -> str:
    return hashlib.sha1(socket.gethostname().encode()).hexdigest()[:8]


_ACTIVE: set[Path] = set()
"""Work folders of builds running in this process (another thread's build is not a leftover)."""


@contextlib.contextmanager
def workdir(out_root: Path, repo_name: str) -> Iterator[Path]:
    """The hidden work folder of one build in ``out_root``, named after its owner, deleted on exit.

    It never holds the previous release (see :func:`swap_into_place`), so deleting it on
    any exit is always safe.
    """
    path = Path(tempfile.mkdtemp(prefix=f".{repo_name}.tmp-{_host()}-{os.getpid()}-", dir=out_root))
    _ACTIVE.add(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        _ACTIVE.discard(path)


def _aside_path(work: Path) -> Path:
    return work.with_name(work.name.replace(".tmp-", ".old-", 1))


def _aside_owner(aside: Path) -> Path:
    return aside.with_name(aside.name.replace(".old-", ".tmp-", 1))


def _rename(src: Path, dst: Path) -> None:
    """One rename of the swap (a function of its own so tests can fail it)."""
    os.replace(src, dst)


def swap_into_place(new: Path, final: Path, work: Path) -> None:
    """Replace ``final`` by the finished release ``new``; on any failure ``final`` is as before.

    ``new`` and ``work`` (the build's :func:`workdir`, a sibling of ``final``) must be on
    ``final``'s filesystem. Once this returns, the new release is in place and the previous
    one is deleted.
    """
    refuse_foreign(final, folder=True)  # checked at the start too; a long build leaves time to plant a node
    aside = _aside_path(work)
    had_previous = os.path.lexists(final)
    try:
        if had_previous:
            _rename(final, aside)
        _rename(new, final)
    except BaseException:
        # An interrupt can land just after a rename took effect, so look at what is on disk
        # rather than at which call raised. ``new`` gone means ``final`` is the new release.
        if not os.path.lexists(new) and os.path.lexists(final):
            os.replace(final, work / "rejected")  # deleted with the work folder
        if os.path.lexists(aside) and not os.path.lexists(final):
            os.replace(aside, final)
        raise
    try:
        shutil.rmtree(aside, ignore_errors=True)  # an interrupt here leaves it to clean_leftovers
    except KeyboardInterrupt:  # the swap is done: say so, not a bare "interrupted"
        raise KeyboardInterrupt(f"interrupted after {final} was put in place (the new release is complete; "
                                "the previous one set aside is removed by the next build)") from None


def check_written(folder: Path, num_rows: dict[str, dict[str, int]]) -> None:
    """Check a written release before it replaces anything: card, files and row counts.

    Reads the card's YAML header and every parquet footer; raises ``ValueError`` when a
    config or split of ``num_rows`` has no data files or its files hold another row count.
    """
    import pyarrow.parquet as pq

    from .card import read_card_metadata

    meta = read_card_metadata(folder)
    listed = {c["config_name"]: {f["split"]: f["path"] for f in c["data_files"]} for c in meta["configs"]}
    for config, splits in num_rows.items():
        for split, want in splits.items():
            pattern = listed.get(config, {}).get(split)
            files = sorted(folder.glob(pattern)) if pattern else []
            if not files:
                raise ValueError(f"{config}/{split}: no data files in the card or on disk")
            got = sum(pq.read_metadata(f).num_rows for f in files)
            if got != want:
                raise ValueError(f"{config}/{split}: files hold {got} rows, the build made {want}")


def _owner_alive(path: Path, pid: int) -> bool:
    if pid == os.getpid():  # ours: in use only while one of our builds holds it
        return path in _ACTIVE or _aside_owner(path) in _ACTIVE
    if os.name == "nt":  # os.kill(pid, 0) would terminate the process there
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # gone, or a pid no system hands out
        return False
    except PermissionError:  # exists, run by another user
        return True
    return True


def _notice(text: str) -> None:
    print(f"chartprobe: {text}", file=sys.stderr)


def _size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def clean_leftovers(out_root: Path) -> list[Path]:
    """Remove (or restore) what killed builds left in ``out_root``; return the paths handled.

    Prints one line per folder to stderr. A folder whose owner is alive is a concurrent
    build and is skipped silently; one from another machine, or with no owner in its name
    (written before owners were recorded), is only reported.
    """
    handled = []
    for path in sorted(out_root.iterdir()):
        m = _LEFTOVER.match(path.name)
        if not m:
            continue
        if path.is_symlink() or not path.is_dir():  # a build leaves folders only: never follow a link
            if m["pid"] is not None and m["host"] == _host() and not _owner_alive(path, int(m["pid"])):
                path.unlink(missing_ok=True)  # set aside by an older build (a file or link named like the release)
                _notice(f"removed {path} (not a folder) left by a build (pid {m['pid']})")
                handled.append(path)
            continue
        if m["pid"] is None or m["host"] != _host():
            why = "it names no owner" if m["pid"] is None else "it belongs to another machine"
            _notice(f"left {path} in place ({why}); delete it by hand if no build is using it")
            continue
        if _owner_alive(path, int(m["pid"])):
            continue
        final = out_root / m["repo"]
        if m["kind"] == "old" and not os.path.lexists(final):
            os.replace(path, final)
            _notice(f"restored the previous release {final} left aside by a killed build (pid {m['pid']})")
        else:
            size = _size_mb(path)
            shutil.rmtree(path, ignore_errors=True)
            _notice(f"removed {path} ({size:.1f} MB) left by a killed build (pid {m['pid']})")
        handled.append(path)
    return handled
