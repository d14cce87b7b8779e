"""Every construction call cached by content: prompt text, images, model and decoding settings.

Sandboxed jobs are cached the same way (:class:`JobCache`): a job that ran to the end is stored
under its calls (code, function, arguments), limits, mechanism and the sandbox's own source, so a
resumed run re-executes no model-written code it already ran (a render costs about half a second;
a ChartQA run has tens of thousands). Jobs stopped by a limit are not stored: they may have been
stopped by a busy machine rather than by the code.

A re-run or a resumed run reads each reply from here and makes no new model call. The key is the
SHA-256 of the request as JSON with each image replaced by its own SHA-256, so the same chart
under another file name hits, and a changed prompt, image, model or temperature misses. Entries
are written to a temp file and renamed, so a killed run never leaves half an entry.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.targets import refuse_foreign

__all__ = ["CallCache", "JobCache", "request_key"]


def request_key(model: str, settings: dict[str, Any], stage: str, text: str, images: list[bytes]) -> str:
    """The cache key of one call (images by content)."""
    body = {"model": model, "settings": settings, "stage": stage, "text": text,
            "images": [hashlib.sha256(im).hexdigest() for im in images]}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True)
class CallCache:
    """A folder of ``<key[:2]>/<key>.json`` entries: ``{"reply", "usage", "model", "stage"}``."""

    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached entry, or None (a corrupt entry counts as missing and is rewritten)."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        return entry if isinstance(entry, dict) and isinstance(entry.get("reply"), str) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Store an entry atomically."""
        _put(self._path(key), entry)


def _put(path: Path, entry: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(entry, f, ensure_ascii=False)
    try:
        refuse_foreign(path)  # a link or FIFO planted in the cache is never replaced
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


@functools.cache
def _sandbox_source() -> list[tuple[str, str]]:
    """(file, sha256) of the sandbox's modules, read once per process (part of every job key)."""
    from . import sandbox

    return sorted((p.name, hashlib.sha256(p.read_bytes()).hexdigest())
                  for p in Path(sandbox.__file__).parent.glob("*.py"))


@dataclass(frozen=True)
class JobCache:
    """Finished sandbox jobs by content: ``<key[:2]>/<key>.json`` with each PNG in base64."""

    root: Path

    def key(self, calls: list[Any], limits: Any, mechanism: str) -> str:
        """The job's key: its calls, limits, mechanism and the sandbox's source (a changed sandbox misses)."""
        from dataclasses import asdict

        body = {"calls": [asdict(c) for c in calls], "limits": asdict(limits), "mechanism": mechanism,
                "sandbox": _sandbox_source()}
        return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()

    def get(self, key: str) -> Any:
        """The cached :class:`~.sandbox.JobResult`, or None."""
        from .sandbox import CallResult, JobResult

        try:
            e = json.loads((self.root / key[:2] / f"{key}.json").read_text(encoding="utf-8"))
            results = tuple(CallResult(r["ok"], r["value"], r["error"],
                                       base64.b64decode(r["png"]) if r["png"] is not None else None)
                            for r in e["results"])
            return JobResult(e["status"], e["reason"], results, e["mechanism"], e["wall_s"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, job: Any) -> None:
        """Store a job that ran to the end (status ``ok``)."""
        if job.status != "ok":
            return
        results = [{"ok": r.ok, "value": r.value, "error": r.error,
                    "png": base64.b64encode(r.png).decode() if r.png is not None else None} for r in job.results]
        _put(self.root / key[:2] / f"{key}.json", {"status": job.status, "reason": job.reason, "results": results,
                                                   "mechanism": job.mechanism, "wall_s": job.wall_s})
