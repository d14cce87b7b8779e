"""Bottleneck-guided fine-tuning end to end (issue: LegendBench §5.3 and ChartProbe's seeds).

On the small releases of every dataset (conftest ``release_root``) and the tiny VLMs:

- ``--profile`` takes an lm-eval folder holding every ``chartprobe_*`` task (in ``--log_samples``
  layout), a ``chartprobe score`` results file, and a ``chartprobe profile`` file, and each trains
  a reloadable adapter at ``--budget 40``;
- ``--data legend`` trains 3 steps with LoRA on the language model only (LLaVA and Idefics3);
- the study (``--seeds 42,43,44``) writes the capability table and the per-domain x skill table,
  scored by lm-eval on our tasks and a foreign fixture task (transfer).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chartprobe.eval_tasks.rescoring import data as eval_data
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows
from chartprobe.eval_tasks.suites._task_index import task_index
from chartprobe.eval_tasks.validity.validate import run_agents, write_agent_samples
from train_run import train_cli

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}
STAMP = "2026-12-03T10-00-00.000001"
LM_PREFIX = {"llava": "model.language_model.", "idefics3": "model.text_model."}


@pytest.fixture(autouse=True)
def _offline(monkeypatch, release_root):
    for key, value in OFFLINE.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv(eval_data.ENV_VAR, str(release_root))


@pytest.fixture(scope="module")
def every_task_run(release_root, tmp_path_factory) -> Path:
    """An lm-eval ``--output_path`` folder with a samples file for every chartprobe task the agents
    answer (probes, legend, families, judge, smoke) and a results JSON naming every task, plus a
    foreign task, as ``lm_eval --tasks 'chartprobe_*',chartqa --log_samples`` leaves it."""
    folder = tmp_path_factory.mktemp("every_task")
    for release in sorted(release_root.glob("chartprobe-*")):
        name = release.name[len("chartprobe-"):]
        runs = run_agents(name, load_release_rows(release), ["random"])
        write_agent_samples(runs, folder, stamp=STAMP)
    run = folder / "random"
    tasks = sorted(p.name[len("samples_"):-len(f"_{STAMP}.jsonl")] for p in run.glob("samples_*.jsonl"))
    results = {"results": {**{t: {"alias": t} for t in tasks}, "chartqa": {"relaxed_accuracy,none": 0.2}},
               "config": {"model_args": "pretrained=tiny"}}
    (run / f"results_{STAMP}.json").write_text(json.dumps(results))
    return folder


def top_cli(argv: list[str]) -> int:
    from chartprobe.cli import main

    return main(argv)


def test_the_every_task_folder_covers_every_benchmark(every_task_run):
    from chartprobe.training.profile_sources import load_profile

    releases = {task_index()[p.name[len("samples_"):-len(f"_{STAMP}.jsonl")]].release
                for p in (every_task_run / "random").glob("samples_*.jsonl")}
    assert {"probes", "legend", "families", "judge", "smoke"} <= releases
    profile = load_profile(every_task_run)
    assert set(profile["benchmarks"]) == {"probes", "legend"}
    skipped = profile["skipped_tasks"]
    assert any(t.startswith("chartprobe_judge") for t in skipped) and "chartprobe_smoke" in skipped
    assert profile["lm_eval_tasks"] == {"chartqa": {"relaxed_accuracy": 0.2}}
    legend = profile["benchmarks"]["legend"]["regions"]
    assert {"capability", "capability_channel", "capability_chart_family"} <= set(legend)
    assert "abstention" in legend["capability"]


@pytest.fixture(scope="module")
def profile_forms(every_task_run, release_root, tmp_path_factory) -> dict[str, Path]:
    """The three --profile forms of the same run: lm-eval folder, results file, profile file."""
    out = tmp_path_factory.mktemp("forms")
    assert top_cli(["score", "--predictions", str(every_task_run / "random"), "--releases", str(release_root),
                    "--allow-partial", "--out", str(out / "results.json")]) == 0
    assert top_cli(["profile", str(every_task_run), "--out", str(out / "profile.json")]) == 0
    return {"lm-eval folder": every_task_run, "results file": out / "results.json",
            "profile file": out / "profile.json"}


@pytest.mark.parametrize("form", ["lm-eval folder", "results file", "profile file"])
def test_bottleneck_training_from_each_profile_form(form, profile_forms, tiny_vlm, tmp_path):
    out = tmp_path / "adapter"
    assert train_cli(["--model", str(tiny_vlm), "--select", "bottleneck", "--budget", "40",
                      "--profile", str(profile_forms[form]), "--max-steps", "1", "--out", str(out)]) == 0
    manifest = json.loads((out / "selection.json").read_text())["train"]
    assert manifest["n"] == 40 and manifest["details"]["rule"] in ("bottleneck", "uniform")
    assert manifest["details"]["profile_splits"]  # which split the evidence came from is recorded
    assert (out / "adapter_model.safetensors").is_file()
    if form == "lm-eval folder":  # the adapter reloads and generates
        from peft import PeftModel
        from transformers import AutoModelForImageTextToText

        model = PeftModel.from_pretrained(AutoModelForImageTextToText.from_pretrained(tiny_vlm), out)
        assert any("lora_" in n for n, _ in model.named_parameters())


def test_profile_command_reports_what_it_skipped(every_task_run, tmp_path, capsys):
    assert top_cli(["profile", str(every_task_run), "--out", str(tmp_path / "p.json")]) == 0
    printed = capsys.readouterr().out
    assert "probes:" in printed and "legend:" in printed and "skipped chartprobe_smoke" in printed
    assert top_cli(["profile", str(tmp_path), "--out", str(tmp_path / "q.json")]) == 2
    assert "no lm-eval results" in capsys.readouterr().err and not (tmp_path / "q.json").exists()


@pytest.mark.parametrize("arch", ["llava", "idefics3"])
def test_legend_training_three_steps_lora_on_the_language_model_only(arch, tiny_vlm, tiny_idefics3, tmp_path):
    model = tiny_vlm if arch == "llava" else tiny_idefics3
    out = tmp_path / arch
    assert train_cli(["--model", str(model), "--data", "legend", "--max-steps", "3", "--out", str(out)]) == 0
    log = json.loads((out / "train_log.json").read_text())
    assert log["steps"] == 3 and all(m.startswith(LM_PREFIX[arch]) for m in log["trainable_modules"])
    manifest = json.loads((out / "selection.json").read_text())["train"]
    assert manifest["region"] == "capability" and set(manifest["counts"]) <= {
        "guide_read", "bind", "value_extraction", "reason", "abstention"}
    assert all("-train-" in i for i in manifest["ids"])  # snapshot train rows only
    card = (out / "README.md").read_text()
    assert "chartprobe-legend" in card and "after LegendBench (§5.3" in card and "ChartProbe" not in card
    assert "--tasks chartprobe_legend " in card and "complex-reasoning" not in card  # its own eval, its own promise


def test_legend_bottleneck_selection_reads_the_legend_section(profile_forms, tiny_vlm, tmp_path):
    out = tmp_path / "legend_bn"
    assert train_cli(["--model", str(tiny_vlm), "--data", "legend", "--select", "bottleneck", "--budget", "12",
                      "--region", "capability", "--profile", str(profile_forms["profile file"]),
                      "--max-steps", "1", "--out", str(out)]) == 0
    details = json.loads((out / "selection.json").read_text())["train"]["details"]
    assert details["benchmark"] == "legend" and set(details["intervals"]) == set(details["accuracy"])


def _transfer_task(folder: Path) -> Path:
    """A foreign lm-eval task (not chartprobe's, like lm-eval's chartqa): four PIL-drawn charts in a
    local parquet file, exact-match scored by lm-eval itself."""
    import datasets
    from PIL import Image, ImageDraw

    rows = {"image": [], "question": [], "answer": []}
    for i, height in enumerate((10, 20, 30, 25)):
        img = Image.new("RGB", (48, 48), "white")
        ImageDraw.Draw(img).rectangle([10, 40 - height, 30, 40], fill="navy")
        rows["image"].append(img)
        rows["question"].append("How tall is the bar?")
        rows["answer"].append(str(height))
    data = folder / "transfer.parquet"
    datasets.Dataset.from_dict(rows, features=datasets.Features({
        "image": datasets.Image(), "question": datasets.Value("string"), "answer": datasets.Value("string")}),
    ).to_parquet(str(data))
    (folder / "transfer_fixture.yaml").write_text(f"""task: transfer_fixture
