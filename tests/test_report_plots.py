"""`chartprobe report` figures and sections: readable sizes for any count, PNG + PDF + SVG with
the same bytes for the same input, RVC in % apart from 0-1 accuracies, per-type CVA in report.md."""

from __future__ import annotations

import json
import random

import pytest
from chartprobe.eval_tasks.report.build import build_report
from chartprobe.eval_tasks.rescoring.results import FORMAT, to_columns
from chartprobe.eval_tasks.suites import _plots as rp
from PIL import Image

MODELS = ("model-a", "model-b", "model-c")
MAX_SIDE, MAX_ASPECT = 4000, 4.0
TEMPLATES = {"perception": [f"P-T{i}" for i in range(8)], "grounding": [f"G-T{i}" for i in range(9)],
             "reasoning": [f"R-T{i}" for i in range(9)], "complex": [f"CR-T{i}" for i in range(5)]}


def _families(rng: random.Random) -> list[dict]:
    out = []
    for f in range(12):
        task = ("chartprobe_families_bars", "chartprobe_families_lines")[f % 2]
        base = {"family_id": f"fam-{f}", "reasoning_type": ("visual", "text", "synthesis")[f % 3],
                "source": f"S{f % 4}", "original_answer": "a", "judge": "typed", "parse_failed": False,
                "resolution": False, "task": task}
        orig = rng.random() < 0.7
        out.append({**base, "role": "original", "variant_seed": -1, "correct": orig, "normalized": "a"})
        out.append({**base, "role": "reconstruction", "variant_seed": -1, "correct": rng.random() < 0.7,
                    "normalized": "a"})
        for v in range(4):
            ok = rng.random() < 0.5
            out.append({**base, "role": "variant", "variant_seed": v, "correct": ok,
                        "normalized": "b" if ok else rng.choice("ac")})
    return out


def _legend(rng: random.Random) -> list[dict]:
    out = []
    for g in range(10):
        gid, cap = f"grp-{g}", ("guide_read", "bind", "value_extraction", "reason")[g % 4]
        for expected, family in (("base", "none"), ("preserve", "preserving"), ("alter", "altering"),
                                 ("abstain", "answerability")):
            out.append({"group_id": gid, "base_id": f"chart-{g}", "chain_id": f"ch-{g // 2}" if expected == "base" else "",
                        "chain_role": ("parse", "reason")[g % 2] if expected == "base" else "", "capability": cap,
                        "expected": expected, "intervention_family": family, "study_factor": "", "study_level": "",
                        "correct": rng.random() < 0.6, "abstained": expected == "abstain" and rng.random() < 0.5,
                        "parse_failed": False, "task": "chartprobe_legend"})
    return out


def _judge(rng: random.Random) -> list[dict]:
    out = []
    for p in range(14):
        meta = {"pair_id": f"pair-{p}", "criterion": f"criterion_{p % 7}", "dimension": f"dim_{p % 3}",
                "chart_kind": ("bar", "line")[p % 2], "task": "chartprobe_judge_cpa"}
        for order, gold in (("better_first", "A"), ("worse_first", "B")):
            choice = gold if rng.random() < 0.6 else ("B" if gold == "A" else "A")
            out.append({**meta, "order": order, "choices": [choice], "correct": choice == gold})
    for task, name in (("reproduction", "chartprobe_judge_crj_repro"), ("editing", "chartprobe_judge_crj_edit")):
        for i in range(8):
            label = ("Accept", "Reject")[i % 2]
            verdict = rng.choice(["accept", "reject"])
            out.append({"item_id": f"{task}-{i}", "label": label, "verdicts": [verdict], "crj_task": task,
                        "correct": verdict == label.lower(), "task": name})
    return out


def _probes(rng: random.Random) -> list[dict]:
    out = []
    for domain in ("bar", "pie"):
        for chart in range(2):
            for skill, templates in TEMPLATES.items():
                for t in templates:
                    ok = rng.random() < 0.5
                    rec = {"chart_id": f"{domain}-{chart}", "template_id": t, "skill": skill, "domain": domain,
                           "answer_type": "label", "score": float(ok), "correct": ok, "parse_failed": False,
                           "accuracy": float(ok), "paper_accuracy": float(ok),
                           "task": f"chartprobe_probes_{domain}_{skill}" if skill != "complex" else f"chartprobe_cr_{domain}"}
                    out.append({**rec, "fuzzy": rng.random()} if skill == "complex" else rec)
    return out


