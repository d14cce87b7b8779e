"""``chartprobe reconstruct --protocol paper|chartprobe``: the released pipeline's stages and contracts by
default (compling-wat/Chartographer @ 1f02025c), our stricter gates by flag.

Paper: an assumptions stage (code + data in, three lists out, handed to ``generate_data``), the code
stages text only, ``adapt_question`` and ``generate_answer`` shown the chart code (and the adapter
module), never the source answer, lists of fixed length, the released import lists (seaborn,
cartopy, scipy, scikit-learn, statsmodels importable inside the sandbox), no answer gate.
Chartprobe: the image on every stage, the source answer shown and required, numpy/pandas/matplotlib.
The end-to-end runs use the loopback stand-in over the 24 fixture charts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct.checks import schema_problem
from chartprobe.dataset_builders.families.reconstruct.prompts import PROMPTS, prompt_sha256, stage_text
from chartprobe.dataset_builders.families.reconstruct.protocol import PROTOCOLS
from chartprobe.dataset_builders.families.reconstruct.replies import (
    ReplyError,
    assumptions_block,
    parse_assumptions,
)
from chartprobe.dataset_builders.families.reconstruct.sandbox import (
    MECHANISMS,
    Call,
    CodeRejected,
    Limits,
    check_code,
)
from reconstruct_standin import expected_outcome, fixture_entries, scripted_model

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "reconstruct"
needs_bwrap = pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed "
                                 "(scripts/install.sh installs it)")
CODE_STAGES = ("assumptions", "generate_data", "adapt_question", "generate_answer")


def _text_and_images(body: dict) -> tuple[str, int]:
    parts = [p for m in body["messages"] for p in m["content"]]
    return next(p["text"] for p in parts if p["type"] == "text"), sum(p["type"] == "image_url" for p in parts)


def _run(server, work: Path, out: Path, *extra: str) -> int:
    return main(["reconstruct", "--source", str(FIXTURE), "--license", "cc0-1.0", "--model", "standin-vlm",
                 "--base-url", server.base_url, "--work", str(work), "--out", str(out), "--concurrency", "1",
                 "--quiet", *extra])


# --- the contracts, one at a time ------------------------------------------------------------------


@pytest.mark.parametrize("data, fixed, problem", [
    ({"c": ["a", "b"], "v": [1, 2]}, True, None),
    ({"c": ["a", "b", "c"], "v": [1, 2, 3]}, True, "data.c has 3 items, the template 2"),
    ({"c": ["a", "b", "c"], "v": [1, 2, 3]}, False, None),  # the chartprobe protocol lets lengths change
    ({"c": ["a", "b"], "v": [1, "2"]}, True, "data.v[1] is string, the template has number"),
    ({"c": ["a"], "v": [1]}, False, None),
])
def test_fixed_list_lengths_are_the_paper_protocols(data, fixed, problem):
    assert schema_problem({"c": ["x", "y"], "v": [3, 4]}, data, fixed_lengths=fixed) == problem


def test_nested_lists_keep_their_lengths_item_by_item():
    template = {"series": [{"name": "a", "y": [1, 2, 3]}, {"name": "b", "y": [4, 5, 6]}]}
    ok = {"series": [{"name": "a", "y": [3, 2, 1]}, {"name": "b", "y": [0, 0, 9]}]}
    short = {"series": [{"name": "a", "y": [3, 2, 1]}, {"name": "b", "y": [0, 9]}]}
    assert schema_problem(template, ok, fixed_lengths=True) is None
    assert schema_problem(template, short, fixed_lengths=True) == "data.series[1].y has 2 items, the template 3"


@pytest.mark.parametrize("code, function, paper, chartprobe", [
    ("import seaborn as sns\n\ndef make_figure(data, savepath=None):\n    return sns", "make_figure", True, False),
    ("import cartopy.crs as ccrs\n\ndef make_figure(data, savepath=None):\n    return ccrs", "make_figure", True,
     False),
    ("from mpl_toolkits.mplot3d import Axes3D\n\ndef make_figure(data, savepath=None):\n    return Axes3D",
     "make_figure", True, False),
    ("import statsmodels.api as sm\n\ndef make_figure(data, savepath=None):\n    return sm", "make_figure", False,
     False),  # the released chart prompt does not list statsmodels
    ("import statsmodels.api as sm\n\ndef generate_data(data_template, seed=0):\n    return sm", "generate_data",
     True, False),
    (("from sklearn.preprocessing import MinMaxScaler\n\ndef generate_data(data_template, seed=0):\n"
      "    return MinMaxScaler"), "generate_data", True, False),
    ("import seaborn\n\ndef generate_data(data_template, seed=0):\n    return seaborn", "generate_data", False,
     False),  # nor seaborn for data
    ("import scipy.stats\n\ndef generate_answer(data):\n    return scipy.stats", "generate_answer", True, False),
    ("import os\n\ndef make_figure(data, savepath=None):\n    return os", "make_figure", False, False),
    ("import subprocess\n\ndef generate_data(data_template, seed=0):\n    return subprocess", "generate_data",
     False, False),
    ("import numpy as np\n\ndef generate_answer(data):\n    return np", "generate_answer", True, True),
])
def test_each_protocol_allows_its_import_list(code, function, paper, chartprobe):
    for name, allowed in (("paper", paper), ("chartprobe", chartprobe)):
        p = PROTOCOLS[name]
        if allowed:
            check_code(code, function, p.allowed(function))
        else:
            with pytest.raises(CodeRejected, match="import of"):
                check_code(code, function, p.allowed(function))


def test_assumptions_reply_reads_like_the_released_parser():
    notes = parse_assumptions('```json\n{"implicit_assumptions": [" shares sum to 100 ", ""], '
                              '"background_knowledge": null}\n```')
    assert notes == {"implicit_assumptions": ["shares sum to 100"], "background_knowledge": [],
                     "generation_guidance": []}
    assert assumptions_block(notes).splitlines() == [
        "Use all relevant items below as hard context when designing generate_data.",
        "implicit_assumptions:", "- shares sum to 100", "background_knowledge:", "- (none)",
        "generation_guidance:", "- (none)"]
    with pytest.raises(ReplyError, match="'generation_guidance' must be a list"):
        parse_assumptions('{"generation_guidance": "keep order"}')


def test_chartprobe_prompts_are_unchanged_and_paper_prompts_differ_where_the_contracts_do():
    ours, paper = PROTOCOLS["chartprobe"].prompts(), PROTOCOLS["paper"].prompts()
    assert ours == PROMPTS and prompt_sha256(ours) == prompt_sha256()  # caches made before protocols still hit
    assert set(paper) == set(PROMPTS) | {"assumptions"}
    assert paper["diagnose"] == PROMPTS["diagnose"] and paper["verdict"] == PROMPTS["verdict"]
    assert "seaborn" in paper["reconstruct"] and "cartopy" in paper["revise"] and "seaborn" not in PROMPTS["revise"]
    assert "statsmodels" in paper["generate_data"] and "the same length for every list" in paper["generate_data"]
    assert "original answer" not in paper["generate_answer"] and "original answer" in PROMPTS["generate_answer"]
    assert "ASSUMPTIONS AND BACKGROUND" in paper["generate_data"]
    text = stage_text("generate_answer", prompts=paper, question="Q?", chart_data={"v": [1]}, chart_code="C",
                      question_adapter_module="A")
    assert [line for line in text.splitlines() if line.endswith(":") and line[:-1].isupper()] == [
        "QUESTION:", "CHART DATA:", "CHART CODE:", "QUESTION ADAPTER MODULE:"]  # the released input order


# --- end to end against the stand-in ---------------------------------------------------------------


@pytest.fixture(scope="module")
def paper_run(tmp_path_factory):
    """Two fixture charts (one accepted, one refused for a list that changes length) under the default."""
    root = tmp_path_factory.mktemp("paper")
    with scripted_model(FIXTURE / "responses.json") as server:
        code = _run(server, root / "work", root / "hub", "--limit", "2")
        requests = list(server.requests)
    manifest = json.loads((root / "work" / "export" / "chartprobe-reconstruction.json").read_text())
    return {"code": code, "requests": requests, "manifest": manifest, "out": root / "hub"}


@needs_bwrap
def test_paper_code_stages_are_text_only_and_never_see_the_source_answer(paper_run):
    assert paper_run["code"] == 0
    stages = []
    for body in paper_run["requests"]:
        text, images = _text_and_images(body)
        stage = text.splitlines()[0].removeprefix("STAGE: ")
        stages.append(stage)
        assert (images == 0) == (stage in CODE_STAGES), stage
        if stage == "generate_answer":
            assert "ORIGINAL ANSWER:" not in text and "CHART CODE:\n" in text and "QUESTION ADAPTER MODULE:\n" in text
            assert "def adapt_question(data):" in text
        if stage == "adapt_question":
            assert "CHART CODE:\n" in text
        if stage == "generate_data":
            assert "ASSUMPTIONS AND BACKGROUND:\nUse all relevant items below" in text
            assert "- the keys" in text  # the scripted assumptions, passed on
    # concurrency 1: both charts reach the code stages (the second is refused only when its variants run),
    # each in the released order
    assert [s for s in stages if s in CODE_STAGES] == list(CODE_STAGES) * 2


@needs_bwrap
def test_paper_manifest_and_card_name_the_protocol(paper_run):
    m = paper_run["manifest"]
    assert m["protocol"]["name"] == "paper" and m["protocol"]["fixed_lengths"] and not m["protocol"]["answer_gate"]
    assert "assumptions" in m["prompts"]["text"] and m["prompts"]["sha256"] != prompt_sha256()
    assert [it["status"] for it in m["items"]] == ["accepted", "rejected"]
    assert "items, the template" in m["items"][1]["reason"]
    card = (paper_run["out"] / "chartprobe-families" / "README.md").read_text()
    assert "- protocol: `paper` (the paper's released pipeline: an assumptions stage, text-only code stages" in card


@needs_bwrap
def test_the_chartprobe_protocol_keeps_its_stricter_gates(tmp_path):
    work, out = tmp_path / "work", tmp_path / "hub"
    with scripted_model(FIXTURE / "responses.json") as server:
        assert _run(server, work, out, "--protocol", "chartprobe", "--concurrency", "2") == 0
        requests = list(server.requests)
        assert "assumptions" not in server.calls_by_stage
    manifest = json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())
    got = {it["chart_id"]: (it["status"], it["stage"]) for it in manifest["items"]}
    assert got == {chart: expected_outcome(e, "chartprobe") for chart, e in fixture_entries().items()}
    assert manifest["protocol"]["name"] == "chartprobe" and manifest["prompts"]["sha256"] == prompt_sha256()
    for body in requests:
        text, images = _text_and_images(body)
        assert images >= 1  # the source chart goes with every stage
        if text.startswith("STAGE: generate_answer"):
            assert "ORIGINAL ANSWER:" in text and "CHART CODE:" not in text
    card = (out / "chartprobe-families" / "README.md").read_text()
    assert "- protocol: `chartprobe` (chartprobe's stricter gates" in card


@needs_bwrap
def test_the_released_libraries_import_and_draw_inside_the_sandbox():
    """seaborn, cartopy (a projection without downloaded map data), mplot3d, scipy and scikit-learn in chart
    code; statsmodels and scikit-learn in generate_data: all under bwrap with the default limits."""
    from chartprobe.dataset_builders.families.reconstruct.context import Context

    figure = ("import seaborn as sns\nimport matplotlib.pyplot as plt\nimport cartopy.crs as ccrs\n"
              "from mpl_toolkits.mplot3d import Axes3D\nfrom scipy import stats\nimport sklearn.linear_model\n\n\n"
              "def make_figure(data, savepath=None):\n"
              "    fig = plt.figure(figsize=(6, 2))\n"
              "    sns.barplot(x=data['c'], y=data['v'], ax=fig.add_subplot(1, 3, 1))\n"
              "    geo = fig.add_subplot(1, 3, 2, projection=ccrs.PlateCarree())\n"
              "    geo.set_extent([-10, 30, 35, 60])\n"
              "    geo.plot([0, 10], [40, 50], transform=ccrs.PlateCarree())\n"
              "    fig.add_subplot(1, 3, 3, projection='3d').plot([0, 1], [0, 1], [0, stats.tmean(data['v'])])\n"
              "    if savepath:\n        fig.savefig(savepath)\n    plt.close(fig)\n")
    generate = ("import numpy as np\nimport statsmodels.api as sm\nfrom sklearn.preprocessing import MinMaxScaler\n\n\n"
                "def generate_data(data_template, seed=0):\n"
                "    v = np.random.default_rng(seed).uniform(1, 10, len(data_template['v']))\n"
                "    fit = sm.OLS(v, sm.add_constant(np.arange(len(v)))).fit()\n"
                "    scaled = MinMaxScaler().fit_transform(v.reshape(-1, 1)).ravel()\n"
                "    return {'c': list(data_template['c']), 'v': [round(float(x), 2) for x in scaled + 1],\n"
                "            'slope': float(fit.params[1])}\n")
    data = {"c": ["a", "b", "c"], "v": [3, 1, 2]}
    ctx = Context(None, "bwrap", Limits(), protocol=PROTOCOLS["paper"])
    job = ctx.run([Call(figure, "make_figure", (data,), savepath=True), Call(generate, "generate_data", (data, 3))])
    assert job.status == "ok", job.reason
    drawn, generated = job.results
    assert drawn.ok and drawn.png[:8] == b"\x89PNG\r\n\x1a\n", drawn.error
    assert generated.ok and len(generated.value["v"]) == 3 and isinstance(generated.value["slope"], float)
    with pytest.raises(CodeRejected, match="seaborn"):  # the stricter protocol refuses the same chart code
        Context(None, "bwrap", Limits(), protocol=PROTOCOLS["chartprobe"]).run(
            [Call(figure, "make_figure", (data,), savepath=True)])
