"""Provenance of the loaded runs: which release each model was scored on, and how it was run.

The same rows as report.md's provenance section (:func:`chartprobe.eval_tasks.rescoring.provenance.provenance_rows`):
release path or Hub revision, preset, generator version, content hash, lm-eval version, model and
generation arguments. A run loaded from samples takes its releases from ``chartprobe score``'s
results document; a run known only from lm-eval's results file takes them from the
``chartprobe_provenance`` block ``chartprobe eval`` stamps into it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["provenance_table"]


def _entry(run: Any) -> dict[str, Any]:
    from chartprobe.eval_tasks.rescoring.provenance import ReleaseProvenance

    doc = run.results or {}
    model = (doc.get("models") or {}).get(run.name) or {}
    runs = [*(model.get("runs") or []), *(r for r in run.lm_eval_runs if r not in (model.get("runs") or []))]
    releases = dict(doc.get("releases") or {})
    for r in runs:  # lm-eval's stamped releases fill in what the results document lacks
        for suite, rel in (r.get("releases") or {}).items():
            releases.setdefault(suite, rel)
    suites = set(model.get("records") or {}) or set(releases)
    return {"runs": runs, "releases": {s: [ReleaseProvenance.from_json(s, releases.get(s) or {})]
                                       for s in sorted(suites)}}


def provenance_table(preds: Any) -> tuple[list[str], list[list[Any]]]:
    """(header, rows) for every loaded run: one row per model, suite and release."""
    from chartprobe.eval_tasks.rescoring.provenance import PROVENANCE_HEADER, provenance_rows

    return PROVENANCE_HEADER, provenance_rows({name: _entry(run) for name, run in preds.runs.items()})
