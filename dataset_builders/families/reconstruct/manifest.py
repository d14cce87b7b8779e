"""The manifest ``chartprobe reconstruct`` writes beside its export: what the families were made from.

The export folder is the paper's released layout (``<split>.jsonl`` rows and
``images/<variant>/<chart_id>.png``, read by :mod:`..released`), so ``chartprobe build families
--released DIR`` imports reconstructed families exactly as it imports the paper's own. The paper's
rows always come from ChartQA, CharXiv or ChartMuseum; a reconstruction can come from any chart-QA
source, so the manifest declares the source as one more benchmark (key, name, where it was read,
licence), and records the construction: model, prompts, sandbox, per-stage usage and every item's
outcome. :func:`read_manifest` is what the importer calls; nothing else is needed to read the rows.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "MANIFEST_NAME", "Manifest", "ManifestError", "read_manifest", "source_key"]

MANIFEST_NAME = "chartprobe-reconstruction.json"
FORMAT = "chartprobe-reconstruction/1"
_KEY = re.compile(r"[a-z][a-z0-9]{0,30}")


class ManifestError(ValueError):
    """The reconstruction manifest is malformed (one line naming the file and the field)."""


def source_key(name: str) -> str:
    """A benchmark key from any source name: lower-case letters and digits, starting with a letter."""
    flat = re.sub(r"[^a-z0-9]", "", name.lower()) or "source"
    return ("s" + flat if not flat[0].isalpha() else flat)[:31]


@dataclass(frozen=True)
class Manifest:
    """The parsed manifest: the declared source benchmark and the recorded construction."""

    path: str
    sha256: str
    data: dict[str, Any]

    @property
    def benchmark(self) -> dict[str, Any]:
        """``key``, ``name``, ``hub`` (where the source was read), ``license``, ``rights``, ``families``."""
        return self.data["benchmark"]


def read_manifest(root: str | Path) -> Manifest | None:
    """The manifest of an export folder, checked; None when ``root`` has none (the paper's own data)."""
    path = Path(root) / MANIFEST_NAME
    if not path.is_file():
        return None
    raw = path.read_bytes()
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ManifestError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ManifestError(f"{path}: not a {FORMAT} manifest (field 'format')")
    bench = data.get("benchmark")
    fields = ("key", "name", "hub", "license", "rights")
    if not isinstance(bench, dict) or any(not isinstance(bench.get(k), str) or not bench[k] for k in fields):
        raise ManifestError(f"{path}: field 'benchmark' must give {', '.join(fields)} as strings")
    if not _KEY.fullmatch(bench["key"]):
        raise ManifestError(f"{path}: benchmark key {bench['key']!r} must be lower-case letters and digits")
    if not isinstance(bench.get("families"), int) or bench["families"] < 0:
        raise ManifestError(f"{path}: benchmark field 'families' must be a non-negative integer")
    return Manifest(str(path), hashlib.sha256(raw).hexdigest(), data)
