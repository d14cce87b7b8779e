"""The VLMEvalKit dataset class file an export writes: ``chartprobe_vlmevalkit.py``.

The class is a real module of this package (:mod:`.chartprobe_vlmevalkit`, linted and read like
any other, never imported by chartprobe: it imports VLMEvalKit), copied with one line filled in:
``RELEASES``, the release folder each exported dataset's gold is read from. Exports of several
releases into one folder share the file, so an export keeps the releases already named there.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

__all__ = ["CLASS_FILE", "TEMPLATE", "dataset_class_source", "exported_releases"]

CLASS_FILE = "chartprobe_vlmevalkit.py"
TEMPLATE = Path(__file__).with_name(CLASS_FILE)
_SLOT = re.compile(r"^RELEASES = (?P<value>\{.*\})  #", re.MULTILINE)


def exported_releases(class_file: str | os.PathLike) -> dict[str, str]:
    """Dataset -> release folder named in a class file written earlier (empty if none, or unreadable)."""
    try:
        m = _SLOT.search(Path(class_file).read_text(encoding="utf-8"))
        value = json.loads(m["value"]) if m else {}
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def dataset_class_source(releases: Mapping[str, str | os.PathLike]) -> str:
    """The class file's text, its ``RELEASES`` set to ``releases`` (dataset -> release folder, made absolute)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    if len(_SLOT.findall(text)) != 1:  # the template and this writer must change together
        raise RuntimeError(f"{TEMPLATE}: expected one line 'RELEASES = {{...}}  # ...'")
    value = json.dumps({k: str(Path(v).resolve()) for k, v in sorted(releases.items())})  # a Python literal too
    return _SLOT.sub(lambda _: f"RELEASES = {value}  #", text, count=1)
