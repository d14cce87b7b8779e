"""The whole ``chartprobe reconstruct`` job as one function (the CLI and the tests call it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .cache import JobCache
from .context import Context
from .export import write_export
from .pipeline import outcome_records, run_items
from .prompts import prompt_sha256
from .protocol import DEFAULT_PROTOCOL
from .protocol import protocol as get_protocol
from .sources import load_source

__all__ = ["reconstruct"]


def _manifest(declared: dict[str, Any], rows: int, client: Any, ctx: Context, result: Any) -> dict[str, Any]:
    """Everything the construction depended on, reproducible by a cached re-run (no timings)."""
    from .sandbox import MECHANISMS

    counts = result.counts()
    bench = {k: declared[k] for k in ("key", "name", "hub", "license", "rights")}
    return {
        "benchmark": {**bench, "families": counts["accepted"]},
        "source": {"split": declared["split"], "rows": rows,
                   **({"sample": declared["sample"]} if "sample" in declared else {})},
        "model": {"name": client.model, "settings": client.inner.settings(),
                  "backend": type(client.inner).__name__, **({"sent": sent} if (sent := client.sent()) else {})},
        "protocol": ctx.protocol.settings(),
        "prompts": {"sha256": prompt_sha256(ctx.prompts), "text": ctx.prompts},
        "sandbox": {"mechanism": ctx.mechanism, "isolates_files": MECHANISMS[ctx.mechanism].isolates_files,
                    "limits": asdict(ctx.limits)},
        "stages": {"max_rounds": ctx.rounds, "variants": ctx.variants},
        "usage": client.report(construction_only=True),
        "counts": counts,
        "items": outcome_records(result),
    }


def reconstruct(source: str, work: str | Path, out: str | Path, client: Any, *, mechanism: str, limits: Any,
                split: str | None = None, columns: dict[str, str] | None = None, license: str | None = None,
                limit: int | None = None, sample: int | None = None, seed: int = 0, concurrency: int = 4,
                overwrite: bool = False, command: str | None = None, progress: bool = False,
                protocol: str = DEFAULT_PROTOCOL) -> dict[str, Any]:
    """Source -> outcomes -> export (``work/export``) -> ``out/chartprobe-families``; returns a summary.

    No release is built when no family was accepted (the summary says so); the export, manifest and
    review queue are written either way. ``limit``: the first N source rows; ``sample``: N rows drawn at
    random with ``seed``; ``protocol``: ``paper`` (the released pipeline) or ``chartprobe`` (:mod:`.protocol`). The summary's ``errors`` counts the failed items' reasons (most common first).
    """
    from ...release.hub import build_release
    from ..released import released_params, released_preset

    work = Path(work)
    declared, rows = load_source(source, split=split, columns=columns, license=license, limit=limit,
                                  sample=sample, seed=seed)
    ctx = Context(client, mechanism, limits, jobs=JobCache(work / "cache" / "jobs"), protocol=get_protocol(protocol))
    key_split = f"{declared['key']}_{declared['split']}"
    result = run_items(ctx, rows, key_split, work / "review", concurrency=concurrency, progress=progress)
    manifest = _manifest(declared, len(rows), client, ctx, result)
    export = write_export(work / "export", key_split, result.accepted, manifest)
    summary: dict[str, Any] = {"source": source, "counts": result.counts(), "calls": client.calls,
                               "cached": sum(u["cached"] for u in client.report().values()),
                               "usage": client.report(), "export": str(export), "release": None}
    errors = Counter(o.reason for o in result.outcomes if o.status == "error")
    if errors:
        summary["errors"] = dict(errors.most_common(5))
    adjustments = getattr(client.inner, "adjustments", None)
    if adjustments:
        summary["adjustments"] = list(adjustments)
    if result.accepted:
        params = released_params(export)
        info = build_release("families", out, released_preset(params), params=params, overwrite=overwrite,
                             command=command, progress=progress)
        summary.update(release=str(info.path), content_hash=info.content_hash,
                       rows=sum(n for splits in info.num_rows.values() for n in splits.values()))
    return summary
