"""What every importer of a paper's released data shares (``chartprobe build DATASET --released DIR``).

A benchmark package reads its paper's released layout itself (``judge/released.py``,
``families/released.py``); the bookkeeping around it is the same for all of them and lives here:
the files read with their hashes and Hub revisions, the licence the released card declares, and
:class:`ReleasedLoader`, which reads a folder once per process and refuses one that changed since
the build's recipe named its SHA-256.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["HF_DOWNLOAD_META", "ReleasedFile", "ReleasedLoader", "declared_license", "files_digest",
           "files_revisions", "hub_revision"]

HF_DOWNLOAD_META = Path(".cache") / "huggingface" / "download"
"""Where ``huggingface-cli download --local-dir`` records each file's commit (line 1 of ``<file>.metadata``)."""


@dataclass(frozen=True)
class ReleasedFile:
    """One released file read: its path, content hash, row count and the Hub commit it came from."""

    path: str
    """Relative to the released folder."""
    sha256: str
    rows: int | None
    """Rows of a data file (None: an image)."""
    revision: str | None
    """The Hub commit ``huggingface-cli download`` recorded for it (None: not recorded)."""


def files_digest(files: Iterable[ReleasedFile]) -> str:
    """SHA-256 over the files read (path and content hash of each, in path order)."""
    h = hashlib.sha256()
    for f in sorted(files, key=lambda f: f.path):
        h.update(f"{f.path}\n{f.sha256}\n".encode())
    return h.hexdigest()


def files_revisions(files: Iterable[ReleasedFile]) -> tuple[str, ...]:
    """The Hub commits the files were downloaded at (empty when no download metadata was found)."""
    return tuple(sorted({f.revision for f in files if f.revision}))


def hub_revision(root: Path, rel: str) -> str | None:
    """The commit ``huggingface-cli download`` recorded for ``root/rel`` (None when it recorded none)."""
    try:
        first = (root / HF_DOWNLOAD_META / f"{rel}.metadata").read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return first if re.fullmatch(r"[0-9a-f]{40}", first) else None


def declared_license(root: Path) -> str | None:
    """The ``license`` of ``README.md``'s YAML header (None without a readable one: it is only recorded)."""
    import yaml

    try:
        text = (root / "README.md").read_text(encoding="utf-8")
        meta = yaml.safe_load(text[3:text.index("\n---", 3)]) if text.startswith("---") else None
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError):
        return None
    value = meta.get("license") if isinstance(meta, dict) else None
    return ", ".join(map(str, value)) if isinstance(value, list) else (str(value) if value else None)


S = TypeVar("S")


class ReleasedLoader(Generic[S]):
    """Reads a released folder with ``read`` once per process (``S`` has ``root`` and ``digest``).

    A build reads and checks the folder in the parent (:meth:`params`, always fresh) and the
    worker processes re-read it by the params every config carries (:meth:`from_params`); a folder
    whose digest is no longer the recipe's is refused with ``error``, so a build never mixes two
    versions of the released data. One set is kept at a time: a full copy can be large.
    """

    def __init__(self, read: Callable[[str | Path], S], error: type[Exception]) -> None:
        self.read, self.error = read, error
        self._kept: dict[tuple[str, str | None], S] = {}

    def clear(self) -> None:
        """Forget the set read (as a fresh process would)."""
        self._kept.clear()

    def _keep(self, key: tuple[str, str | None], found: S) -> S:
        self._kept.clear()
        self._kept[key] = found
        return found

    def load(self, root: str | Path, sha256: str | None = None) -> S:
        """The released set under ``root`` (read once per process); refused if it is not ``sha256``."""
        key = (str(Path(root).expanduser().resolve()), sha256)
        if key in self._kept:
            return self._kept[key]
        found = self.read(root)
        if sha256 and found.digest != sha256:
            raise self.error(f"{root}: the released data changed since the build started (sha256 "
                             f"{found.digest[:12]}, the recipe says {sha256[:12]}); rebuild")
        return self._keep(key, found)

    def params(self, root: str | Path) -> dict[str, str]:
        """Read and check ``root`` now (fresh, never a kept read); the params naming it for every config."""
        found = self.read(root)
        self._keep((found.root, found.digest), found)
        return {"released": found.root, "released_sha256": found.digest}

    def from_params(self, params: Mapping[str, Any]) -> S | None:
        """The released set a config's params name (``released``/``released_sha256``), or None (synthetic)."""
        root = params.get("released")
        return None if root is None else self.load(root, params.get("released_sha256") or None)
