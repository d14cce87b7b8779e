"""The Space's parts that need no browser and no release: samples checks, lm-eval results,
the leaderboard, the prediction filters, evidence boxes and the Space card (issue #18, part 4)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spaces"))  # chartspace (spaces/ is no package)
STAMP = "2025-01-01T00-00-00.000000"


def _samples(folder: Path, task: str, docs: list[dict]) -> Path:
    path = folder / f"samples_{task}_{STAMP}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"doc_id": i, "doc": d, "filtered_resps": ["x"]}) + "\n"
                            for i, d in enumerate(docs)))
    return path


def test_cpa_documents_pass_by_their_suite_key_and_foreign_tasks_are_recognised(tmp_path):
    from chartspace.predictions import PredictionsError
    from chartspace.samples import check_samples_file

    # lm-eval logs CPA documents as load_cpa builds them: pair_id + order, no row id.
    cpa = [{"pair_id": "cpa-x-0000", "order": o} for o in ("better_first", "worse_first")]
    check = check_samples_file(_samples(tmp_path, "chartprobe_judge_cpa", cpa))
    assert (check.task, check.samples, check.is_chartprobe) == ("chartprobe_judge_cpa", 2, True)
    with pytest.raises(PredictionsError, match=r"samples_chartprobe_smoke_.*line 1: the doc has no 'id'"):
        check_samples_file(_samples(tmp_path, "chartprobe_smoke", cpa))
    foreign = check_samples_file(_samples(tmp_path, "arc_easy", [{"question": "q"}]))
    assert (foreign.task, foreign.samples, foreign.is_chartprobe) == ("arc_easy", None, False)


def test_only_foreign_samples_are_refused_with_the_tasks_named(tmp_path):
    from chartspace.predictions import PredictionsError, load_uploads

    path = _samples(tmp_path, "arc_easy", [{"question": "q"}])
    with pytest.raises(PredictionsError, match=r"no chartprobe task in these files \(tasks found: arc_easy\)"):
        load_uploads([path], "m", tmp_path / "work")


def _lm_eval_doc() -> dict:
    return {"versions": {"chartprobe_smoke": 1}, "lm_eval_version": "0.4.13", "results": {
        "chartprobe_smoke": {"alias": "chartprobe_smoke", "sample_len": 2, "accuracy,none": 0.5,
                             "accuracy_stderr,none": 0.1, "parse_fail_rate,none": math.nan,
                             "parse_fail_rate_stderr,none": "N/A"}}}


def test_lm_eval_results_give_values_and_stderrs(tmp_path):
    from chartspace.lmeval import is_lm_eval_results, metrics_of
    from chartspace.predictions import load_uploads

    doc = _lm_eval_doc()
    assert is_lm_eval_results(doc) and not is_lm_eval_results({"format": "chartprobe-results/1", "models": {}})
    assert metrics_of(doc) == {"chartprobe_smoke": {"accuracy": (0.5, 0.1), "parse_fail_rate": (None, None)}}
    path = tmp_path / f"results_{STAMP}.json"
    path.write_text(json.dumps(doc))  # json writes NaN, as lm-eval does
    (run,) = load_uploads([path], "tiny", tmp_path / "work")  # lm-eval's table alone: a leaderboard row
    assert (run.name, run.results, run.marks) == ("tiny", None, {})
    assert run.lm_eval["chartprobe_smoke"]["accuracy"] == (0.5, 0.1)


def test_leaderboard_shows_each_runs_provenance(tmp_path):
    """The Space names the release and the run behind every number (issue #18, part 2)."""
    from chartspace.predictions import PredictionSet, load_uploads
    from chartspace.views.leaderboard import board_html

    doc = {**_lm_eval_doc(), "config": {"model": "hf-multimodal", "model_args": "pretrained=/tmp/tiny",
                                        "gen_kwargs": {"max_gen_toks": 8}},
           "chartprobe_provenance": {"releases": {"smoke": {
               "path": "/data/hub/chartprobe-smoke", "preset": "small", "generator_version": "1.2.0",
               "content_hash": "0123456789abcdef" * 4}}}}
    path = tmp_path / f"results_{STAMP}.json"
    path.write_text(json.dumps(doc))
    (run,) = load_uploads([path], "tiny", tmp_path / "work")
    _, _, html, _ = board_html(PredictionSet({"tiny": run}), None, None)
    for shown in ("Provenance", "/data/hub/chartprobe-smoke", "small", "1.2.0", "0123456789ab", "0.4.13",
                  "pretrained=/tmp/tiny", "max_gen_toks"):
        assert shown in str(html), shown


def _preds():
    from chartspace.predictions import ModelRun, PredictionSet

    a = ModelRun("a", None, {"probes": {"r1": (1.0, "x"), "r2": (0.0, "y"), "r4": (0.5, "p")}},
                 lm_eval={"t1": {"accuracy": (0.5, 0.1), "f1": (None, None)}, "t2": {"accuracy": (1.0, None)}})
    b = ModelRun("b", None, {"probes": {"r1": (0.0, "z"), "r2": (0.0, "w"), "r4": (0.5, "q")}},
                 lm_eval={"t1": {"accuracy": (0.25, None)}})
    return PredictionSet().with_run(a), PredictionSet().with_run(a).with_run(b)


def test_filters_only_wrong_and_models_disagree():
    from chartspace.verdicts import DISAGREE, ONLY_WRONG, item_passes, unit_passes, verdict_choices

    one, two = _preds()
    assert verdict_choices(one, "(all)") == ["(all)", ONLY_WRONG]  # disagreement needs two models
    assert verdict_choices(two, "(all)") == ["(all)", ONLY_WRONG, DISAGREE]
    wrong = {r for r in ("r1", "r2", "r3", "r4") if item_passes(two, "probes", r, ONLY_WRONG)}
    disagree = {r for r in ("r1", "r2", "r3", "r4") if item_passes(two, "probes", r, DISAGREE)}
    assert wrong == {"r1", "r2", "r4"}  # r3: no model has a prediction; r4: partial credit is not right
    assert disagree == {"r1"}  # r2: both wrong; r4: the same partial score
    assert not item_passes(one, "probes", "r1", DISAGREE)
    assert unit_passes(two, "probes", ["r3", "r1"], DISAGREE) and not unit_passes(two, "probes", ["r2"], DISAGREE)
    assert all(item_passes(two, "probes", r, "(all)") for r in ("r1", "r3"))


def test_leaderboard_is_model_by_task_with_stderrs():
    from chartspace.leaderboard import ALL_METRICS, HEADLINE, LM_EVAL, board, cell

    _, two = _preds()
    headline = board(two)  # the default: each task's first metric
    assert headline.metric == HEADLINE and [(t, m) for t, m, _ in headline.rows] == [("t1", "accuracy"),
                                                                                   ("t2", "accuracy")]
    b = board(two, metric=ALL_METRICS)
    assert (b.source, b.models, b.tasks) == (LM_EVAL, ["a", "b"], ["t1", "t2"])
    cells = {(t, m): [cell(v) for v in vs] for t, m, vs in b.rows}
    assert cells == {("t1", "accuracy"): ["0.500 ± 0.100", "0.250"], ("t1", "f1"): ["n/a", "–"],
                     ("t2", "accuracy"): ["1.000", "–"]}
    only = board(two, metric="accuracy")
    assert [m for _, m, _ in only.rows] == ["accuracy", "accuracy"] and only.metric == "accuracy"


def test_evidence_boxes_from_legend_columns_and_judge_evidence():
    import numpy as np
    from chartprobe.dataset_builders.core.render import sample_spec
    from chartspace.evidence import evidence_facts, judge_boxes, legend_boxes
    from chartspace.images import EVIDENCE

    boxes = {"legend/box": [0.1, 0.1, 0.5, 0.2], "legend/entry/1": [0.3, 0.1, 0.5, 0.2]}
    assert legend_boxes('["legend/entry/1"]', json.dumps(boxes)) == (((0.3, 0.1, 0.5, 0.2), "entry 1", EVIDENCE),)
    assert legend_boxes("[]", json.dumps(boxes)) == () and legend_boxes(None, None) == ()
    spec = sample_spec("bar", np.random.default_rng(0))
    evidence = json.dumps({"criterion": "component_positioning", "legend_box": [0.8, 0.06, 0.97, 0.16],
                           "covered_marks": ["mark/0/0"], "strategy": "legend_over_data"})
    drawn = judge_boxes(evidence, spec.to_json())
    assert [label for _, label, _ in drawn] == ["legend", "mark/0/0"]  # a stored box, a re-rendered element
    assert all(0.0 <= v <= 1.0 for box, _, _ in drawn for v in box)
    assert [label for _, label, _ in judge_boxes(evidence)] == ["legend"]  # no spec: stored boxes only
    facts = dict(evidence_facts(evidence))
    assert facts == {"covered_marks": "mark/0/0", "criterion": "component_positioning",
                     "strategy": "legend_over_data"}


def test_space_card_lists_every_dataset_the_space_reads():
    import yaml
    from chartprobe.eval_tasks.rescoring.data import HUB_REPOS

    text = (ROOT / "spaces" / "README.md").read_text()
    header = yaml.safe_load(text.split("---")[1])
    assert set(header["datasets"]) == {repo for repo, _ in HUB_REPOS.values()}


def test_a_tampered_release_is_refused_with_a_visible_error(tmp_path, monkeypatch):
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.hub import build_release
    from chartspace.source import DataSource, ReleaseUnavailable

    build_release("smoke", tmp_path, "small")
    monkeypatch.setenv("CHARTPROBE_DATA", str(tmp_path))
    monkeypatch.setenv("CHARTPROBE_INTEGRITY_CACHE", str(tmp_path / "integrity"))
    assert DataSource().configs("smoke")  # the genuine release opens
    shard = min((tmp_path / "chartprobe-smoke").rglob("*.parquet"))
    data = pq.read_table(shard)
    column = data.column_names.index("answer")
    answers = data.column("answer").to_pylist()
    pq.write_table(data.set_column(column, "answer", [[f"{a}-rewritten" for a in answers]]), shard)
    with pytest.raises(ReleaseUnavailable, match="refused: .*hash to [0-9a-f]{64}, the card says [0-9a-f]{64}"):
        DataSource().configs("smoke")  # answers rewritten, hash stale: never shown as gold


def test_the_probes_view_pages_each_drawing_and_says_where_real_data_came_from(release_root, monkeypatch):
    """A style-shift chart is one page per drawing (not every style's questions under one image);
    a real-table chart names its file, digest and aggregation above its probes."""
    from chartspace.predictions import PredictionSet
    from chartspace.source import DataSource
    from chartspace.views.probes import chart_page

    monkeypatch.setenv("CHARTPROBE_DATA", str(release_root))
    monkeypatch.setenv("CHARTPROBE_INTEGRITY_CACHE", str(release_root.parent / "integrity-space"))
    source, preds = DataSource(), PredictionSet()
    pages = [chart_page(source, preds, "style_shift_hbar", "test", "All", "All", i)["chart_id"].split(" · ")
             for i in range(1, chart_page(source, preds, "style_shift_hbar", "test", "All", "All", 1)["n"] + 1)]
    assert pages[0][1] == "matplotlib/default" and {len(p) for p in pages} == {2}
    charts, styles = {c for c, _ in pages}, {s for _, s in pages}
    assert len(styles) == 6 and len(pages) == len(charts) * len(styles)  # every chart in every style, once
    real = chart_page(source, preds, "real_bar", "test", "All", "All", 1)
    assert "Data: <code>" in real["table"] and "vega_datasets 0.9.0, sha256 <code>" in real["table"]
    assert "Data:" not in chart_page(source, preds, "bar", "test", "All", "All", 1)["table"]
