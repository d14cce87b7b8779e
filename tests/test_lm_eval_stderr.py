"""lm-eval's stderr column for our aggregations (eval_tasks/harness/lm_eval_stderr.py): the wrapper, and a tiny-VLM run."""

from __future__ import annotations

import glob
import importlib.util
import json
import math
from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness import lm_eval_stderr as les
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.metrics import bootstrap as bs
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.metrics import judge as jm
from chartprobe.eval_tasks.suites._task_index import TASKS_DIR, _load
from lm_eval_run import run_lm_eval

# one task per benchmark kind: families (+ the resolution ablation), legend, judge CPA and CRJ, probes (CR)
TASKS = ["chartprobe_families_bars", "chartprobe_families_resolution", "chartprobe_legend", "chartprobe_judge_cpa",
         "chartprobe_judge_crj_repro", "chartprobe_cr_bar"]


def _utils(name: str):
    """A utils module loaded the way lm-eval's ``!function`` loads it (a fresh module per load)."""
    spec = importlib.util.spec_from_file_location(name, Path(tasks_path()) / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _family_items(families: int = 12) -> list[tuple]:
    out = []
    for f in range(families):
        for role, n in (("original", 1), ("reconstruction", 1), ("variant", 4)):
            for v in range(n):
                out.append(fm.to_item({"family_id": f"f{f}", "role": role, "correct": (f + v) % 3 == 0,
                                       "normalized": str(v), "source": f"t{f % 4}"}))
    return out


def test_install_wraps_once_and_leaves_every_builtin_metric_alone():
    from lm_eval import evaluator_utils
    from lm_eval.api import metrics

    _utils("families_utils")
    _utils("families_utils")  # every `!function` re-executes the module: still one wrapper
    assert les.install() and les.install()
    for module in (evaluator_utils, metrics):
        wrapper = module.stderr_for_metric
        original = wrapper.__wrapped__
        assert getattr(wrapper, les._WRAPPER_ATTR) and not getattr(original, les._WRAPPER_ATTR, False)
        assert wrapper(metrics.mean, 1000) is original(metrics.mean, 1000) is metrics.mean_stderr
        assert wrapper(metrics.acc_all, 10) is metrics.acc_all_stderr
        assert wrapper(metrics.median, 0) is None and callable(wrapper(metrics.median, 100))
        assert wrapper(lambda items: 0.0, 1000) is None  # an unmarked custom aggregation: N/A, as before


def test_a_marked_aggregation_gets_the_cluster_bootstrap_capped_at_the_shared_count():
    from lm_eval import evaluator_utils

    fu = _utils("families_utils")
    items = _family_items()
    assert evaluator_utils.stderr_for_metric(fu.original_accuracy, 0) is None  # --bootstrap_iters 0: no stderr
    records = fm.from_items(items)

    def expected(iters: int) -> float:
        return bs.interval(lambda recs: fm.accuracy(recs, "original"), records, lambda r: r["family_id"],
                           iters=iters, relabel=bs.relabel_fields("family_id")).stderr

    # lm-eval's default --bootstrap_iters (100,000) is capped at bs.RESAMPLES; a smaller one is used as is
    assert evaluator_utils.stderr_for_metric(fu.original_accuracy, 100_000)(items) == pytest.approx(expected(bs.RESAMPLES))
    assert evaluator_utils.stderr_for_metric(fu.original_accuracy, 50)(list(items)) == pytest.approx(expected(50))
    assert expected(bs.RESAMPLES) > 0
    p_se = evaluator_utils.stderr_for_metric(fu.relative_variant_change_p, 100_000)(items)
    assert 0 < p_se < 1 and math.isfinite(fu.relative_variant_change_p(items))


def test_the_metrics_of_a_task_share_one_summary_per_draw(monkeypatch):
    from lm_eval import evaluator_utils

    ju = _utils("judge_utils")
    calls = []
    real = jm.cpa_summary
    monkeypatch.setattr(jm, "cpa_summary", lambda records, k=1: calls.append(1) or real(records, k))
    records = [{"pair_id": f"p{i // 2}", "order": ("better_first", "worse_first")[i % 2], "criterion": "axis_scaling",
                "dimension": "data_fidelity", "chart_kind": "bar", "choices": [("A", "B", "A", "A", "B", "A", None, "B")[i % 8]]}
               for i in range(16)]  # pairs: correct, bias A, consistent wrong, parse failure
    ses = [evaluator_utils.stderr_for_metric(getattr(ju, m), 200)(list(records))  # a list per metric, as lm-eval
           for m in ("two_pass_accuracy", "bias_a_rate", "consistent_wrong_rate")]
    assert len(calls) == 200 and all(se > 0 for se in ses)


def test_lm_eval_prints_a_stderr_for_every_aggregate_with_the_tiny_vlm(tiny_vlm, release_root, tmp_path):
    run, results = run_lm_eval(tiny_vlm, release_root, tmp_path, ",".join(TASKS), limit=8, max_images=2,
                               max_gen_toks=8, log_samples=True)
    assert set(TASKS) <= set(results)
    for task in TASKS:
        metrics = {k.split(",")[0]: v for k, v in results[task].items()
                   if k.endswith(",none") and "_stderr" not in k}
        assert metrics, task
        for name, value in metrics.items():
            se = results[task][f"{name}_stderr,none"]
            assert isinstance(se, float), (task, name, se)  # not lm-eval's "N/A"
            assert math.isfinite(se) or not math.isfinite(value), (task, name, value, se)
    rows = [line for line in run.stdout.splitlines() if line.startswith("|")]  # the printed table
    # lm-eval's table names each task by its alias (the papers' terms), e.g. "CPA: chart perception alignment"
    aliases = {t: str(_load(TASKS_DIR / f"{t}.yaml").get("task_alias") or t) for t in TASKS}
    assert set(aliases.values()) <= {line.split("|")[1].strip() for line in rows}
    assert not [line for line in rows if "N/A" in line]
    names = {line.split("|")[5].strip() for line in rows if len(line.split("|")) > 5}  # the Metric column
    assert {"value_extraction", "consistency_responsiveness_hm", "original_accuracy"} <= names, names
    assert not names & {"ve", "cons", "cr", "oa"}, names  # readable names only (eval_tasks/metrics/names.py)

    # the CR task's macro fuzzy is what the bootstrap over the logged per-row items gives, by chart
    cr = _utils("probes_utils")
    (path,) = glob.glob(str(tmp_path / "results" / "**" / "samples_chartprobe_cr_bar_*.jsonl"), recursive=True)
    samples = [json.loads(line) for line in Path(path).read_text().splitlines()]
    items = [tuple(s["fuzzy"]) for s in samples]
    assert [item[3] for item in items] == [s["doc"]["chart_id"] for s in samples]  # the unit rides along
    se = bs.interval(cr.template_macro, items, lambda item: item[3]).stderr
    assert results["chartprobe_cr_bar"]["fuzzy_stderr,none"] == pytest.approx(se) and se > 0

    # lean --log_samples: every metric but the first names the record instead of repeating it
    for task, first, size in (("chartprobe_judge_cpa", "two_pass_accuracy", len(_utils("judge_utils").CPA_METRICS)),
                              ("chartprobe_families_bars", "original_accuracy", len(_utils("families_utils").METRICS)),
                              ("chartprobe_legend", None, None)):
        (path,) = glob.glob(str(tmp_path / "results" / "**" / f"samples_{task}_*.jsonl"), recursive=True)
        for line in map(json.loads, Path(path).read_text().splitlines()):
            names = line["metrics"]
            head = first or names[0]
            assert names[0] == head and (size is None or len(names) == size), (task, names)
            assert all(line[n] == f"<record logged under {head}>" for n in names[1:]), (task, line)
            assert isinstance(line[head], (dict, list)), (task, line[head])


def test_shared_records_aggregate_as_the_plain_records():
    from chartprobe.eval_tasks.scoring.logged_once import LoggedOnce, share, unwrap

    judge = _utils("judge_utils")
    docs = [{"pair_id": f"p{i // 2}", "order": ("better_first", "worse_first")[i % 2], "criterion": "visual_style",
             "dimension": "visual_effects", "chart_kind": "bar"} for i in range(12)]
    answers = ["A", "B", "A", "A", "B", "B", "A", "B", "x", "B", "A", "B"]
    lines = [judge.process_cpa(d, [a]) for d, a in zip(docs, answers)]
    assert all(isinstance(line["one_pass_accuracy"], LoggedOnce) for line in lines)
    plain = [line["two_pass_accuracy"] for line in lines]
    for name in judge.CPA_METRICS:
        fn = getattr(judge, "cpa_parse_fail_rate" if name == "parse_fail_rate" else name)
        got, want = fn([line[name] for line in lines]), fn(plain)
        assert got == want or (math.isnan(got) and math.isnan(want)), name
    assert unwrap(share(plain[0], ["a", "b"]).values()) == [plain[0], plain[0]]
