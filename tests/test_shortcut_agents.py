"""Issue 14: the image-side and answer-set shortcut agents, and deliberately broken releases.

Each broken release plants one shortcut — sorted series, size-leaking reproductions, forced
binary answer flips, a legend over a needed mark — and ``validate`` (or the build) must fail
on exactly the matching checks, with one clear line each.
"""

from __future__ import annotations

import io
import json

import pytest
from chartprobe.dataset_builders.core.occlusion import covered_share, occlusions
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.validity.agents import AGENTS
from chartprobe.eval_tasks.validity.validate import validate_release
from test_validate import _corrupt

SHORTCUT_AGENTS = ("position_prior", "metadata", "anti_stale", "answer_everything", "text_reader")


def _failed(report) -> set[tuple[str, str]]:
    return {(c.check, c.scope) for c in report.failed}


def _preset(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


# -- the agents themselves -------------------------------------------------------------------

def test_every_shortcut_agent_is_registered_and_checked(release_root):
    assert set(SHORTCUT_AGENTS) <= set(AGENTS.names())
    report = validate_release(release_root / "chartprobe-probes")
    agents = {c.agent for c in report.checks if "gap over chance" in c.check}
    assert {"position_prior", "answer_everything"} <= agents


def test_answer_everything_scores_nothing_on_lists_and_hedges():
    suite = suite_for_release("probes")
    spec = {"data": {"categories": ["A", "B", "C", "D"], "series": [{"name": "s", "values": [1, 2, 3, 4]}]}}
    row = {"id": "r", "answer": '["C", "D"]', "answer_type": "list", "spec": json.dumps(spec),
           "template_id": "R-RANK-ABOVE-AVG", "skill": "reasoning"}
    (pred,) = AGENTS.get("answer_everything")().predict(suite, [row])
    assert json.loads(pred) == ["A", "B", "C", "D", "s"]
    record = suite.score(row, pred)
    assert record["accuracy"] == 0.0 and record["paper_accuracy"] == 1.0  # recall is what it gamed
    assert record["list_f1"] == pytest.approx(2 * 2 / (5 + 2))
    bool_row = {"id": "b", "answer": "yes", "answer_type": "bool", "template_id": "P-HEIGHT-2X"}
    (hedge,) = AGENTS.get("answer_everything")().predict(suite, [bool_row])
    assert hedge == "yes or no" and suite.score(bool_row, hedge)["accuracy"] == 0.0


def test_metadata_agent_learns_a_size_rule_out_of_sample():
    suite = suite_for_release("judge")
    rows = []
    for i in range(40):
        accept = i % 2 == 0
        meta = {"image_reference": {"width": 640, "height": 480, "bytes": 9000, "format": "png"},
                "image_candidate": {"width": 700 if accept else 640, "height": 520 if accept else 480,
                                    "bytes": 9100, "format": "png"}}
        rows.append({"id": f"i{i}", "item_id": f"i{i}", "label": "Accept" if accept else "Reject",
                     "answer": "Accept" if accept else "Reject", "answer_type": "choice",
                     "task": "reproduction", "image_meta": meta})
    preds = AGENTS.get("metadata")().predict(suite, rows)
    assert preds == [r["answer"] for r in rows]  # a perfect rule, learnt on the other half


def test_text_reader_recomputes_perception_from_printed_value_labels(release_root):
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows

    suite = suite_for_release("probes")
    rows = [r for rs in load_release_rows(release_root / "chartprobe-probes").values() for r in rs
            if r["skill"] == "perception" and r["domain"] != "shapes"]
    labelled = []
    for r in rows[:5]:
        spec = json.loads(r["spec"])
        spec["style"]["value_labels"] = True
        labelled.append({**r, "spec": json.dumps(spec)})
    preds = AGENTS.get("text_reader")().predict(suite, labelled)
    assert all(suite.score(r, p)["correct"] for r, p in zip(labelled, preds) if p is not None)
    assert sum(p is not None for p in preds) >= 4
    assert AGENTS.get("text_reader")().predict(suite, rows[:5]) == [None] * 5  # nothing printed


# -- deliberately broken releases --------------------------------------------------------------

ORDER_CHECKS = {"position_prior gap over chance", "position_prior gap over chance, worst template",
                "strictly monotone series", "charts with an extreme at an end",
                "legend-order shortcut accuracy",
                # sorted series also fix the answer of "is position i taller than position j?",
                # which the question text then names and one answer dominates:
                "majority answer share", "blind gap over majority", "blind gap, worst template",
                # ascending bars also move the ink right, where the tallest sits: the learned pixel
                # agent may see the order too (bar AUC .82, lower bound .556 on the small preset)
                "image_stats AUC", "image_stats gap over chance", "image_stats gap over chance, worst template"}


def test_sorted_probe_series_fail_the_order_checks(tmp_path, monkeypatch):
    from chartprobe.dataset_builders.probes import domains

    real = domains.sample_regime_values

    def sorted_values(rng, n, lo, hi, order="shuffled"):  # every non-trend chart ascending
        return real(rng, n, lo, hi, order="ascending" if order == "shuffled" else order)

    monkeypatch.setattr(domains, "sample_regime_values", sorted_values)
    build_release("probes", tmp_path, "small")
    report = validate_release(tmp_path / "chartprobe-probes")
    names = {name for name, _ in _failed(report)}
    assert {"strictly monotone series", "position_prior gap over chance, worst template"} <= names
    assert names <= ORDER_CHECKS, names - ORDER_CHECKS  # no oracle, abstention or other agent check


def _png_sized(data: bytes, size: tuple[int, int]) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.open(io.BytesIO(data)).resize(size).save(out, format="PNG")
    return out.getvalue()


def _size(data: bytes) -> tuple[int, int]:
    from PIL import Image

    return Image.open(io.BytesIO(data)).size


def test_size_leaking_reproductions_fail_the_metadata_checks(tmp_path):
    preset = _preset(tmp_path, "judge-repro", "dataset: judge\npreset: repro\nseed: 0\nshard_size: 64\n"
                     "configs:\n  crj_reproduction: {splits: {test: 40}}\n")
    build_release("judge", tmp_path, preset)
    release = tmp_path / "chartprobe-judge"
    # The control is the hand-written agents': at 40 items the learned image_stats agent still finds
    # the reproduction generator's own pixel tells (its numbers are in docs/validity.md).
    hand_written = [n for n in AGENTS.names() if n != "image_stats"]
    assert not validate_release(release, agents=hand_written).failed

    def leak(row):  # only harmless re-renders change size: the old generator's shortcut
        w, h = _size(row["image_reference"]["bytes"])
        size = (int(w * 1.1), int(h * 1.1)) if row["label"] == "Accept" else (w, h)
        row["image_candidate"] = {"bytes": _png_sized(row["image_candidate"]["bytes"], size), "path": None}
        return row

    _corrupt(release, "crj_reproduction", leak)
    report = validate_release(release, agents=hand_written)
    assert _failed(report) and {n for n, _ in _failed(report)} <= {
        "metadata gap over chance", "metadata gap over chance, worst template"}, _failed(report)
    assert ("metadata gap over chance", "crj_reproduction/test") in _failed(report)


def test_forced_binary_flips_fail_the_anti_stale_checks(tmp_path, monkeypatch):
    from chartprobe.dataset_builders.families.source import FamilySource

    real = FamilySource._draw_regime

    def forced(self, regime, template, params, rng):  # redraw until the answer changes (the old bug)
        original = self.answer(template, params)
        spec = None
        for _ in range(40):
            spec = real(self, regime, template, params, rng)
            if spec is not None and self.answer(spec, params) != original:
                return spec
        return spec

    monkeypatch.setattr(FamilySource, "_draw_regime", forced)
    preset = _preset(tmp_path, "families-dist", "dataset: families\npreset: dist\nseed: 0\nshard_size: 400\n"
                     "configs:\n  distributions: {splits: {test: 32}}\n")
    build_release("families", tmp_path, preset)
    report = validate_release(tmp_path / "chartprobe-families")
    failed = _failed(report)
    assert ("anti_stale accuracy on a two-answer source", "distributions:scatter_correlation") in failed
    assert {n for n, _ in failed} <= {"anti_stale accuracy on a two-answer source", "anti_stale gap over chance",
                                      "anti_stale gap over chance, worst template"}, failed


def test_a_legend_over_a_needed_mark_is_refused_or_re_laid_out(monkeypatch):
    import dataclasses

    from chartprobe.dataset_builders.core.render import render, sample_spec
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.dataset_builders.families import builder as families_builder
    from chartprobe.dataset_builders.families.builder import visible_members
    from chartprobe.dataset_builders.families.source import Member

    assert covered_share((0, 0, 1, 1), (0, 0, 0.5, 1)) == pytest.approx(0.5)
    boxes = {"mark/0/0": (0.1, 0.1, 0.2, 0.2), "legend/box": (0.05, 0.05, 0.18, 0.3),
             "value_label/0/0": (0.1, 0.05, 0.2, 0.15)}  # its own label is not an occlusion
    assert [(o.text, o.mark) for o in occlusions(boxes)] == [("legend/box", "mark/0/0")]
    for i in range(40):  # a line chart whose legend, placed on the data, hides a marker
        spec = sample_spec("line", rng_for(0, "occluded", i))
        spec = spec.replace(legend=dataclasses.replace(spec.legend, form="box", position="center"))
        if occlusions(render(spec).boxes):
            break
    else:
        pytest.fail("no occluded line chart drawn")
    ((member, rendered),) = visible_members([Member("variant", 0, "r", spec, "q", "a")])
    assert member.spec.legend.position == "outside right" and not occlusions(rendered.boxes)
    # Where re-laying out cannot help (here: "outside" is the same spot), the build refuses.
    monkeypatch.setattr(families_builder, "OUTSIDE", "center")
    with pytest.raises(RuntimeError, match="covers"):
        visible_members([Member("variant", 0, "r", spec, "q", "a")])


def test_a_legend_release_whose_text_hides_a_mark_fails_the_visibility_check(release_root, tmp_path):
    import shutil

    release = tmp_path / "chartprobe-legend"
    shutil.copytree(release_root / "chartprobe-legend", release)

    def hide(row):
        row["occlusion_max"] = 0.4 if row["id"].endswith("-0") else row["occlusion_max"]
        return row

    _corrupt(release, "snapshot", hide)  # every split of the config (train, validation, test)
    failed = _failed(validate_release(release))
    splits = {p.name.split("-")[0] for p in (release / "snapshot").glob("*.parquet")}
    assert "test" in splits
    assert failed == {("evidence visible: max text cover of a data mark", f"snapshot/{s}") for s in splits}
