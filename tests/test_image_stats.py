"""The learned image-statistics agent: its statistics, and planted tells it must catch (or not invent)."""

from __future__ import annotations

import copy
import io
import math

import numpy as np
import pytest
from chartprobe.dataset_builders.core.image_statistics import (
    PAIR_STATISTICS,
    STATISTICS,
    PixelReader,
    describe,
    features,
)
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._image_stats import MIN_UNITS
from chartprobe.eval_tasks.validity.validate import report_for_rows
from PIL import Image, ImageDraw

N_UNITS = 60


def _boxes(rng: np.random.Generator) -> list[tuple[int, int, int, int, tuple[int, int, int]]]:
    """A few coloured bars on white: something chart-like whose statistics vary from item to item."""
    out = []
    for i in range(int(rng.integers(3, 8))):
        top = int(rng.integers(10, 100))
        colour = tuple(int(c) for c in rng.integers(0, 230, 3))
        out.append((12 + 20 * i, top, 26 + 20 * i, 110, colour))
    return out


def _png(boxes, width: int = 170) -> bytes:
    im = Image.new("RGB", (170, 120), "white")
    draw = ImageDraw.Draw(im)
    for x0, y0, x1, y1, colour in boxes:
        draw.rectangle((x0, y0, x1, y1), fill=colour)
    if width != 170:
        im = im.resize((width, 120))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def _changed(boxes, rng):
    """The same chart with one bar's height changed: a real but small difference."""
    boxes = list(boxes)
    i = int(rng.integers(len(boxes)))
    x0, _, x1, y1, colour = boxes[i]
    boxes[i] = (x0, int(rng.integers(10, 100)), x1, y1, colour)
    return boxes


def _with_pixels(row: dict, images: dict[str, bytes]) -> dict:
    row["image_meta"] = {c: {"width": 170, "height": 120, "bytes": len(b), "format": "PNG", "pixels": describe(b)}
                         for c, b in images.items()}
    return row


def _copies(rows: list[dict], n: int, id_fields: tuple[str, ...]) -> list[dict]:
    """``n`` rows cycling through ``rows``, each its own unit (ids suffixed), images to be set."""
    out = []
    for i in range(n):
        row = copy.deepcopy(rows[i % len(rows)])
        for f in id_fields:
            row[f] = f"{row[f]}-u{i}"
        out.append(row)
    return out


@pytest.fixture(scope="module")
def judge_rows(release_root):
    return load_release_rows(release_root / "chartprobe-judge")


def _image_stats_failures(report) -> list[str]:
    return [f"{c.check} [{c.scope}]" for c in report.failed if c.agent == "image_stats"]


@pytest.mark.parametrize("planted", [True, False], ids=["accept-is-reference", "both-changed"])
def test_crj_accept_candidates_identical_to_their_reference_fail(judge_rows, planted):
    rng = np.random.default_rng(7)
    rows = _copies(judge_rows[("crj_reproduction", "test")], N_UNITS, ("id", "item_id"))
    for row in rows:
        boxes = _boxes(rng)
        same = planted and row["answer"] == "Accept"
        _with_pixels(row, {"image_reference": _png(boxes),
                           "image_candidate": _png(boxes if same else _changed(boxes, rng))})
    report = report_for_rows("planted", "judge", {("crj_reproduction", "test"): rows}, agents=["image_stats"])
    failed = _image_stats_failures(report)
    if planted:
        assert "image_stats AUC [crj_reproduction]" in failed
        assert "image_stats gap over chance [crj_reproduction]" in failed
    else:
        assert failed == []


@pytest.mark.parametrize("planted", [True, False], ids=["worse-squeezed", "either-squeezed"])
def test_cpa_whose_worse_chart_is_always_squeezed_fails(judge_rows, planted):
    rng = np.random.default_rng(11)
    suite = suite_for_release("judge")
    pairs = [r for r in judge_rows[("cpa", "test")] if not suite.pixels_are_evidence(r)]
    rows = _copies(pairs, N_UNITS, ("id", "pair_id"))
    for row in rows:
        boxes = _boxes(rng)
        squeeze_worse = planted or rng.random() < 0.5
        squeeze_better = not planted and rng.random() < 0.5
        _with_pixels(row, {"image_better": _png(boxes, 136 if squeeze_better else 170),
                           "image_worse": _png(_changed(boxes, rng), 136 if squeeze_worse else 170)})
    report = report_for_rows("planted", "judge", {("cpa", "test"): rows}, agents=["image_stats"])
    failed = _image_stats_failures(report)
    assert ("image_stats gap over chance [cpa]" in failed) == planted
    assert ("image_stats AUC [cpa]" in failed) == planted


def test_folds_fitted_in_worker_processes_give_the_same_probabilities(judge_rows):
    """``chartprobe validate --num-proc 2`` fits the five folds two at a time, in processes; every
    out-of-fold probability is the one a single process gives."""
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.validity.agents.image_stats import out_of_fold

    rng = np.random.default_rng(5)
    suite = suite_for_release("judge")
    rows = _copies(judge_rows[("crj_reproduction", "test")], N_UNITS, ("id", "item_id"))
    for row in rows:
        boxes = _boxes(rng)
        _with_pixels(row, {"image_reference": _png(boxes), "image_candidate": _png(_changed(boxes, rng))})
    docs = suite.documents("crj_reproduction", rows)
    alone = out_of_fold(suite, docs)
    assert len(alone) == len(docs) and all(alone)
    assert out_of_fold(suite, docs, workers=2) == alone


