"""``chartprobe reconstruct`` against today's API models: GPT-5.x refuses ``max_tokens`` and a
non-default ``temperature`` (HTTP 400), the paper ran the Responses API with ``detail: "high"``
images, an endpoint that refuses everything must end the run at once in one stderr line, and
``--sample N --seed S`` draws rows at random as the paper did.

The stand-in is ``tests/reconstruct_standin.py`` in ``mode="gpt5"`` (OpenAI's own refusal bodies,
``/v1/responses`` served too) and ``mode="refuse"`` (HTTP 400 for every request), answering from
the same 24 fixture charts as ``test_reconstruct_pipeline.py``, under the default ``--protocol paper``
(the released pipeline's stages: text-only code stages, an assumptions stage, fixed list lengths).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct.client import refused_parameter, token_param_for
from chartprobe.dataset_builders.families.reconstruct.sandbox import MECHANISMS
from chartprobe.dataset_builders.families.reconstruct.sources import load_source
from reconstruct_standin import REFUSE_MESSAGE, expected_outcome, fixture_entries, scripted_model

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "reconstruct"
needs_bwrap = pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed "
                                 "(scripts/install.sh installs it)")
IMAGE_STAGES = ("reconstruct", "diagnose", "revise", "verdict")
"""Stages sent the chart; under the (default) paper protocol the code-writing stages are text only."""


def _stage(body: dict) -> str:
    """The ``STAGE:`` line of a recorded request, chat or Responses."""
    parts = [p for m in body.get("input") or body.get("messages") for p in m["content"]]
    text = next(p["text"] for p in parts if p["type"] in ("text", "input_text"))
    return text.splitlines()[0].removeprefix("STAGE:").strip()


def _run(server, work: Path, out: Path, *extra: str, model: str = "standin-vlm") -> int:
    return main(["reconstruct", "--source", str(FIXTURE), "--license", "cc0-1.0", "--model", model,
                 "--base-url", server.base_url, "--work", str(work), "--out", str(out), "--concurrency", "2",
                 "--quiet", *extra])


def _manifest(work: Path) -> dict:
    return json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())


def _images(body: dict) -> list[dict]:
    """The image parts of a recorded request, chat or Responses."""
    if "input" in body:
        return [p for m in body["input"] for p in m["content"] if p["type"] == "input_image"]
    return [p["image_url"] for m in body["messages"] for p in m["content"] if p["type"] == "image_url"]


def _ends_as_scripted(manifest: dict) -> None:
    status = {it["chart_id"]: (it["status"], it["stage"]) for it in manifest["items"]}
    assert status == {chart: expected_outcome(e, "paper") for chart, e in fixture_entries().items()}
    assert manifest["counts"]["error"] == 0 and manifest["protocol"]["name"] == "paper"


# --- which parameter, from the model name and from the 400 --------------------------------------


@pytest.mark.parametrize("model, param", [
    ("gpt-5.2", "max_completion_tokens"), ("gpt-5-mini", "max_completion_tokens"), ("GPT-5.2-chat-latest",
                                                                                     "max_completion_tokens"),
    ("o3", "max_completion_tokens"), ("o4-mini", "max_completion_tokens"), ("openai/gpt-5", "max_completion_tokens"),
    ("gpt-4o", "max_tokens"), ("gpt-4.1-mini", "max_tokens"), ("Qwen/Qwen3-VL-8B-Instruct", "max_tokens"),
    ("standin-vlm", "max_tokens"), ("omni-vlm", "max_tokens"),
])
def test_auto_token_param_follows_the_model_family(model, param):
    assert token_param_for(model) == param


@pytest.mark.parametrize("status, param, message, named", [
    (400, "max_tokens", ("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                        "'max_completion_tokens' instead."), "max_tokens"),
    (400, None, ("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                "'max_completion_tokens' instead."), "max_tokens"),  # the first name in the message
    (400, "temperature", ("Unsupported value: 'temperature' does not support 0.0 with this model. Only the default "
                         "(1) value is supported."), "temperature"),
    (400, "input[0].content[1].detail", "Unknown parameter: 'input[0].content[1].detail'.", "detail"),
    (400, None, ("[{'type': 'extra_forbidden', 'loc': ('body', 'max_completion_tokens'), 'msg': 'Extra inputs are "
                "not permitted'}]"), "max_completion_tokens"),
    (400, "max_tokens", "max_tokens is too large: 100000. This model supports at most 16384 completion tokens.",
     None),  # a value out of range, not a refused parameter: switching spellings would not help
    (400, None, "Invalid image: the image is too large.", None),
    (401, None, "Unsupported parameter: 'max_tokens'", None),  # only a 400 is such a refusal
])
def test_a_refused_parameter_is_read_from_the_400(status, param, message, named):
    assert refused_parameter(status, param, message) == named


# --- against a GPT-5.x stand-in -----------------------------------------------------------------


@pytest.fixture(scope="module")
def gpt5_chat(tmp_path_factory):
    """Every fixture chart over Chat Completions with the defaults (max_tokens, temperature 0, detail high)
    against an endpoint that refuses both; then a re-run on the cache."""
    root = tmp_path_factory.mktemp("gpt5-chat")
    work, out = root / "work", root / "hub"
    with scripted_model(FIXTURE / "responses.json", mode="gpt5") as server:
        code = _run(server, work, out)
        first = {"code": code, "calls": server.calls, "refused": dict(server.refused), "routes": dict(server.routes),
                 "requests": list(server.requests), "manifest": _manifest(work),
                 "hash": json.loads((work / "runs.jsonl").read_text().splitlines()[-1])["content_hash"]}
        assert _run(server, work, out, "--overwrite") == 0
        first["second_calls"] = server.calls - first["calls"]
        first["second_hash"] = json.loads((work / "runs.jsonl").read_text().splitlines()[-1])["content_hash"]
    first.update(work=work, out=out)
    return first


@needs_bwrap
def test_chat_completes_on_a_gpt5_endpoint_after_one_refusal_per_parameter(gpt5_chat):
    assert gpt5_chat["code"] == 0
    _ends_as_scripted(gpt5_chat["manifest"])
    refused = gpt5_chat["refused"]  # learned once for the run: only requests already in flight see the 400
    assert set(refused) == {"max_tokens", "temperature"} and all(1 <= n <= 2 for n in refused.values()), refused
    assert gpt5_chat["routes"] == {"chat/completions": gpt5_chat["calls"]}
    for body in gpt5_chat["requests"]:
        assert body["max_completion_tokens"] == 8192 and "max_tokens" not in body and "temperature" not in body
        assert [im["detail"] for im in _images(body)] == ["high"] * len(_images(body))
        assert bool(_images(body)) == (_stage(body) in IMAGE_STAGES), _stage(body)
    model = gpt5_chat["manifest"]["model"]
    assert model["settings"] == {"temperature": 0.0, "max_tokens": 8192, "detail": "high"}
    assert model["sent"] == [{"api": "chat", "token_param": "max_completion_tokens", "temperature": None,
                              "detail": "high"}]
    runs = [json.loads(x) for x in (gpt5_chat["work"] / "runs.jsonl").read_text().splitlines()]
    assert [a.split(" refused")[0] for a in runs[0]["adjustments"]] == ["max_tokens", "temperature"]
    card = (gpt5_chat["out"] / "chartprobe-families" / "README.md").read_text()
    assert "sent as: chat API, `max_completion_tokens`, no temperature, image detail high" in card


@needs_bwrap
def test_a_cached_rerun_makes_no_call_and_gives_the_same_hash(gpt5_chat):
    assert gpt5_chat["second_calls"] == 0 and gpt5_chat["second_hash"] == gpt5_chat["hash"]


@needs_bwrap
def test_the_responses_api_with_high_detail_as_the_paper_ran_it(gpt5_chat, tmp_path, capsys):
    work, out = tmp_path / "w", tmp_path / "hub"
    with scripted_model(FIXTURE / "responses.json", mode="gpt5") as server:
        code = _run(server, work, out, "--api", "responses", model="gpt-5.2")
        refused, routes, requests = dict(server.refused), dict(server.routes), list(server.requests)
    assert code == 0, capsys.readouterr().err
    manifest = _manifest(work)
    _ends_as_scripted(manifest)
    assert set(refused) == {"temperature"} and refused["temperature"] <= 2
    assert routes == {"responses": len(requests)}
    for body in requests:
        assert body["store"] is False and body["text"] == {"format": {"type": "text"}}
        assert body["max_output_tokens"] == 8192 and "temperature" not in body
        images = _images(body)
        assert all(im["detail"] == "high" and im["image_url"].startswith("sha256:") for im in images)
        assert bool(images) == (_stage(body) in IMAGE_STAGES), _stage(body)
    assert manifest["model"]["sent"] == [{"api": "responses", "token_param": "max_output_tokens",
                                          "temperature": None, "detail": "high"}]
    assert manifest["model"]["settings"]["api"] == "responses"
    # the same replies make the same families, whichever API carried them
    assert manifest["counts"] == gpt5_chat["manifest"]["counts"]


@needs_bwrap
def test_flags_that_match_the_model_send_no_refused_request_and_sample_is_recorded(tmp_path):
    work, out = tmp_path / "w", tmp_path / "hub"
    with scripted_model(FIXTURE / "responses.json", mode="gpt5") as server:
        assert _run(server, work, out, "--token-param", "max_completion_tokens", "--no-temperature",
                    "--sample", "3", "--seed", "7") == 0
        assert not server.refused and server.calls > 0
    manifest = _manifest(work)
    _, rows = load_source(str(FIXTURE), sample=3, seed=7)
    assert [it["chart_id"] for it in manifest["items"]] == [r.chart_id for r in rows]
    assert manifest["source"]["sample"] == {"n": 3, "seed": 7} and manifest["source"]["rows"] == 3
    assert manifest["model"]["settings"]["temperature"] is None
    assert "--sample 3 --seed 7" in (out / "chartprobe-families" / "README.md").read_text()


# --- failures: one line, the model's own words, what succeeded kept -------------------------------


@needs_bwrap
def test_an_endpoint_refusing_everything_ends_fast_in_one_line(tmp_path, capsys):
    with scripted_model(FIXTURE / "responses.json", mode="refuse") as server:
        start = time.monotonic()
        code = main(["reconstruct", "--source", str(FIXTURE), "--model", "standin-gone", "--base-url",
                     server.base_url, "--work", str(tmp_path / "w"), "--out", str(tmp_path / "hub"), "--quiet"])
        seconds = time.monotonic() - start
        sent = len(server.errors)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and seconds < 5, (code, seconds)
    assert len(err) == 1, err
    assert REFUSE_MESSAGE in err[0] and "HTTP 400" in err[0] and "24 of 24 charts failed" in err[0], err[0]
    assert "re-run" in err[0] and "no release was built" in err[0]
    assert sent <= 3 + 4, sent  # 3 failures in a row stop the run (plus what was in flight at --concurrency 4)
    manifest = _manifest(tmp_path / "w")
    assert manifest["counts"]["error"] == 24 and not (tmp_path / "hub").exists()
    assert all(it["stage"] == "model" and REFUSE_MESSAGE in it["reason"] for it in manifest["items"])


@needs_bwrap
def test_a_partial_failure_writes_what_succeeded_then_exits_1(tmp_path, capsys):
    script = json.loads((FIXTURE / "responses.json").read_text())
    gone = next(sha for sha, entry in script.items() if entry["chart_id"] == "c01")
    del script[gone]  # the stand-in answers c01's requests with HTTP 400 "no scripted chart"
    responses = tmp_path / "responses.json"
    responses.write_text(json.dumps(script))
    with scripted_model(responses, mode="gpt5") as server:
        code = main(["reconstruct", "--source", str(FIXTURE), "--limit", "3", "--model", "gpt-5.2", "--base-url",
                     server.base_url, "--work", str(tmp_path / "w"), "--out", str(tmp_path / "hub"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1, err
    assert "1 of 3 charts failed" in err[0] and "HTTP 400: stand-in: stage reconstruct: no scripted chart" in err[0]
    assert "2 accepted families are in" in err[0]
    manifest = _manifest(tmp_path / "w")
    assert manifest["counts"] == {"accepted": 2, "rejected": 0, "needs_review": 0, "error": 1}
    assert (tmp_path / "hub" / "chartprobe-families" / "README.md").is_file()


# --- --sample -----------------------------------------------------------------------------------


def test_sample_is_seeded_and_differs_from_limit():
    def indices(**kw) -> list[int]:
        return [r.index for r in load_source(str(FIXTURE), **kw)[1]]

    first = indices(sample=6, seed=3)
    assert first == indices(sample=6, seed=3) and len(first) == 6 and first == sorted(first)
    assert indices(limit=6) == [0, 1, 2, 3, 4, 5] and first != indices(limit=6)
    assert indices(sample=6, seed=4) != first
    assert indices(sample=100, seed=0) == list(range(24))  # more than there are: every row


@pytest.mark.parametrize("args, message", [
    (["--limit", "2", "--sample", "2"], "not allowed with argument"),
    (["--seed", "1"], "--seed draws the --sample rows"),
    (["--sample", "0"], "--sample must be >= 1"),
    (["--max-tokens", "-1"], "--max-tokens"),
    (["--backend", "transformers", "--api", "responses"], "--api responses needs an endpoint"),
])
def test_bad_sampling_and_api_flags_are_one_error_line(tmp_path, capsys, args, message):
    code = main(["reconstruct", "--source", str(FIXTURE), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                 "--work", str(tmp_path / "w"), "--out", str(tmp_path / "hub"), "--quiet", *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and message in err[-1], err
    assert not (tmp_path / "hub").exists() and not (tmp_path / "w").exists()
