"""``chartprobe reconstruct`` end to end on the fixture charts, against a scripted stand-in model.

The fixture (``tests/fixtures/reconstruct/``) holds source charts drawn with Pillow by
``make_fixture.py`` (not by chartprobe's renderer), their questions and answers, and the replies a
model would give per stage. The stand-in (``tests/reconstruct_standin.py``) is a loopback
OpenAI-compatible server serving them, so every real piece runs: the ``openai`` client, the cache,
the sandbox (bubblewrap), the A.3 loop, the A.4/A.5 checks, the export, the ``--released`` import,
``chartprobe validate`` and lm-eval.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct.sandbox import MECHANISMS
from reconstruct_standin import expected_outcome, fixture_entries, scripted_model

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "reconstruct"
pytestmark = pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed "
                                "(scripts/install.sh installs it)")


def _kinds() -> dict[str, str]:
    replies = json.loads((FIXTURE / "responses.json").read_text())
    return {r["chart_id"]: r["kind"] for r in replies.values()}


def _meta() -> list[dict]:
    return [json.loads(line) for line in (FIXTURE / "metadata.jsonl").read_text().splitlines() if line.strip()]


def _run(server, work: Path, out: Path, *extra: str) -> int:
    return main(["reconstruct", "--source", str(FIXTURE), "--license", "cc0-1.0", "--model", "standin-vlm",
                 "--base-url", server.base_url, "--work", str(work), "--out", str(out), "--concurrency", "2",
                 "--quiet", *extra])


def _hash(work: Path) -> str:
    """The content hash of the last run's release (as the command printed it and runs.jsonl keeps it)."""
    return json.loads((work / "runs.jsonl").read_text().splitlines()[-1])["content_hash"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One run over every fixture chart; then a re-run on the cache; then a review decision and a third run."""
    root = tmp_path_factory.mktemp("reconstruct")
    work, out = root / "work", root / "hub"
    with scripted_model(FIXTURE / "responses.json") as server:
        assert _run(server, work, out) == 0
        first_calls, by_stage = server.calls, dict(server.calls_by_stage)
        first = {"hash": _hash(work), "manifest": json.loads((work / "export" / "chartprobe-reconstruction.json")
                                                            .read_text()),
                 "queue": [json.loads(x) for x in (work / "review" / "queue.jsonl").read_text().splitlines()]}
        snapshot = root / "first"
        shutil.copytree(out / "chartprobe-families", snapshot)
        assert _run(server, work, out, "--overwrite") == 0
        second_calls, second_hash = server.calls - first_calls, _hash(work)
    return {"root": root, "work": work, "out": out, "snapshot": snapshot, "first": first, "calls": first_calls,
            "by_stage": by_stage, "second_calls": second_calls, "second_hash": second_hash}


def _items(built) -> dict[str, dict]:
    return {it["chart_id"]: it for it in built["first"]["manifest"]["items"]}


def test_every_kind_of_fixture_chart_ends_as_scripted(built):
    """Under the default (paper) protocol; tests/test_reconstruct_protocol.py runs the chartprobe one."""
    kinds, items = _kinds(), _items(built)
    assert len(items) == len(_meta()) >= 20
    entries = fixture_entries()
    for chart, kind in kinds.items():
        it, (status, stage) = items[chart], expected_outcome(entries[chart], "paper")
        assert (it["status"], it["stage"]) == (status, stage), (chart, kind, it)
        if status == "rejected":
            assert it["reason"], it
        if kind == "wrong_answer":  # kept, as the released pipeline keeps it, with the difference recorded
            assert "the source answer is" in it["reason"] and "no answer gate" in it["reason"]
        if entries[chart].get("lengths_vary"):
            assert "items, the template" in it["reason"], it
        if kind == "no_converge":
            assert it["rounds"] == 5 and "no convergence" in it["reason"]
        if kind in ("fix_round2", "fix_round3"):
            assert it["rounds"] == int(kind[-1]) and "render_error" in it["history"][0]
    counts = built["first"]["manifest"]["counts"]
    assert counts["rejected"] >= 1 and counts["needs_review"] >= 1 and counts["error"] == 0


def test_needs_review_items_are_queued_with_both_images(built):
    queue = built["first"]["queue"]
    review = built["work"] / "review"
    assert [q["chart_id"] for q in queue] == [c for c, k in _kinds().items() if k == "needs_review"]
    for q in queue:
        assert (review / q["source_image"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (review / q["render_image"]).is_file() and q["reason"]


def test_the_release_has_the_source_images_as_originals_and_ten_variants(built):
    from datasets import (
        load_dataset,
        load_from_disk,  # noqa: F401  (the release is parquet: load_dataset below)
    )

    release = built["snapshot"]
    ds = load_dataset(str(release), "all", split="test")
    accepted = {c for c, it in _items(built).items() if it["status"] == "accepted"}
    assert len(ds) == 12 * len(accepted)
    source = {m["chart_id"]: (FIXTURE / m["file_name"]).read_bytes() for m in _meta()}
    meta = {m["chart_id"]: m for m in _meta()}
    seen = set()
    for row in ds.cast_column("image", __import__("datasets").Image(decode=False)):
        chart = row["data_source"].split("@")[1].split(";")[0]
        seen.add(chart)
        assert row["data_source"].endswith(";license=cc0-1.0")
        if row["role"] == "original":
            assert row["image"]["bytes"] == source[chart]
            assert row["question"] == meta[chart]["question"]
    assert seen == accepted
    from chartprobe.eval_tasks.rescoring.predictions import read_release_card

    assert read_release_card(release)["license"] == "cc0-1.0"  # the source's terms, not our families' CC BY-SA
    variants = [r for r in ds if r["role"] == "variant"]
    changed = sum(r["answer"] != r["original_answer"] for r in variants)
    assert changed >= len(variants) // 3, "counterfactuals must change answers"


def test_card_records_source_model_sandbox_usage_and_every_item(built):
    card = (built["snapshot"] / "README.md").read_text()
    assert "reconstructed by `chartprobe reconstruct`" in card
    assert "standin-vlm" in card and "`bwrap`" in card and "cc0-1.0" in card
    for stage in ("reconstruct", "diagnose", "verdict", "assumptions", "generate_data", "adapt_question",
                  "generate_answer"):
        assert f"| {stage} |" in card
    assert "- protocol: `paper` (the paper's released pipeline" in card
    for chart in _kinds():
        assert chart in card


def test_a_second_run_uses_only_the_cache_and_gives_the_same_hash(built):
    assert built["calls"] > 0 and built["second_calls"] == 0
    assert built["second_hash"] == built["first"]["hash"]
    runs = [json.loads(x) for x in (built["work"] / "runs.jsonl").read_text().splitlines()]
    assert runs[0]["calls"] == built["calls"] and runs[1]["calls"] == 0 and runs[1]["cached"] == built["calls"]


def test_usage_is_counted_per_stage(built):
    usage = built["first"]["manifest"]["usage"]
    assert {s: u["requests"] for s, u in usage.items()} == built["by_stage"]
    assert all(u["prompt_tokens"] > 0 and u["completion_tokens"] > 0 for u in usage.values())


def test_the_release_passes_validate(built, tmp_path, capsys):
    assert main(["validate", str(built["snapshot"]), "--out", str(tmp_path)]) == 0, capsys.readouterr().out
    doc = json.loads((tmp_path / "validity.json").read_text())[0]
    assert doc["passed"] and not [c for c in doc["checks"] if c["status"] == "fail"]


def test_lm_eval_scores_the_reconstructed_families(built, tiny_vlm, tmp_path):
    from lm_eval_run import run_lm_eval

    releases = tmp_path / "releases"
    releases.mkdir()
    shutil.copytree(built["snapshot"], releases / "chartprobe-families")
    _, results = run_lm_eval(tiny_vlm, releases, tmp_path, "chartprobe_families", limit=24, max_gen_toks=8)
    metrics = results["chartprobe_families"]
    assert "original_accuracy,none" in metrics and "conditional_variant_accuracy,none" in metrics


def test_an_approved_review_item_joins_the_release_on_the_next_run(built, tmp_path):
    from chartprobe.dataset_builders.families.reconstruct.review import record_decision

    work = tmp_path / "work"
    shutil.copytree(built["work"], work)
    (item,) = [q["item"] for q in built["first"]["queue"]]
    record_decision(work / "review", item, "approve", "labels checked by hand", "tester")
    out = tmp_path / "hub"
    with scripted_model(FIXTURE / "responses.json") as server:
        assert _run(server, work, out) == 0
        # only the approved item's A.4/A.5 stages are new calls; everything else is cached
        assert server.calls == 4 and set(server.calls_by_stage) == {"assumptions", "generate_data",
                                                                    "adapt_question", "generate_answer"}
    manifest = json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())
    status = {it["item"]: it for it in manifest["items"]}
    assert status[item]["status"] == "accepted" and status[item]["reviewed"] == "approve"
    assert (work / "review" / "queue.jsonl").read_text() == ""
    assert manifest["counts"]["accepted"] == built["first"]["manifest"]["counts"]["accepted"] + 1


def test_a_rejected_review_item_stays_out(built, tmp_path):
    from chartprobe.dataset_builders.families.reconstruct.review import record_decision

    work = tmp_path / "work"
    shutil.copytree(built["work"], work)
    (item,) = [q["item"] for q in built["first"]["queue"]]
    record_decision(work / "review", item, "reject", "values unreadable")
    with scripted_model(FIXTURE / "responses.json") as server:
        assert _run(server, work, tmp_path / "hub") == 0 and server.calls == 0
    manifest = json.loads((work / "export" / "chartprobe-reconstruction.json").read_text())
    it = next(i for i in manifest["items"] if i["item"] == item)
    assert it["status"] == "rejected" and "values unreadable" in it["reason"]


def test_retries_ride_out_a_flaky_endpoint(tmp_path):
    """The first requests fail with 503; the openai client's own backoff retries them."""
    with scripted_model(FIXTURE / "responses.json", fail_first=2) as server:
        assert _run(server, tmp_path / "w", tmp_path / "hub", "--limit", "1") == 0
    manifest = json.loads((tmp_path / "w" / "export" / "chartprobe-reconstruction.json").read_text())
    assert manifest["counts"]["error"] == 0


@pytest.mark.parametrize("args, message", [
    (["--source", "/no/such/source"], "--source /no/such/source"),
    (["--source", str(FIXTURE), "--columns", "image=file_name,question=question"], "no column for answer"),
    (["--source", str(FIXTURE), "--columns", "image=nope,question=question,answer=answer"], "no column 'nope'"),
    (["--source", str(FIXTURE), "--sandbox", "unshare"], "--allow-weak-sandbox"),
])
def test_bad_input_is_one_error_line_and_nothing_is_written(tmp_path, capsys, args, message):
    out = tmp_path / "hub"
    code = main(["reconstruct", *args, "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                 "--work", str(tmp_path / "w"), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("chartprobe: error:") and message in err[0], err
    assert not out.exists()


def test_an_unreachable_endpoint_is_an_error_outcome_not_a_rejection(tmp_path, capsys):
    code = main(["reconstruct", "--source", str(FIXTURE), "--limit", "1", "--model", "m", "--base-url",
                 "http://127.0.0.1:9/v1", "--max-retries", "0", "--timeout", "5", "--work", str(tmp_path / "w"),
                 "--out", str(tmp_path / "hub"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and not (tmp_path / "hub").exists() and "re-run" in err[-1]
    manifest = json.loads((tmp_path / "w" / "export" / "chartprobe-reconstruction.json").read_text())
    assert manifest["counts"]["error"] == 1 and manifest["items"][0]["stage"] == "model"


def test_source_images_are_not_chartprobe_renders():
    """The fixture's charts come from make_fixture.py (Pillow), not from chartprobe's renderer."""
    tree = ast.parse((FIXTURE / "make_fixture.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "PIL" in imported and not imported & {"chartprobe", "matplotlib", "dataset_builders"}, imported
    digests = {hashlib.sha256((FIXTURE / m["file_name"]).read_bytes()).hexdigest() for m in _meta()}
    assert len(digests) == len(_meta())