def test_a_handful_of_units_is_reported_not_judged(judge_rows):
    rng = np.random.default_rng(3)
    rows = _copies(judge_rows[("crj_reproduction", "test")], MIN_UNITS - 2, ("id", "item_id"))
    for row in rows:
        boxes = _boxes(rng)
        _with_pixels(row, {"image_reference": _png(boxes),
                           "image_candidate": _png(boxes if row["answer"] == "Accept" else _changed(boxes, rng))})
    report = report_for_rows("few", "judge", {("crj_reproduction", "test"): rows}, agents=["image_stats"])
    lines = [c for c in report.checks if c.agent == "image_stats"]
    assert lines and all(c.status == "info" and "not judged" in c.check for c in lines)


@pytest.mark.parametrize("name", sorted(STATISTICS))
def test_every_statistic_is_a_finite_number_that_moves(name):
    rng = np.random.default_rng(1)
    values = {describe(_png(_boxes(rng), w)).values[name] for w in (170, 150, 170, 120)}
    assert all(math.isfinite(v) for v in values)
    assert STATISTICS[name].__doc__, "every statistic says what it measures (the list is the documentation)"


def test_pair_features_follow_the_presented_order():
    rng = np.random.default_rng(2)
    a, b = describe(_png(_boxes(rng))), describe(_png(_boxes(rng), 140))
    ab, ba = features([a, b]), features([b, a])
    assert ab["d.width"] == 30 and ba["d.width"] == -30
    assert {f"p.{k}" for k in PAIR_STATISTICS} <= ab.keys() and ab["p.pixel_identical"] == 0
    assert features([a, a])["p.pixel_identical"] == 1


def test_the_reader_decodes_each_image_once_and_only_for_wanted_rows(monkeypatch):
    import chartprobe.dataset_builders.core.image_statistics as stats

    calls = []
    monkeypatch.setattr(stats, "describe", lambda data: calls.append(data) or "px")
    reader = PixelReader(lambda row: row["want"])
    cell = {"bytes": b"png-bytes", "path": None}
    assert reader({"want": True}, "image", cell) == "px" and reader({"want": True}, "image", dict(cell)) == "px"
    assert reader({"want": False}, "image", cell) is None
    assert len(calls) == 1


def test_whole_picture_perception_is_left_to_the_skill_and_particular_marks_stay_judged():
    """On the full probes release image_stats read 96% on P-HEIGHT-2X ("is the biggest bar more than
    twice the smallest?") from ink statistics: measuring the picture is the skill that probe asks for.
    Whole-picture templates are exempt from the image and file statistics agents; the rest are not."""
    from chartprobe.dataset_builders.probes.templates import TEMPLATES
    from chartprobe.eval_tasks.validity.agents import AGENTS
    from chartprobe.eval_tasks.validity.agents.image_stats import eligible

    TEMPLATES.load()
    whole = sorted(n for n, cls in TEMPLATES.items() if getattr(cls, "whole_picture", False))
    assert whole == ["P-COLOR-DISTINCT", "P-COUNT-BARS", "P-HEIGHT-2X", "P-TREND-PATTERN"]
    assert all(TEMPLATES.get(n).skill == "perception" for n in whole)
    suite = suite_for_release("probes")
    row = {"template_id": "P-HEIGHT-2X", "answer": "yes", "answer_type": "bool", "skill": "perception"}
    other = {**row, "template_id": "P-HEIGHT-COMPARE"}
    assert suite.pixels_are_evidence(row) and not suite.pixels_are_evidence(other)
    assert not eligible(suite, row) and eligible(suite, other)
    meta = {"image": {"width": 640, "height": 480, "bytes": 9000, "format": "png"}}
    docs = [{**r, "id": f"{r['template_id']}-{i}", "chart_id": f"c{i}", "split": "test", "image_meta": meta}
            for i in range(8) for r in (row, other)]
    preds = AGENTS.get("metadata")().predict(suite, docs)
    assert all(p is None for d, p in zip(docs, preds) if d["template_id"] == "P-HEIGHT-2X")


def test_a_cpa_pair_whose_flaw_is_the_whole_picture_is_left_to_the_skill():
    """Every mark faint, thin, heavy or too light: ink and saturation *are* the flaw a judge sees
    (``Strategy.whole_picture``), as the figure's shape is an aspect-ratio pair's. A flaw in
    particular marks or text (clipped bars, a phantom series, a sunken title) stays judged."""
    from chartprobe.dataset_builders.judge.flaws import FLAWS

    whole = sorted(st.name for n in FLAWS.names() for st in FLAWS.get(n).strategies if st.whole_picture)
    assert whole == ["low_visibility", "too_faint", "too_heavy", "too_thin"]
    suite = suite_for_release("judge")
    faint = {"pair_id": "cpa-visual_style-0000", "order": "better_first", "criterion": "visual_style",
             "strategy": "too_faint", "answer": "A", "answer_type": "choice"}
    clipped = {**faint, "criterion": "axis_scaling", "strategy": "clip_max"}
    squashed = {**faint, "criterion": "aspect_ratio", "strategy": "vertical_squash"}
    assert suite.pixels_are_evidence(faint) and suite.pixels_are_evidence(squashed)
    assert not suite.pixels_are_evidence(clipped) and not suite.size_is_evidence(faint)
    assert not suite.pixels_are_evidence({"item_id": "crj-0", "answer": "Accept", "task": "reproduction"})
