"""``chartprobe report``: capability profiles, comparison tables and plots from results files.

Records of every results file are merged per (model, suite), each suite summarizes them
with its benchmark's metrics module (one linear pass per metric), and the report folder
gets ``report.json``, ``report.md`` and the suites' PNG plots, plus the validity tables of
``chartprobe validate`` when given. One overview plot (headline numbers per model) is
always drawn, so every report has at least one figure per suite plus the overview.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chartprobe.dataset_builders.core.atomic import atomic_write_files

from ..rescoring.results import merge_results, read_results_files
from ..suites import suite_for_release
from ..suites._base import Check
from ..suites._plots import plot_formats
from ..suites._splits import HEADLINE_SPLIT, by_split
from ..validity.validate import ValidityReport, render_markdown
from .headline import paper_columns
from .markdown import markdown_table
from .per_model import model_parts, unique_rows

__all__ = ["build_report", "markdown_table"]


def _plots(profiles: Mapping[str, Mapping[str, Any]], out: Path) -> list[Path]:
    """Every suite's figures and the overview; each model's row label carries its n (headline-split rows)."""
    from ..suites import _plots as rp

    def label(model: str, suite: str) -> str:
        n = profiles[model][suite].get("n")
        return model if n is None else f"{model} (n={n})"

    from tqdm.auto import tqdm

    suites = sorted({s for per in profiles.values() for s in per})
    paths = []
    # stderr bar per suite's figures (tqdm hides it when stderr is not a terminal)
    for name in tqdm(suites, desc="report: figures", unit="suite", disable=None, leave=False):
        per_model = {label(m, name): p[name]["summary"] for m, p in profiles.items() if name in p}
        paths += suite_for_release(name).plots(per_model, out)
    # Model x capability, one panel per suite (a strip of every suite's bars grew without bound).
    headlines = {s: {label(m, s): per[s]["headline"] for m, per in profiles.items() if s in per} for s in suites}
    paths += rp.overview(headlines, out / "overview.png")
    return paths


def _validity_markdown(validity: list[dict]) -> list[str]:
    parts: list[str] = []
    for v in validity:
        rep = ValidityReport(v["release"], v["dataset"], [Check(**c) for c in v["checks"]])
        parts += [f"## Validity: {v['release']}", "", render_markdown(rep), ""]
    return parts


def _markdown(profiles: Mapping[str, Any], plots: list[Path]) -> str:
    parts = ["# chartprobe report", ""]
    suites = sorted({s for per in profiles.values() for s in per})
    for name in suites:
        # the paper's column order (each suite's headline() follows its paper's headline table)
        cols = paper_columns(name, list(dict.fromkeys(k for per in profiles.values() if name in per
                                                      for k in per[name]["headline"])))
        rows = [[m] + [per[name]["headline"].get(c) for c in cols]
                + [per[name].get("split"), per[name].get("coverage", {}).get(per[name].get("split")),
                   _scorer_label(per[name].get("scorer"))]
                for m, per in profiles.items() if name in per]  # every number names its split and coverage
        header = ["model", *cols, "split", "coverage", "scorer"]
        parts += [f"## Comparison: {name}", "", markdown_table(header, rows), ""]
    for model, per in profiles.items():
        parts += [f"## Capability profile: {model}", ""]
        for name, prof in per.items():
            metrics = sorted({k for t in prof["tasks"].values() for k in t})
            label = {t: f"{t} (partial)" for t in prof.get("partial", ())}  # scored over the rows it covers
            rows = [[label.get(t, t)] + [m.get(k) for k in metrics] for t, m in prof["tasks"].items()]
            parts += [f"### {name}", "", markdown_table(["task", *metrics], rows), ""]
    from .sections import (
        sections,  # families, group averages, figures (PNG + PDF/SVG links)
    )
    parts += sections(profiles, plots)
    return "\n".join(parts)


def _test_records(merged: Mapping[str, Mapping[str, list]]) -> dict[str, dict[str, list]]:
    """model -> suite -> its headline-split rows, one per dataset row (what the diagnosis reads)."""
    return {m: {s: by_split(unique_rows(rs)).get(HEADLINE_SPLIT, []) for s, rs in per.items()}
            for m, per in merged.items()}


def _scorer_label(scorer: Any) -> str:
    """The comparison table's ``scorer`` cell: one scorer, or every scorer of a mixed model."""
    from ..rescoring.scorers import describe

    return "; ".join(map(describe, scorer)) if isinstance(scorer, list) else describe(scorer)


def _attach_scorers(profiles: dict[str, dict[str, Any]], prov: Mapping[str, Mapping[str, Any]],
                    comparison: dict[str, Any] | None) -> None:
    """Each profile's ``scorer`` (a list when merged files disagree) and each compared suite's scorers."""
    from ..rescoring.scorers import describe, scorer_identity

    for model, per in profiles.items():
        for name, prof in per.items():
            found = prov[model]["scorers"].get(name) or ["typed"]
            prof["scorer"] = found[0] if len(found) == 1 else found
    for name, entry in (comparison or {}).get("suites", {}).items():
        by_model = {m: prov[m]["scorers"].get(name) or ["typed"] for m in (comparison["a"], comparison["b"])}
        entry["scorers"] = {m: "; ".join(map(describe, sc)) for m, sc in by_model.items()}
        entry["mixed_scorers"] = len({scorer_identity(s) for sc in by_model.values() for s in sc}) > 1


