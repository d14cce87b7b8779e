"""LegendBench shortcuts that need no legend reading (issue 45): a binding to the first legend
entries and "abstain whenever the legend is incomplete". Each agent is caught on a planted set of
rows built the way the builder used to (every question about the first entry; occlusions with no
answerable partner) and sits at chance on the same charts built the way it builds now."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.legend.builder import _verify_unique_questions
from chartprobe.dataset_builders.legend.groups import TWIN, group_rows
from chartprobe.dataset_builders.legend.interventions import INTERVENTIONS
from chartprobe.dataset_builders.legend.rows import RowMaker
from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES
from chartprobe.dataset_builders.legend.templates._base import ABSTAIN
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._legend_binding import random_binding_accuracy
from chartprobe.eval_tasks.validity.agents import AGENTS
from chartprobe.eval_tasks.validity.validate import run_agents

BASES = 24
SPACE = LegendSpace(chart_kinds=("line",), legend_forms=("box",), encoding_modes=("single",),
                    num_series=(4, 4), themes=("default",), add_labels=(False,),
                    legend_positions=("outside right",), legend_columns=(1,))


def _maker(i: int) -> RowMaker:
    unit = sample_unit(SPACE, rng_for(7, "shortcut-test", i), kind="line", mode="single", channels=("color",),
                       form="box")
    return RowMaker(unit, f"b{i:02d}", 7)


def _rng(*keys):
    return rng_for(7, "shortcut-test", *keys)


def _binding_rows(first: bool) -> list[dict]:
    """A value and a comparison question per chart, about the first entries or drawn ones."""
    rows = []
    for i in range(BASES):
        maker, r = _maker(i), _rng("targets", i)
        st = maker.state()
        labels = list(st.labels)
        order = [0, 1] if first else [int(k) for k in r.permutation(len(labels))[:2]]
        a, b = labels[order[0]], labels[order[1]]
        for name, params in (("t2_value", {"labels": [a], "point": 1}),
                             ("t3_compare", {"labels": [a, b], "point": 2})):
            row = maker.row(f"{maker.base_id}-{name}", st, name, params, group_id=f"{maker.base_id}-{name}")
            if row is not None:
                rows.append(row)
    return rows


def _lines(rows: list[dict], check: str, agent: str) -> list:
    runs = run_agents("legend", {("study", "test"): rows}, [agent, "oracle"])
    suite = suite_for_release("legend")
    return [c for c in suite.checks(runs) if c.check.startswith(check) and c.agent == agent]


def test_first_entry_agent_binds_the_named_labels_to_the_first_entries():
    maker = _maker(0)
    st = maker.state()
    labels = st.labels
    row = maker.row("r", st, "t2_value", {"labels": [labels[2]], "point": 0}, group_id="g")
    agent, suite = AGENTS.get("first_entry")(), suite_for_release("legend")
    value = LEGEND_TEMPLATES.get("t2_value")().answer(st, {"labels": [labels[0]], "point": 0})
    assert agent.answer(suite, row) == value
    # a random binding is right once in four here: only the target's own series gives its value
    assert random_binding_accuracy(suite, row) == pytest.approx(0.25)
    # an item-anchored question names no label to bind: not answered
    cue = maker.row("c", st, "t1_visual_to_label", {"item": 1}, group_id="c")
    assert agent.answer(suite, cue) is None


@pytest.mark.parametrize("first, fails", [(True, True), (False, False)])
def test_first_entry_check_catches_questions_that_always_target_the_first_entry(first, fails):
    (line, _worst) = _lines(_binding_rows(first), "first_entry gap over random binding", "first_entry")
    assert (line.status == "fail") is fails, line


def _answerability_rows(paired: bool) -> list[dict]:
    """A value question per chart, under ``hide_target`` and ``mask_full``, with or without the
    answerable ``hide_distractor`` twins the builder now pairs them with."""
    rows = []
    tpl = LEGEND_TEMPLATES.get("t2_value")()
    for i in range(BASES):
        maker = _maker(i)
        st = maker.state()
        params = {"labels": [st.labels[int(_rng("target", i).integers(4))]], "point": 1}
        base = maker.row(f"{maker.base_id}-q", st, tpl, params, group_id=f"{maker.base_id}-q")
        rows.append(base)
        if paired:
            rows += group_rows(maker, base, tpl, params, ["hide_target", "mask_full"], _rng)
            continue
        for name in ("hide_target", "mask_full"):  # the paper's occlusions alone
            probe_rows = list(group_rows(maker, base, tpl, params, [name], _rng))
            rows += [r for r in probe_rows if r["intervention"] != TWIN]
    return rows


@pytest.mark.parametrize("paired, fails", [(False, True), (True, False)])
def test_incomplete_legend_check_needs_answerable_partial_legends(paired, fails):
    rows = _answerability_rows(paired)
    unanswerable = sum(r["answer"] == ABSTAIN for r in rows)
    twins = sum(r["intervention"] == TWIN for r in rows)
    assert unanswerable == 2 * BASES and twins == (unanswerable if paired else 0)
    (line, _worst) = _lines(rows, "incomplete_legend gap over question-only abstention", "incomplete_legend")
    assert (line.status == "fail") is fails, line


def test_hide_distractor_keeps_every_entry_the_question_reads():
    maker = _maker(3)
    st = maker.state()
    tpl = LEGEND_TEMPLATES.get("t3_compare")()
    params = {"labels": [st.labels[1], st.labels[3]], "point": 0}
    from chartprobe.dataset_builders.legend.groups import _probe

    probe = _probe(tpl, st, params)
    legends = INTERVENTIONS.get(TWIN)().apply(st, probe, np.random.default_rng(0))
    assert len(legends) == 3  # the other two entries: {0}, {2}, {0, 2}
    for lg in legends:
        new = maker.state(lg)
        assert not all(lg.visible) and set(tpl.evidence(st, params)) <= new.visible_evidence()
        assert tpl.gold(new, params) == tpl.gold(st, params)


def test_the_same_question_on_the_same_image_is_asked_once():
    maker = _maker(5)
    st = maker.state()
    params = {"labels": [st.labels[0]], "point": 1}
    assert maker.row("a", st, "t2_value", params, group_id="a") is not None
    assert maker.row("b", st, "t2_value", params, group_id="b") is None
    with pytest.raises(ValueError, match="rows a and b ask the same question on the same image"):
        _verify_unique_questions("x/test", {"id": ["a", "b"], "spec": ["s", "s"], "question": ["q", "q"]})


@pytest.fixture(scope="module")
def legend_release(release_root: Path) -> dict[str, list[dict]]:
    from datasets import load_dataset

    folder = str(release_root / "chartprobe-legend")
    return {c: [r for split in load_dataset(folder, c).values() for r in split.remove_columns("image")]
            for c in ("snapshot", "channel_study", "visibility_study")}


@pytest.mark.parametrize("config", ["snapshot", "visibility_study"])
def test_every_unanswerable_occlusion_has_its_answerable_twin(legend_release, config):
    ids = {r["id"] for r in legend_release[config]}
    abstain = [r for r in legend_release[config] if r["expected"] == "abstain"]
    assert abstain
    for r in abstain:
        twin = f"{r['id']}-{TWIN}"
        assert twin in ids, r["id"]
    for r in legend_release[config]:
        if r["intervention"] == TWIN:
            assert r["answer"] != ABSTAIN and not all(json.loads(r["legend_spec"])["visible"])


def test_channel_study_targets_are_not_always_the_first_entry(legend_release):
    positions = defaultdict(set)
    for r in legend_release["channel_study"]:
        positions[r["base_id"]].add(r["target_legend_index"])
    assert {p for ps in positions.values() for p in ps} - {1}, positions
