"""Shared by the malformed-input tests (``test_cli_malformed.py``, ``test_cli_signals.py``).

:class:`Case` writes a row's malformed inputs into the row's own folder, :func:`tree` is what
"nothing new, nothing changed" compares, :func:`assert_one_error_line` is the acceptance check
of issue #20: exit 2, no traceback, one ``chartprobe: error:`` line that names the problem.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from chartprobe.cli import main

__all__ = ["BAR", "NOT_UTF8", "SAMPLES_NAME", "TASK", "Base", "Case", "assert_one_error_line", "base_fixture", "row",
           "tree"]

NOT_UTF8 = b"\xff\xfe\x00\x81 not text"
TASK = "chartprobe_smoke"
SAMPLES_NAME = f"samples_{TASK}_2026-01-01T00-00-00.000000.jsonl"
BAR = {"version": "chartprobe.spec/1", "kind": "bar",
       "data": {"categories": ["A", "B", "C"], "series": [{"name": "S", "values": [1, 2, 3]}]},
       "encodings": [{"color": "#336699"}]}


@dataclass
class Base:
    """Good inputs the rows break: a smoke release, the oracle's samples on it, their results."""

    release: Path
    samples: Path
    results: Path
    validity: Path


@pytest.fixture(scope="module", name="base")
def base_fixture(tmp_path_factory) -> Base:
    """The good inputs, built once per test module (~5 s)."""
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("malformed-base")
    release = build_release("smoke", root / "releases", "small").path
    samples, results, validity = root / "samples", root / "results.json", root / "validity"
    assert main(["validate", str(release), "--agents", "oracle", "--predictions-out", str(samples),
                 "--out", str(validity)]) == 0
    assert main(["score", "--predictions", str(samples), "--releases", str(release.parent), "--out", str(results)]) == 0
    return Base(release, samples / "oracle", results, validity / "validity.json")


class Case:
    """One row's folder (the test's tmp_path) and helpers that write malformed inputs into it."""

    def __init__(self, tmp: Path, base: Base) -> None:
        self.tmp, self.base = tmp, base

    def path(self, name: str) -> str:
        """A path in the folder that does not exist yet (an output the command must not create)."""
        return str(self.tmp / name)

    def file(self, name: str, data: str | bytes) -> str:
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return str(path)

    def folder(self, name: str) -> str:
        (self.tmp / name).mkdir(parents=True, exist_ok=True)
        return str(self.tmp / name)

    def fifo(self, name: str) -> str:
        """A named pipe: an output a rename must never replace (and a write would block on)."""
        os.mkfifo(self.tmp / name)
        return str(self.tmp / name)

    def link(self, name: str, to: str = "victim.txt") -> str:
        """A symbolic link to a path of the row's own (made a file if missing; it must stay as it is)."""
        if not (self.tmp / to).exists():
            self.file(to, "not yours")
        (self.tmp / name).symlink_to(self.tmp / to)
        return str(self.tmp / name)

    def json(self, name: str, obj) -> str:
        return self.file(name, json.dumps(obj))

    def release(self, card=None, parquet: bytes | None = None, *, drop_parquet: bool = False) -> str:
        """A copy of the smoke release under ``releases/``; ``card`` edits the README text."""
        dest = self.tmp / "releases" / self.base.release.name
        if not dest.exists():
            shutil.copytree(self.base.release, dest)
        readme = dest / "README.md"
        if card is not None:
            readme.write_bytes(card(readme.read_text()) if callable(card) else card)
        pq = dest / "default" / "test-00000-of-00001.parquet"
        if parquet is not None:
            pq.write_bytes(parquet)
        if drop_parquet:
            pq.unlink()
        return str(dest)

    def releases(self, **kw) -> str:
        return str(Path(self.release(**kw)).parent)

    def good_line(self) -> dict:
        return json.loads(next(self.base.samples.glob("*.jsonl")).read_text().splitlines()[0])

    def samples(self, *lines, name: str = SAMPLES_NAME) -> str:
        """A model folder ``samples/m/`` with one samples file: objects as JSON, text and bytes as given."""
        data = b"".join((x if isinstance(x, bytes) else x.encode() if isinstance(x, str) else json.dumps(x).encode())
                        + b"\n" for x in lines)
        self.file(f"samples/m/{name}", data)
        return str(self.tmp / "samples" / "m")

    def line(self, **changes) -> dict:
        return {**self.good_line(), **changes}

    def results(self, edit) -> str:
        doc = json.loads(self.base.results.read_text())
        return self.json("bad-results.json", edit(doc))

    def probes(self) -> str:
        """A card-only chartprobe-probes release (enough for train's checks, which run before any read)."""
        self.file("probes/chartprobe-probes/README.md", "---\nconfigs:\n- config_name: bar\n  data_files:\n"
                  "  - {split: train, path: bar/train-*.parquet}\n  - {split: validation, path: bar/validation-*.parquet}\n"
                  "chartprobe: {dataset: probes}\n---\n")
        return str(self.tmp / "probes" / "chartprobe-probes")

    def model(self) -> str:
        return self.folder("model")


def row(command: str, name: str, make, fragment: str, *marks):
    return pytest.param(command, make, fragment, id=f"{command}-{name}", marks=marks)


def tree(root: Path) -> dict[str, tuple]:
    """Every path under ``root`` with its size and mtime: what "nothing new, nothing changed" compares."""
    return {str(p.relative_to(root)): (p.is_dir(), p.stat().st_size if p.is_file() else 0, p.stat().st_mtime_ns)
            for p in root.rglob("*")}


def assert_one_error_line(code: int, err: str, fragment: str) -> None:
    """Exit 2, no traceback, and stderr is one ``chartprobe: error:`` line that contains ``fragment``."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("chartprobe: error: "), err
    assert fragment.lower() in lines[0].lower(), lines[0]
    assert code == 2, (code, err)
