"""VLMEvalKit (issue #21 part 2): `chartprobe export vlmevalkit` TSVs round-trip, `chartprobe score` reads
VLMEvalKit's prediction files (.xlsx, .tsv) exactly as lm-eval samples, and the dataset class file's
`evaluate()` gives the same numbers (VLMEvalKit itself is a stub here: it is not installed)."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import types
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from chartprobe.eval_tasks.rescoring.gold import ReleaseGold
from chartprobe.eval_tasks.rescoring.predictions import (
    PredictionsError,
    iter_samples,
    sample_files,
    write_samples,
)
from chartprobe.eval_tasks.rescoring.rescore import score_samples
from chartprobe.eval_tasks.rescoring.results import from_columns
from chartprobe.eval_tasks.rescoring.vlmevalkit_layout import VLMEVALKIT_COMMIT, decode_images
from chartprobe.eval_tasks.suites import suite_for_task
from chartprobe.eval_tasks.suites._task_index import task_index
from cli_cases import assert_one_error_line
from PIL import Image

from chartprobe.cli import main

EXPORTS = {"probes": "bar", "judge": "cpa", "legend": "snapshot"}
"""Release -> config exported: single-image probes, two-image judge pairs, cross-document legend metrics."""
STAMP = "2026-01-01T00-00-00.000001"


@pytest.fixture(scope="module")
def exported(release_root, tmp_path_factory):
    """The three exports in one folder (probes through the CLI, the others through the library)."""
    from chartprobe.eval_tasks.harness.vlmevalkit.export import export_vlmevalkit

    out = tmp_path_factory.mktemp("vlmevalkit") / "export"
    assert main(["export", "vlmevalkit", str(release_root / "chartprobe-probes"), "--config", "bar",
                 "--out", str(out), "--quiet"]) == 0
    for release, config in list(EXPORTS.items())[1:]:
        export_vlmevalkit(release_root / f"chartprobe-{release}", config, out, progress=False)
    return out


def _tasks() -> dict[str, str]:
    """Exported task -> its release (the export is of the test split)."""
    return {t.task: t.release for t in task_index().values()
            if EXPORTS.get(t.release) == t.config and t.split == "test" and t.rescored
            and not t.task.endswith("_vote")}


def _table(path: Path, **kw) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", **({"dtype": str, "na_filter": False} | kw))


def _predictions(exported: Path, folder: Path, model: str, answer, suffix: str = ".xlsx") -> list[Path]:
    """VLMEvalKit's prediction files: the TSV as `vlmeval.smp.load` reads it (pandas' own dtypes),
    `image` dropped, `prediction` added (`infer_data_job`), dumped as xlsx or tsv (`dump`)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for task in _tasks():
        frame = _table(exported / f"{task}.tsv", dtype=None, na_filter=True).drop(columns=["image"])
        text = _table(exported / f"{task}.tsv")
        frame["prediction"] = [answer(task, row) for row in text.to_dict("records")]
        path = folder / f"{model}_{task}{suffix}"
        if suffix == ".xlsx":
            frame.to_excel(path, index=False)
        else:
            frame.to_csv(path, sep="\t", index=False, quoting=1)
        out.append(path)
    return out