def _smoke(rng: random.Random) -> list[dict]:
    return [{"answer_type": "number", "correct": (ok := rng.random() < 0.5), "score": float(ok),
             "parse_failed": False, "task": "chartprobe_smoke"} for _ in range(10)]


def _results(path, seed: int = 0):
    models = {}
    for k, model in enumerate(MODELS):
        rng = random.Random(f"{seed}-{model}")
        suites = {}
        for name, make in (("families", _families), ("legend", _legend), ("judge", _judge), ("probes", _probes),
                           ("smoke", _smoke)):
            recs = make(rng)
            for i, r in enumerate(recs):
                r.update(doc_id=i, row_id=f"{name}-{k}-{i}", id=f"{name}-{i}")
            suites[name] = to_columns(recs)
        models[model] = {"records": suites}
    path.write_text(json.dumps({"format": FORMAT, "models": models}))
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    rep = build_report([_results(folder / "results.json")], folder / "rep", formats=("png", "pdf", "svg"))
    return folder / "rep", rep


def _pngs(folder):
    return sorted(folder.glob("*.png"))


def test_every_figure_is_readable_sized_and_comes_as_png_pdf_and_svg(report):
    folder, rep = report
    pngs = _pngs(folder)
    stems = {p.stem for p in pngs}
    assert {"overview", "families_accuracy", "families_rvc", "families_reasoning_type", "legend_profile",
            "judge_cpa_per_criterion", "probes_per_template"} <= stems
    assert sorted(rep["plots"]) == sorted(f"{s}.{fmt}" for s in stems for fmt in rp.FORMATS)
    for png in pngs:
        w, h = Image.open(png).size
        assert max(w, h) <= MAX_SIDE and max(w / h, h / w) <= MAX_ASPECT, (png.name, w, h)
        assert png.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"
        assert b"<svg" in png.with_suffix(".svg").read_bytes()[:2000]
    md = (folder / "report.md").read_text()
    for s in stems:
        assert f"![{s}]({s}.png)" in md and f"[PDF]({s}.pdf)" in md and f"[SVG]({s}.svg)" in md


def test_png_is_200_dpi_and_vector_files_carry_no_date_or_version(report):
    folder, _ = report
    img = Image.open(folder / "overview.png")
    assert round(img.info["dpi"][0]) == rp.DPI
    pdf, svg = (folder / "overview.pdf").read_bytes(), (folder / "overview.svg").read_bytes()
    assert b"CreationDate" not in pdf and b"Matplotlib" not in pdf
    assert b"<dc:date>" not in svg and b"Matplotlib v" not in svg


def test_same_input_gives_the_same_bytes(report, tmp_path):
    """The overview redrawn from the same profiles: PNG, PDF and SVG byte-identical to the report's
    (fixed metadata, svg.hashsalt, the default style whatever the user's matplotlibrc)."""
    folder, rep = report
    suites = sorted({s for per in rep["models"].values() for s in per})
    headlines = {s: {m: per[s]["headline"] for m, per in rep["models"].items() if s in per} for s in suites}
    headlines = {s: {f"{m} (n={rep['models'][m][s]['n']})": h for m, h in per.items()}
                 for s, per in headlines.items()}
    with rp.plot_formats(["pdf", "svg"]):
        again = rp.overview(headlines, tmp_path / "overview.png")
    assert [p.suffix for p in again] == [".png", ".pdf", ".svg"]
    for path in again:
        assert path.read_bytes() == (folder / path.name).read_bytes(), path.name


def test_families_section_shows_per_type_cva_outcomes_and_rvc_in_percent(report):
    folder, rep = report
    md = (folder / "report.md").read_text()
    section = md[md.index("## Families: relative change"):md.index("## Group averages")]
    header = next(line for line in section.splitlines() if line.startswith("| model | OA"))
    assert "RVC (%)" in header and "CVA (0–1)" in header
    rvc = rep["models"]["model-a"]["families"]["summary"]["RVC"]
    assert f"{rvc:+.1f}%" in section
    assert "| reasoning type | OA (0–1) | VA (0–1) | CVA (0–1) |" in section
    types = rep["models"]["model-a"]["families"]["summary"]["per_reasoning_type"]
    assert set(types) == {"visual", "text", "synthesis"}
    assert "stale prediction SP (0–1)" in section and "noisy update NU (0–1)" in section
    assert "**mean over task groups**" in section and "chartprobe_families_lines" in section
    comparison = md[md.index("## Comparison: families"):].splitlines()[2]
    assert "RVC (%)" in comparison