def _provenance_json(prov: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """report.json's provenance: model -> releases per suite (as JSON), lm-eval runs, scoring versions."""
    return {m: {**{k: v for k, v in p.items() if k != "lm_eval_tasks"},  # report.json has its own key for them
                "releases": {s: [r.to_json() for r in rs] for s, rs in p["releases"].items()}}
            for m, p in sorted(prov.items())}


def build_report(results: Iterable[str | Path], out: str | Path, validity: Iterable[str | Path] = (), *,
                 compare: tuple[str, str] | None = None, allow_mixed_releases: bool = False,
                 allow_mixed_scorers: bool = False, studies: Iterable[str | Path] = (),
                 formats: Sequence[str] = ("png",), paper_tables: bool = False,
                 model_groups: Mapping[str, list[str]] | None = None, num_proc: int = 1) -> dict[str, Any]:
    """Write report.json, report.md and the plots into ``out``; return the report document.

    Plots are drawn in a scratch folder and every file is replaced in one atomic step, so a
    full disk or an interrupt leaves a previous report in ``out`` exactly as it was. Every
    report carries each model's provenance (releases, lm-eval runs); models of one suite scored on
    releases with different content hashes are refused (a PredictionsError, nothing written)
    unless ``allow_mixed_releases``, and the report then says which suites mix releases.
    ``compare=(A, B)`` adds the paired comparison B − A (:mod:`chartprobe.eval_tasks.report.compare`).
    ``studies`` (``study.json`` files of ``chartprobe train --seeds``) add their fine-tuning tables
    (:mod:`.report_study`).
    Models of one suite scored by different scorers (typed vs an LLM judge, two judges) are refused
    the same way unless ``allow_mixed_scorers``; every profile and comparison table names its scorer.
    Figures are PNG; ``formats`` (e.g. ``("png", "pdf", "svg")``) adds vector copies.
    ``paper_tables`` adds each paper's own tables (:mod:`.paper_tables`; ``model_groups``: group name ->
    models, as ``--model-groups`` reads it) as ``paper_tables.md`` and ``paper_tables/*.md|tex``.
    ``num_proc`` > 1 makes each model's profile and diagnosis in worker processes, each reading its own
    model's records (:mod:`.per_model`); the report is the same for any ``num_proc``.
    """
    from ..rescoring.lm_eval_tables import lm_eval_section
    from ..rescoring.provenance import check_same_releases, provenance_markdown
    from ..rescoring.scorers import check_same_scorers, scorer_markdown
    from .compare import compare_markdown, compare_models

    out = Path(out)
    results = list(results)
    docs = read_results_files(results)
    # Every model's records in this process only where the comparison or the paper tables read them,
    # or where one process makes every model's part; otherwise each is made where it is used.
    here = num_proc <= 1 or compare is not None or paper_tables
    merged, prov = merge_results(docs, models=None if here else ())
    mixed = check_same_releases({m: p["releases"] for m, p in prov.items()}, allow_mixed_releases)
    mixed_scorers = check_same_scorers({m: p["scorers"] for m, p in prov.items()}, allow_mixed_scorers)
    comparison = compare_models(merged, *compare) if compare else None
    parts = model_parts(results, docs, merged if here else None, prov, num_proc)
    del docs
    profiles = {model: part.profile for model, part in parts.items()}
    tests = _test_records(merged) if paper_tables else {}
    _attach_scorers(profiles, prov, comparison)
    from .study import format_study, read_study

    study_docs = [read_study(p) for p in studies]
    val_docs: list[dict] = []
    for path in validity:
        doc = json.loads(Path(path).read_text())
        val_docs += doc if isinstance(doc, list) else [doc]
    with tempfile.TemporaryDirectory(prefix="chartprobe-report-") as scratch:
        with plot_formats(formats):
            plots = _plots(profiles, Path(scratch)) if profiles else []
        report = {"models": profiles, "validity": val_docs, "plots": [p.name for p in plots],
                  "provenance": _provenance_json(prov), "mixed_releases": mixed, "mixed_scorers": mixed_scorers,
                  "lm_eval_tasks": {m: p["lm_eval_tasks"] for m, p in prov.items() if p["lm_eval_tasks"]}}
        if comparison is not None:
            report["compare"] = comparison
        if study_docs:
            report["studies"] = study_docs
        files: dict[Path, bytes | str] = {out / p.relative_to(scratch): p.read_bytes() for p in plots}
        if paper_tables:
            from .paper_tables import paper_table_files
            from .paper_tables import paper_tables as fill_tables

            tables = fill_tables(tests, model_groups, study_docs)
            report["paper_tables"] = [t.to_json() for t in tables]
            files.update(paper_table_files(tables, out))
        files[out / "report.json"] = json.dumps(report, indent=1, default=str)
        # provenance and the paired comparison go right under the title, before the tables they qualify
        extra = provenance_markdown(prov, mixed, markdown_table) + scorer_markdown(prov, mixed_scorers, markdown_table)
        extra += compare_markdown(comparison, markdown_table) if comparison is not None else []
        extra += lm_eval_section({m: p["lm_eval_tasks"] for m, p in prov.items()}, markdown_table)
        title, _, body = _markdown(profiles, plots).partition("\n\n")
        body += "".join("\n\n" + format_study(doc, level=2) for doc in study_docs)
        # The diagnosis leads; provenance, scorers and validity qualify it and follow at the end.
        lead = [line for part in parts.values() for line in part.lead]
        tail = ["## Provenance and validity", "", "\n".join(extra), *_validity_markdown(val_docs)]
        files[out / "report.md"] = "\n\n".join([title, "\n".join(lead), body, "\n".join(tail)])
        atomic_write_files(files)
    return report