def _same(a, b) -> bool:
    """Equal as JSON (NaN metrics compare equal, as the results file writes them)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _key(task: str, row: dict) -> str:
    """The document key of a TSV row (the pair and order for CPA, else the row id)."""
    return suite_for_task(task).doc_key({k.removeprefix("doc_"): v for k, v in row.items()})


def _wrong(task: str, row: dict) -> str:
    """Every other document answered wrong, picked by document key (not by position)."""
    if sum(map(ord, _key(task, row))) % 2:
        return str(row["answer"])
    return {"A": "B", "B": "A"}.get(str(row["answer"]), "zzz-not-an-answer")


def test_tsv_columns_images_and_prompts_are_the_tasks_own(exported, release_root):
    from chartprobe.eval_tasks.harness.tasks.judge_utils import prompt

    assert sorted(p.stem for p in exported.glob("*.tsv")) == sorted(_tasks())
    for task, release in _tasks().items():
        table = _table(exported / f"{task}.tsv")
        assert list(table.columns[:6]) == ["index", "image", "image_path", "question", "answer", "chartprobe_task"]
        assert list(table["index"]) == [str(i) for i in range(len(table))] and set(table["chartprobe_task"]) == {task}
        assert len(table) == len(ReleaseGold(release_root).documents(task_index()[task]))
        assert not any("<image>" in q for q in table["question"])
        key = "pair_id" if release == "judge" else "id"
        by_key = {r[key]: r for f in sorted((release_root / f"chartprobe-{release}" / EXPORTS[release]).glob("*.parquet"))
                  for r in pq.read_table(f).to_pylist()}
        for row in table.to_dict("records"):
            images = decode_images(row["image"])
            assert all(Image.open(io.BytesIO(png)).verify() is None for png in images)
            if release == "judge":  # two images: A then B, as the model is shown them
                src = by_key[row["pair_id"]]
                pair = [src["image_better"]["bytes"], src["image_worse"]["bytes"]]
                assert images == (pair if row["order"] == "better_first" else pair[::-1])
                assert row["question"] == prompt("judge_cpa") and json.loads(row["image_path"])[1].startswith(
                    f"{row['index']}_1_")
            else:
                assert images == [by_key[row["id"]]["image"]["bytes"]]
                assert row["doc_question"] == by_key[row["id"]]["question"] in row["question"]
    probe = _table(exported / "chartprobe_probes_bar_perception.tsv").iloc[0]
    assert probe["question"] == f"{probe['doc_question']}\nAnswer with the answer only."  # the YAML's doc_to_text
    cls = (exported / "chartprobe_vlmevalkit.py").read_text()
    assert VLMEVALKIT_COMMIT in cls and "RELEASES = {}" not in cls


@pytest.mark.parametrize("suffix", [".xlsx", ".tsv"])
def test_every_answer_fed_back_as_its_prediction_scores_correct(exported, release_root, tmp_path, suffix):
    files = _predictions(exported, tmp_path / "outputs" / "M" / "T20260101_Gabc", "M",
                         lambda task, row: row["answer"], suffix)
    doc = score_samples(files, releases=release_root)
    entry = doc["models"]["M"]
    assert sorted(entry["tasks"]) == sorted(_tasks()) and doc["skipped_tasks"] == {}
    for task, t in entry["tasks"].items():
        assert t["coverage"] == 1.0 and t["n"] == len(_table(exported / f"{task}.tsv"))
        suite = suite_for_task(task)
        records = [r for r in from_columns(entry["records"][suite.name]) if r["task"] == task]
        assert len(records) == t["n"] and all(suite.accuracy(r) == 1.0 for r in records), task


def test_crafted_predictions_score_exactly_as_the_same_lm_eval_samples(exported, release_root, tmp_path):
    runs = tmp_path / "runs"
    _predictions(exported, runs / "vk", "vk-model", _wrong)
    gold = ReleaseGold(release_root)
    for task in _tasks():
        docs = list(gold.documents(task_index()[task]).values())
        keyed = {_key(task, r): r for r in _table(exported / f"{task}.tsv").to_dict("records")}
        answers = [_wrong(task, keyed[suite_for_task(task).doc_key(d)]) for d in docs]
        write_samples(runs / "lm-model", task, docs, answers, STAMP)
    out = tmp_path / "results.json"
    assert main(["score", "--predictions", str(runs), "--out", str(out), "--releases", str(release_root), "--quiet"]) == 0
    models = json.loads(out.read_text())["models"]
    vk, lm = models["vk-model"], models["lm-model"]
    for field in ("tasks", "suites", "scorers", "records"):
        assert _same(vk[field], lm[field]), field
    assert 0 < vk["tasks"]["chartprobe_judge_cpa"]["metrics"]["one_pass_accuracy"] < 1


def _stub_vlmeval(monkeypatch, tmp_path: Path) -> types.SimpleNamespace:
    """The little of VLMEvalKit the class file touches: ImageBaseDataset, LMUDataRoot, the dataset registry."""
    import os

    class ImageBaseDataset:  # vlmeval/dataset/image_base.py: the constructor loads the TSV
        def __init__(self, dataset="MMBench", skip_noimg=True):
            self.dataset_name = dataset
            self.data = self.load_data(dataset)

    root = types.ModuleType("vlmeval")
    root.__file__ = str(tmp_path / "vlmeval" / "__init__.py")
    registry = types.ModuleType("vlmeval.dataset")
    registry.DATASET_CLASSES, registry.SUPPORTED_DATASETS = [], ["MMBench"]
    image_base = types.ModuleType("vlmeval.dataset.image_base")
    image_base.ImageBaseDataset = ImageBaseDataset
    smp = types.ModuleType("vlmeval.smp")
    smp.LMUDataRoot = lambda: os.environ["LMUData"]
    root.dataset, root.smp, registry.image_base = registry, smp, image_base
    for name, module in [("vlmeval", root), ("vlmeval.dataset", registry), ("vlmeval.dataset.image_base", image_base),
                         ("vlmeval.smp", smp)]:
        monkeypatch.setitem(sys.modules, name, module)
    return types.SimpleNamespace(registry=registry)


def _class_module(exported: Path):
    spec = importlib.util.spec_from_file_location("chartprobe_vlmevalkit_under_test", exported / "chartprobe_vlmevalkit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dataset_class_evaluates_with_chartprobe_scores(exported, release_root, tmp_path, monkeypatch):
    stub = _stub_vlmeval(monkeypatch, tmp_path)
    monkeypatch.setenv("LMUData", str(exported))
    monkeypatch.delenv("CHARTPROBE_DATA", raising=False)
    module = _class_module(exported)
    assert module.RELEASES == {r: str((release_root / f"chartprobe-{r}").resolve()) for r in EXPORTS}
    module.register()
    assert stub.registry.ChartprobeDataset is module.ChartprobeDataset in stub.registry.DATASET_CLASSES
    assert set(_tasks()) <= set(stub.registry.SUPPORTED_DATASETS)
    files = _predictions(exported, tmp_path / "M", "M", _wrong)
    scored = score_samples(files, releases=release_root)["models"]["M"]["tasks"]
    for path in files:
        task = path.stem.removeprefix("M_")
        dataset = module.ChartprobeDataset(task)
        assert len(dataset.data) == scored[task]["n"] and dataset.data["answer"].map(type).eq(str).all()
        metrics = dataset.evaluate(str(path), model="exact_matching")
        assert _same(metrics, {**scored[task]["metrics"], "n": scored[task]["n"]})
        assert (tmp_path / "M" / f"M_{task}_chartprobe.json").is_file()
        first = next(iter(scored[task]["metrics"]))
        assert list(module.ChartprobeDataset.report_primary_metric(metrics)) == [first]


def test_the_class_file_runs_vlmevalkit_with_the_dataset_registered(exported, tmp_path, monkeypatch):
    stub = _stub_vlmeval(monkeypatch, tmp_path)
    run = tmp_path / "run.py"
    run.write_text("import sys, vlmeval.dataset as d\nsys.modules['vlmeval'].seen = (sys.argv[1:], d.ChartprobeDataset)\n")
    monkeypatch.setenv("VLMEVALKIT_RUN", str(run))
    monkeypatch.setenv("LMUData", str(exported))
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    module = _class_module(exported)
    module.main(["--data", "chartprobe_judge_cpa", "--model", "X"])
    assert sys.modules["vlmeval"].seen == (["--data", "chartprobe_judge_cpa", "--model", "X"], module.ChartprobeDataset)
    assert stub.registry.DATASET_CLASSES == [module.ChartprobeDataset]


def test_folders_pick_vlmevalkit_files_once_and_name_the_model(exported, release_root, tmp_path):
    work = tmp_path / "outputs"
    [target] = _predictions(exported, work / "Qwen_chartprobe_tuned" / "T20260101_G0", "Qwen_chartprobe_tuned",
                            lambda task, row: row["answer"])[:1]
    for f in sorted(target.parent.glob("*.xlsx")):
        (work / "Qwen_chartprobe_tuned" / f.name).symlink_to(f)  # run.py links the latest run's files
    for noise in ("Qwen_chartprobe_tuned_chartprobe_judge_cpa_PREV.pkl", "status.json",
                  "Qwen_chartprobe_tuned_ChartQA_TEST.xlsx", "chartprobe_judge_cpa.tsv"):
        (target.parent / noise).write_text("not predictions")
    files = sample_files([work])
    assert len(files) == len(_tasks()) and all(f.parent.name == "Qwen_chartprobe_tuned" for f in files)
    first = next(iter_samples(files[0]))
    assert first.model == "Qwen_chartprobe_tuned" and first.task == files[0].stem.removeprefix("Qwen_chartprobe_tuned_")
    assert list(score_samples([work], releases=release_root)["models"]) == ["Qwen_chartprobe_tuned"]


def _cli(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def test_bad_exports_are_one_error_line_and_write_nothing(release_root, tmp_path, capsys, monkeypatch):
    from chartprobe.eval_tasks.harness.vlmevalkit.documents import ExportTask

    probes, out = release_root / "chartprobe-probes", tmp_path / "new" / "out"
    for args, fragment in [((probes, "--config", "nope"), "no config 'nope' (the release has: bar"),
                           ((probes, "--config", "bar", "--split", "nope"), "has no split 'nope' (it has: train"),
                           ((probes, "--config", "bar", "--split", "train"), "no chartprobe task scores probes config"),
                           ((tmp_path / "missing", "--config", "bar"), "is not a release folder"),
                           ((release_root / "chartprobe-smoke", "--config", "default", "--split", "test"), None)]:
        code, err = _cli(capsys, "export", "vlmevalkit", *args, "--out", out, "--quiet")
        if fragment is None:  # the smoke release does export (one task): removed for the next case
            assert code == 0, err
            assert sorted(p.name for p in out.iterdir()) == ["chartprobe_smoke.tsv", "chartprobe_vlmevalkit.py"]
            continue
        assert_one_error_line(code, err, fragment)
        assert not (tmp_path / "new").exists() or sorted(p.name for p in out.iterdir()) == [
            "chartprobe_smoke.tsv", "chartprobe_vlmevalkit.py"]
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    rows = ExportTask.rows

    def failing(self, docs):  # the second task fails half-way: the first task's TSV must not appear either
        for n, row in enumerate(rows(self, docs)):
            if self.task.endswith("perception") and n == 3:
                raise PredictionsError("simulated failure half-way")
            yield row

    monkeypatch.setattr(ExportTask, "rows", failing)
    code, err = _cli(capsys, "export", "vlmevalkit", probes, "--config", "bar", "--out", out, "--quiet")
    assert_one_error_line(code, err, "simulated failure")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no TSV, no temp file, old files kept
    code, err = _cli(capsys, "export", "vlmevalkit", probes, "--config", "bar", "--out", tmp_path / "fresh", "--quiet")
    assert_one_error_line(code, err, "simulated failure")
    assert not (tmp_path / "fresh").exists()


def test_bad_prediction_files_are_one_error_line(exported, release_root, tmp_path, capsys):
    _predictions(exported, tmp_path / "M", "M", lambda task, row: row["answer"], ".tsv")
    table = _table(tmp_path / "M" / "M_chartprobe_legend.tsv")
    cases = {"preds.xlsx": ("is not named <model>_<task>.xlsx|.tsv (VLMEvalKit)", None),
             "preds.csv": ("is not named samples_<task>_<date_id>.jsonl (lm-eval --log_samples) nor <model>", None),
             "M_chartprobe_judge_cpa.tsv": ("no chartprobe_task column", table.drop(columns=["chartprobe_task"])),
             "N_chartprobe_judge_cpa.tsv": ("a document of task 'chartprobe_legend', but the file name says", table),
             "O_chartprobe_judge_cpa.xlsx": ("not a readable VLMEvalKit predictions table", "not a zip file")}
    for name, (fragment, content) in cases.items():
        path = tmp_path / "bad" / name
        path.parent.mkdir(exist_ok=True)
        if isinstance(content, pd.DataFrame):
            content.to_csv(path, sep="\t", index=False)
        else:
            path.write_text(content or "")
        code, err = _cli(capsys, "score", "--predictions", path, "--out", tmp_path / "r.json", "--releases", release_root)
        assert_one_error_line(code, err, fragment)
        path.unlink()
    assert not (tmp_path / "r.json").exists()