def test_group_averages_are_the_unweighted_means_of_their_columns(report):
    folder, rep = report
    md = (folder / "report.md").read_text()
    skills = rep["models"]["model-b"]["probes"]["summary"]["per_skill"]
    table = md[md.index("### probes: skills (mean over templates)"):].split("\n\n")[1]
    row = next(line for line in table.splitlines() if line.startswith("| model-b |"))
    assert row.rstrip(" |").endswith(f"{sum(skills.values()) / len(skills):.3f}")
    assert "### legend: stage-wise accuracy" in md and "### judge: CPA two-pass accuracy per dimension" in md


def test_rvc_is_never_on_the_0_1_overview(monkeypatch):
    """A "(%)" metric, or any value outside 0-1, stays off the shared 0-1 colour scale."""
    seen = []
    monkeypatch.setattr(rp, "heatmaps", lambda panels, *a, **k: seen.extend(c for p in panels for c in p.cols) or [])
    rp.overview({"families": {"m": {"OA": 0.5, "RVC (%)": 0.4}}, "x": {"m": {"acc": 0.2, "odd": 12.0}}}, None)
    assert seen == ["OA", "acc"]


@pytest.mark.parametrize(("n_rows", "n_models"), [(1, 1), (120, 8), (4, 40)])
def test_heatmap_size_is_capped_for_any_count(tmp_path, n_rows, n_models):
    data = {f"model-{m}": {f"T-{t:03d}": ((t * 7 + m) % 11) / 10 for t in range(n_rows)} for m in range(n_models)}
    paths = rp.heatmaps(rp.chunk(rp.panel("templates", data, transpose=True)), tmp_path / "h.png", "Per template",
                        "accuracy (0–1)")
    w, h = Image.open(paths[0]).size
    assert max(w, h) <= MAX_SIDE and max(w / h, h / w) <= MAX_ASPECT, (w, h)
    assert [p.suffix for p in paths] == [".png"]  # PNG only unless vector copies are asked for


def test_lower_is_better_rates_are_drawn_reversed_and_marked(tmp_path, monkeypatch):
    """Parse failure 1.0 takes the colour of accuracy 0.0, never the bright colour of accuracy 1.0."""
    from matplotlib.axes import Axes

    shown = []
    real = Axes.imshow
    monkeypatch.setattr(Axes, "imshow", lambda ax, grid, **k: shown.append(grid.filled(-1).tolist()) or real(ax, grid, **k))
    rp.heatmaps([rp.panel("m", {"a": {"acc": 1.0, "parse fail": 1.0}, "b": {"acc": 0.0, "parse fail": 0.0}})],
                tmp_path / "h.png", "t", "rate (0–1)")
    assert shown == [[[1.0, 0.0], [0.0, 1.0]]]
    assert rp.lower_is_better("parse fail") and rp.lower_is_better("follow_legend") and rp.lower_is_better("SP")
    assert not rp.lower_is_better("acc") and not rp.lower_is_better("SPQR acc") and not rp.lower_is_better("OA")


def test_figure_rows_carry_n_and_legend_study_panels_share_their_axes(report, monkeypatch, tmp_path):
    _, rep = report
    assert all("(n=" in r for p in _panels_of(monkeypatch, rep, tmp_path)["overview.png"] for r in p.rows)
    seen = {}
    monkeypatch.setattr(rp, "heatmaps", lambda panels, path, *a, **k: seen.setdefault(path.name, panels) and [])
    from chartprobe.eval_tasks.suites import suite_for_release

    summaries = {f"model-{k} (n=40)": {
        "order_study": {"aligned_acc": 0.9, "conflict_acc": 0.4, "follow_legend": 0.5},
        "visibility_study": {lvl: {"af1": 0.5} for lvl in ("visible", "hidden")},
        "channel_study": {cell: {"grounding": 0.7} for cell in ("bar/colour", "line/dash", "scatter/shape")}}
        for k in range(3)}
    suite_for_release("legend").plots(summaries, tmp_path)
    studies = seen["legend_studies.png"]
    assert len(studies) == 3 and all(p.rows == tuple(summaries) for p in studies)  # models on every panel's rows


def _panels_of(monkeypatch, rep, tmp_path):
    """The panels build_report's figures are drawn from, by file name."""
    from chartprobe.eval_tasks.report import build

    seen = {}
    with monkeypatch.context() as m:
        m.setattr(rp, "heatmaps", lambda panels, path, *a, **k: seen.setdefault(path.name, panels) and [])
        build._plots(rep["models"], tmp_path)
    return seen
