"""The Space's Review tab (``spaces/chartspace/views/review.py``) over a ``chartprobe reconstruct`` queue.

The queue is written by the pipeline's own ``write_queue``; the tab must show both images and the
model's reasons, record approve / reject to ``decisions.jsonl`` in the form the next run reads
(``read_decisions``), never read an image outside the review folder, and say what to do when the
Space has no review folder or nothing waits.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "spaces"))  # chartspace (spaces/ is no package)

from chartprobe.dataset_builders.families.reconstruct.review import read_decisions, write_queue
from chartspace.views import review


def _png(color: str, size=(40, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture
def queue(tmp_path) -> Path:
    folder = tmp_path / "review"
    entries = []
    for i, color in enumerate(("red", "blue")):
        entry = {"item": f"fixture_test-q{i:06d}", "chart_id": f"c{i:02d}", "question": f"Which bar <b>{i}</b>?",
                 "answer": "USA", "reason": "legend colours are ambiguous", "rounds": 2,
                 "history": [{"round": 1, "significant": True, "issues": [{"summary": "wrong bar order"}]},
                             {"round": 2, "significant": False, "issues": []}],
                 "chart_data": {"values": [1, 2]}}
        entries.append((entry, _png(color), _png("white")))
    write_queue(folder, entries)
    return folder


def test_an_item_shows_both_images_its_question_and_the_diagnosis_rounds(queue):
    status, ids, chosen, source, render, details = review.item_view(queue, None)
    assert ids == ["fixture_test-q000000", "fixture_test-q000001"] and chosen == ids[0]
    assert source.getpixel((0, 0)) == (255, 0, 0) and render.getpixel((0, 0)) == (255, 255, 255)
    assert "2 items wait for review, 0 decided" in status
    assert "legend colours are ambiguous" in details and "wrong bar order" in details
    assert "<b>0</b>" not in details and "&lt;b&gt;0&lt;/b&gt;" in details  # the question is escaped
    _, _, chosen, source, _, _ = review.item_view(queue, ids[1])
    assert chosen == ids[1] and source.getpixel((0, 0)) == (0, 0, 255)


def test_decisions_are_written_where_the_next_run_reads_them(queue):
    line = review.decide(queue, "fixture_test-q000001", "reject", "values unreadable", "ana")
    assert "reject recorded" in line
    review.decide(queue, "fixture_test-q000000", "approve", "", "")
    decided = read_decisions(queue)
    assert decided["fixture_test-q000001"].decision == "reject" and decided["fixture_test-q000001"].note == \
        "values unreadable"
    assert decided["fixture_test-q000000"].decision == "approve"
    status = review.item_view(queue, "fixture_test-q000001")[0]
    assert "2 decided" in status and "decided: reject" in status


def test_an_unknown_item_or_decision_is_refused(queue):
    from chartprobe.dataset_builders.families.reconstruct.review import ReviewError

    with pytest.raises(ReviewError, match="decision must be one of approve, reject"):
        review.decide(queue, "fixture_test-q000000", "maybe", "", "")
    with pytest.raises(ReviewError, match="is not in"):
        review.decide(queue, "fixture_test-q999999", "approve", "", "")
    assert "Pick a queued item first" in review.decide(queue, None, "approve", "", "")
    assert read_decisions(queue) == {}


def test_an_image_path_outside_the_review_folder_is_not_read(queue, tmp_path):
    outside = tmp_path / "secret.png"
    outside.write_bytes(_png("green"))
    lines = [json.loads(x) for x in (queue / "queue.jsonl").read_text().splitlines()]
    lines[0]["source_image"] = "../secret.png"
    (queue / "queue.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    _, _, _, source, render, _ = review.item_view(queue, None)
    assert source is None and render is not None


def test_no_folder_and_an_empty_queue_say_what_to_do(tmp_path):
    assert "--review WORK/review" in review.item_view(None, None)[0]
    write_queue(tmp_path / "empty", [])
    status, ids, *_ = review.item_view(tmp_path / "empty", None)
    assert ids == [] and "Nothing waits for review" in status


def test_the_tab_builds_in_the_app(queue):
    import gradio as gr

    with gr.Blocks():
        handle = review.build(queue)
    assert handle.name == review.TITLE == "Review"
    status, picker, source, render, details = handle.refresh(None)
    assert "2 items wait" in status and "wrong bar order" in details
    assert picker["choices"] == ["fixture_test-q000000", "fixture_test-q000001"]
    assert picker["value"] == "fixture_test-q000000" and source is not None and render is not None
