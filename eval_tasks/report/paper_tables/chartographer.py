"""Chartographer's tables (Tables 1, 2, 3, 8, 9, 15) from ``chartprobe-families`` results.

Datasets are the families' ``group``: for the paper's released families the source benchmark
(ChartQA, CharXiv, ChartMuseum, in the paper's column order), for our synthetic families the
source template group. Definitions are §3.4 and A.8's, through :mod:`...metrics.families`:

- Table 1: OA, RA, VA and RVC per model and dataset, RVC starred by the two-sided paired
  sign-flip test over families (* p<.05, ** p<.01, *** p<.001); group rows are arithmetic means
  of the models' values.
- Table 2: OA, full-resolution RA and RA with each side resized to 75% and 50% (the
  ``resolution`` config), on ChartMuseum when present, else over every family; a "Mean" row.
- Table 3: CU, NU and SP after original-chart success, per dataset, averaged within each group.
- Table 8: OA-RA agreement, CVA-O, CVA-R, RVC-O and RVC-R per dataset, averaged over models.
- Table 9: original x reconstruction correctness counts per dataset, pooled over models.
- Table 15: CVA by ChartMuseum reasoning type per model, when the rows carry reasoning types.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from ...metrics import families as fm
from .registry import PaperContext, Records, grouped_rows, mean_cell, paper_table
from .table import Cell, Row, Table, spans_of

SUITE = ("families_paper", "families")
"""The released protocol's suite first (``chartprobe_families_paper`` rescored by ``score``), then ours."""
PAPER_ORDER = ("chartqa", "charxiv", "chartmuseum")
NAMES = {"chartqa": "ChartQA", "charxiv": "CharXiv", "chartmuseum": "ChartMuseum"}
REASONING = (("text", "Text"), ("visual_text", "Visual/text"), ("synthesis", "Synthesis"), ("visual", "Visual"))


def _protocol(fn):
    """Append which protocol's records the table read to its title (the released one when scored)."""
    import functools

    @functools.wraps(fn)
    def wrapped(ctx: PaperContext) -> Table | None:
        table = fn(ctx)
        used = ctx.used(SUITE)
        if table is not None and used:
            table.title += (" (the released protocol: `chartprobe_families_paper`)" if used == {"families_paper"}
                            else " (chartprobe's prompts)" if used == {"families"} else " (mixed protocols)")
        return table
    return wrapped


def _members(records: Records, bench: str | None) -> Records:
    """A dataset's family members (the resolution ablation's rescaled copies are not members)."""
    return [r for r in records if not r.get("resolution") and (bench is None or r.get("group") == bench)]


def _benches(ctx: PaperContext) -> list[str]:
    found = {str(r["group"]) for _, rs in ctx.models(SUITE) for r in rs if r.get("group") and not r.get("resolution")}
    return [b for b in PAPER_ORDER if b in found] + sorted(found - set(PAPER_ORDER))


def _name(bench: str) -> str:
    return NAMES.get(bench, bench)


def _count(records: Records, role: str) -> int:
    return sum(1 for r in records if r["role"] == role)


def _families(records: Records) -> int:
    return len({r["family_id"] for r in records})


@paper_table("chartographer", "1")
@_protocol
def table_1(ctx: PaperContext) -> Table | None:
    benches = _benches(ctx)
    if not benches:
        return None

    def cells(model: str, records: Records) -> list[Cell]:
        out = []
        for b in benches:
            rs = _members(records, b)
            oa, ra, va = (fm.accuracy(rs, role) for role in fm.ROLES)
            p = fm.sign_flip_test(rs) if rs else None
            out += [Cell(oa, _count(rs, "original")), Cell(ra, _count(rs, "reconstruction")),
                    Cell(va, _count(rs, "variant")),
                    Cell(fm.relative_change(va, oa), _families(rs) or None, "signed1", fm.stars(p))]
        return out

    return Table("chartographer-1", "Chartographer Table 1: main accuracy metrics for each model and dataset",
                 ("Model", *(["OA", "RA", "VA", "RVC"] * len(benches))), grouped_rows(ctx, SUITE, cells),
                 spans_of([_name(b) for b in benches], 4),
                 "n: original, reconstruction and variant rows (OA, RA, VA), families (RVC, starred by the "
                 "two-sided paired sign-flip test over families: * p<.05, ** p<.01, *** p<.001); average rows: the "
                 "arithmetic mean over the group's models, n = models.")


def _has_resolution(records: Records) -> bool:
    return any(r.get("resolution") for r in records)