dataset_path: parquet
dataset_kwargs: {{data_files: {{test: {data}}}}}
test_split: test
output_type: generate_until
doc_to_image: [image]
doc_to_text: "<image>{{{{question}}}}"
doc_to_target: answer
generation_kwargs: {{until: [], max_gen_toks: 4, do_sample: false}}
metric_list:
  - {{metric: exact_match, aggregation: mean, higher_is_better: true}}
metadata: {{version: 1}}
""")
    return folder


@pytest.mark.slow
def test_the_study_over_three_seeds_writes_both_tables(tiny_vlm, tmp_path):
    """LegendBench §5.3 / Table 5: base, Random-LB FT and Bottleneck-LB FT at one budget over three
    seeds, with QA / Chain Accuracy, CR and AF1 beside the capability rows and a transfer task."""
    tasks = _transfer_task(tmp_path / "tasks")
    out = tmp_path / "study"
    assert train_cli(["--model", str(tiny_vlm), "--data", "legend", "--budget", "6", "--max-steps", "1",
                      "--seeds", "42,43,44", "--eval-tasks", f"chartprobe_legend,{tasks / 'transfer_fixture.yaml'}",
                      "--eval-limit", "30", "--eval-device", "cpu",
                      "--eval-in-process", "--eval-gen-kwargs", "max_gen_toks=4",
                      "--eval-model-args", "max_images=1,dtype=float32", "--out", str(out)]) == 0
    study = json.loads((out / "study.json").read_text())
    assert study["seeds"] == [42, 43, 44] and set(study["profile_splits"]) == {"validation"}
    assert study["design"] == "selection" and len(study["runs"]["random"]) == len(study["runs"]["bottleneck"]) == 3
    for mode in ("random", "bottleneck"):
        for seed in (42, 43, 44):
            assert json.loads((out / f"{mode}-seed{seed}" / "selection.json").read_text())["train"]["n"] == 6
    capability = study["tables"]["capability"]
    assert {"all rows", "QA Acc", "Chain Acc", "CR", "AF1", "transfer_fixture exact_match (lm-eval)"} <= set(capability)
    assert capability["all rows"]["random"]["n_seeds"] == 3 and capability["all rows"]["base"]["n_seeds"] == 1
    md = (out / "study.md").read_text()
    assert "| capability | Base | Random FT | Bottleneck FT |" in md and " ± " in md
    assert "| Chain Acc |" in md and "capability x chart family" in md


@pytest.mark.slow
def test_chartprobe_five_skill_sets_over_three_seeds_with_the_change_over_base(tiny_vlm, tmp_path):
    """ChartProbe §4 / Table 1: P, G, SR, P+G, P+G+SR, each over seeds 42-44, mean ± sd beside the base
    model, and each domain x skill cell's change over base."""
    out = tmp_path / "skills"
    assert train_cli(["--model", str(tiny_vlm), "--data", "probes", "--seeds", "42,43,44",
                      "--skill-sets", "P,G,SR,P+G,P+G+SR", "--max-steps", "1",
                      "--eval-tasks", "chartprobe_probes_bar_perception,chartprobe_probes_bar_reasoning",
                      "--eval-limit", "2", "--eval-device", "cpu", "--eval-in-process",
                      "--eval-gen-kwargs", "max_gen_toks=4", "--eval-model-args", "max_images=1,dtype=float32",
                      "--out", str(out)]) == 0
    study = json.loads((out / "study.json").read_text())
    sets = ["P", "G", "SR", "P+G", "P+G+SR"]
    assert study["design"] == "skill_sets" and [k for k, _ in study["settings"]] == ["base", *sets]
    assert study["profile"] is None and study["budget"] is None  # all rows of each skill set, no profile
    skills = {"P": {"perception"}, "G": {"grounding"}, "SR": {"reasoning"}, "P+G": {"perception", "grounding"},
              "P+G+SR": {"perception", "grounding", "reasoning"}}
    for s in sets:
        assert len(study["runs"][s]) == 3
        for seed in (42, 43, 44):
            counts = json.loads((out / f"{s}-seed{seed}" / "selection.json").read_text())["train"]["counts"]
            assert set(counts) == skills[s], (s, counts)
    crossed = study["tables"]["crossed"]
    assert set(crossed) == {"base", *sets} and set(crossed["P+G"]) == {"bar/perception", "bar/reasoning"}
    assert all(crossed[s]["bar/perception"]["n_seeds"] == 3 for s in sets)
    md = (out / "study.md").read_text()
    assert "| capability | Base | P | G | SR | P+G | P+G+SR |" in md
    base, pg = crossed["base"]["bar/perception"]["mean"], crossed["P+G"]["bar/perception"]["mean"]
    assert f"({100 * (pg - base):+.1f})" in md.split("P+G: domain x skill")[1].split("###")[0]


def test_skill_sets_need_seeds_and_refuse_a_budget(tiny_vlm, tmp_path, capsys):
    common = ["--model", str(tiny_vlm), "--data", "probes", "--out", str(tmp_path / "o")]
    assert train_cli([*common, "--skill-sets", "P,G"]) == 2
    assert "--skill-sets is a study over seeds" in capsys.readouterr().err
    assert train_cli([*common, "--seeds", "42", "--skill-sets", "P,G", "--budget", "6"]) == 2
    assert "hold the count fixed with --volume-matched N" in capsys.readouterr().err
    assert train_cli([*common, "--seeds", "42", "--skill-sets", "P,CR"]) == 2
    assert "--skill-sets P,CR" in capsys.readouterr().err
    assert train_cli([*common[:2], "--data", "legend", *common[4:], "--seeds", "42", "--skill-sets", "P"]) == 2
    assert "legend rows have no skills to train apart" in capsys.readouterr().err