@paper_table("chartographer", "2")
@_protocol
def table_2(ctx: PaperContext) -> Table | None:
    models = ctx.models(SUITE, _has_resolution)
    if not models:
        return None
    bench = "chartmuseum" if any(r.get("group") == "chartmuseum" for _, rs in models for r in rs) else None
    rows = []
    for model, records in models:
        own = [r for r in records if bench is None or r.get("group") == bench]
        members = _members(own, None)
        scaled = {s: [float(r["correct"]) for r in own if r.get("resolution") and abs(float(r["scale"]) - s) < 1e-6]
                  for s in (0.75, 0.5)}
        rows.append(Row(model, (Cell(fm.accuracy(members, "original"), _count(members, "original")),
                                Cell(fm.accuracy(members, "reconstruction"), _count(members, "reconstruction")),
                                *(Cell(fmean(v) if v else None, len(v)) for v in scaled.values()))))
    columns = list(zip(*(r.cells for r in rows), strict=True))
    rows.append(Row("Mean", tuple(mean_cell(list(c)) for c in columns), kind="average"))
    where = "ChartMuseum" if bench else "every family (no ChartMuseum rows)"
    return Table("chartographer-2", f"Chartographer Table 2: {where} reconstruction accuracy at full resolution "
                 "and after resizing each image dimension to 75% and 50%",
                 ("Model", "OA", "Full RA", "RA (75%)", "RA (50%)"), rows, (),
                 "n: rows; Mean: the arithmetic mean over models, n = models.")


def _group_short(group: str) -> str:
    return group.removesuffix(" models")


def _per_model(bench: str, models: Sequence[tuple[str, Records]], metric) -> list[Cell]:
    return [Cell(metric(_members(rs, bench))) for _, rs in models]


@paper_table("chartographer", "3")
@_protocol
def table_3(ctx: PaperContext) -> Table | None:
    benches, groups = _benches(ctx), ctx.grouped(SUITE)
    if not benches:
        return None
    rows = []
    for b in benches:
        cells = []
        for _, models in groups:
            outcomes = [fm.update_outcomes(_members(rs, b)) for _, rs in models]
            cells += [mean_cell([Cell(o[k]) for o in outcomes]) for k in ("CU", "NU", "SP")]
        rows.append(Row(_name(b), tuple(cells)))
    return Table("chartographer-3", "Chartographer Table 3: update outcomes on counterfactual charts after success "
                 "on the original, averaged within each model group",
                 ("Dataset", *(["CU", "NU", "SP"] * len(groups))), rows,
                 spans_of([_group_short(g) for g, _ in groups], 3),
                 "Each cell: the arithmetic mean over the group's models of the model's rate among the variants of "
                 "the families it answered correctly on the original; n = models.")


def _agreement(records: Records) -> float | None:
    return fm.agreement(fm.o_r_table(records))


def _rvc(control: str):
    def value(records: Records) -> float | None:
        return fm.relative_change(fm.accuracy(records, "variant"), fm.accuracy(records, control))
    return value


@paper_table("chartographer", "8")
@_protocol
def table_8(ctx: PaperContext) -> Table | None:
    benches, models = _benches(ctx), ctx.models(SUITE)
    if not benches:
        return None
    metrics = ((_agreement, "3f"), (fm.conditional_variant_accuracy, "3f"),
               (lambda rs: fm.conditional_variant_accuracy(rs, "reconstruction"), "3f"),
               (_rvc("original"), "signed_pct"), (_rvc("reconstruction"), "signed_pct"))
    rows = [Row(_name(b), tuple(mean_cell(_per_model(b, models, m), fmt) for m, fmt in metrics))
            for b in benches]
    return Table("chartographer-8", "Chartographer Table 8: metrics using the original and reconstruction controls, "
                 "averaged over models", ("Dataset", "OA–RA agree.", "CVA-O", "CVA-R", "RVC-O", "RVC-R"), rows, (),
                 "Each cell: the arithmetic mean of the per-model values over every model; n = models.")


@paper_table("chartographer", "9")
@_protocol
def table_9(ctx: PaperContext) -> Table | None:
    benches, models = _benches(ctx), ctx.models(SUITE)
    if not benches:
        return None
    keys = ("O-R-", "O-R+", "O+R-", "O+R+")
    rows = []
    for b in benches:
        tables = [fm.o_r_table(_members(rs, b)) for _, rs in models]
        rows.append(Row(_name(b), tuple(Cell(sum(t[k] for t in tables), len(tables), "count") for k in keys)))
    return Table("chartographer-9", "Chartographer Table 9: original-reconstruction correctness counts pooled over "
                 "models", ("Dataset", "O−R−", "O−R+", "O+R−", "O+R+"), rows, (),
                 "Families counted once per model, summed over models; n = models.")


def _typed(records: Records) -> bool:
    return any(r.get("reasoning_type") in dict(REASONING) for r in records)


@paper_table("chartographer", "15")
@_protocol
def table_15(ctx: PaperContext) -> Table | None:
    if not ctx.models(SUITE, _typed):
        return None
    has_museum = any(r.get("group") == "chartmuseum" for _, rs in ctx.models(SUITE, _typed) for r in rs)
    bench = "chartmuseum" if has_museum else None

    def cells(model: str, records: Records) -> list[Cell]:
        rs = _members(records, bench)
        out: list[Cell] = []
        for key, _ in REASONING:
            typed = [r for r in rs if r.get("reasoning_type") == key]
            out.append(Cell(fm.conditional_variant_accuracy(typed), _families(typed) or None))
        return out

    where = "ChartMuseum" if bench else "every dataset"
    return Table("chartographer-15", f"Chartographer Table 15: {where} CVA by reasoning type and model",
                 ("Model", *(label for _, label in REASONING)), grouped_rows(ctx, SUITE, cells, _typed, averages=False),
                 (), "n: families of that reasoning type; CVA is conditioned on original-chart success.")
