"""Reference agents: each one on hand-made rows, and their predictions through `chartprobe score`
equal the in-harness aggregation (eval_tasks/harness/tasks/probes_utils.py) for the same rows."""

from __future__ import annotations

import json
import math
from collections import Counter
from statistics import fmean

import pytest
from chartprobe.dataset_builders.core.programs import Program
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS
from chartprobe.eval_tasks.harness.tasks import probes_utils
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows
from chartprobe.eval_tasks.rescoring.rescore import score_samples
from chartprobe.eval_tasks.suites import SUITES, suite_for_release
from chartprobe.eval_tasks.suites._task_index import task_index
from chartprobe.eval_tasks.validity.agents import AGENTS
from chartprobe.eval_tasks.validity.validate import run_agents, write_agent_samples

EXPECTED_AGENTS = {"oracle", "blind", "stale", "legend_order", "never_abstain", "always_abstain",
                   "first_position", "always_accept", "random",
                   # issue 14: image-side and answer-set shortcut agents
                   "position_prior", "metadata", "anti_stale", "answer_everything", "text_reader",
                   # issue 45: LegendBench binding and abstention shortcuts
                   "first_entry", "incomplete_legend",
                   # issue 45: learned pixel statistics
                   "image_stats"}


def test_every_agent_of_the_issue_is_registered_with_a_description():
    assert set(AGENTS.names()) == EXPECTED_AGENTS
    assert all(cls.description for _, cls in AGENTS.items())
    assert {"probes", "smoke"} <= set(SUITES.names())


def _row(**kw):
    base = {"id": "r0", "question": "Q?", "answer": "yes", "answer_type": "bool", "template_id": "T"}
    return {**base, **kw}


def test_stale_answers_every_family_member_with_the_original_answer():
    rows = [_row(id="o", family_id="f1", role="original", answer="5", answer_type="integer"),
            _row(id="v1", family_id="f1", role="variant", answer="5", answer_type="integer"),
            _row(id="v2", family_id="f1", role="variant", answer="7", answer_type="integer"),
            _row(id="x", family_id="f2", role="variant", answer="3", answer_type="integer")]
    suite = suite_for_release("smoke")  # any typed scorer: stale only needs family columns
    preds = AGENTS.get("stale")().predict(suite, rows)
    assert preds == ["5", "5", "5", None]  # no original in f2: nothing to be stale about
    correct = [suite.score(r, p)["correct"] for r, p in zip(rows[1:3], preds[1:3])]
    assert correct == [True, False]  # right exactly where the variant's answer did not change


def test_first_position_and_always_accept_answer_only_their_items():
    suite = suite_for_release("smoke")
    cpa = [_row(answer="A", answer_type="choice"), _row(answer="B", answer_type="choice")]
    crj = [_row(answer="Accept", answer_type="choice"), _row(answer="Reject", answer_type="choice")]
    first, accept = AGENTS.get("first_position")(), AGENTS.get("always_accept")()
    assert first.predict(suite, cpa) == ["A", "A"] and first.predict(suite, crj) == [None, None]
    assert accept.predict(suite, crj) == ["Accept", "Accept"] and accept.predict(suite, cpa) == [None, None]
    scored = [suite.score(r, "A")["correct"] for r in cpa]
    assert scored == [True, False]  # one pass right, the swapped pass wrong: two-pass credit 0
    assert not first.applies_to_suite(suite) and first.applies_to_suite(type("S", (), {"name": "judge"})())


def _pie_view(seed):
    domain = PROBE_DOMAINS["pie"]
    spec = domain.sample(rng_for(seed, "legend-agent"), "medium")
    return spec, domain.view(spec, {})


def test_legend_order_reads_rank_answers_off_the_legend():
    spec, _ = _pie_view(3)
    legend = list(spec.data.categories)  # the probes' pie legend lists segments in data order
    agent, suite = AGENTS.get("legend_order")(), suite_for_release("probes")

    def row(op, **args):
        return _row(spec=spec.to_json(), program=Program(op, args).to_json(), answer_type="label")

    assert agent.answer(suite, row("extreme_label", largest=True)) == legend[0]
    assert agent.answer(suite, row("extreme_label", largest=False)) == legend[-1]
    assert json.loads(agent.answer(suite, row("top_k_labels", k=3))) == legend[:3]
    assert agent.answer(suite, row("rank_of", label=legend[2])) == "3"
    assert agent.answer(suite, row("label_at_position", k=2)) is None  # reading order, not a shortcut
    # LegendBench-style rank question naming a target: the target's legend-entry position.
    target = {**_row(spec=spec.to_json(), answer_type="integer", answer="1"), "target": legend[1]}
    assert agent.answer(suite, target) == "2"
    bar = PROBE_DOMAINS["bar"].sample(rng_for(0, "bar"), "simple")  # no box legend: no shortcut
    assert agent.answer(suite, _row(spec=bar.to_json(), program=Program("extreme_label", {"largest": True}).to_json())) is None


def test_legend_order_follows_a_reordered_legend():
    import dataclasses

    spec, _ = _pie_view(5)
    order = tuple(reversed(range(len(spec.data.categories))))
    spec = dataclasses.replace(spec, legend=dataclasses.replace(spec.legend, order=order))
    row = _row(spec=spec.to_json(), program=Program("extreme_label", {"largest": True}).to_json())
    assert AGENTS.get("legend_order")().answer(suite_for_release("probes"), row) == spec.data.categories[-1]


def test_blind_uses_other_splits_or_cross_fitted_halves_and_catches_text_leaks():
    from chartprobe.eval_tasks.validity.agents._fit import unit_half

    suite, blind = suite_for_release("probes"), AGENTS.get("blind")()
    train = [_row(id=f"t{i}", answer="no" if i % 3 else "yes") for i in range(9)]
    assert blind.predict(suite, [_row(answer="yes")], train) == ["no"]  # majority of the fit split
    one = [_row(id=f"u{i}", answer=("yes", "yes", "no")[i % 3]) for i in range(12)]
    expected = []
    for r in one:  # each row answered by the majority of the *other* half of the units
        other = Counter(x["answer"] for x in one if unit_half(x["id"]) != unit_half(r["id"]))
        expected.append(min(other.items(), key=lambda kv: (-kv[1], kv[0]))[0] if other else "")
    assert blind.predict(suite, one) == expected
    # Balanced binary golds: leave-one-out would be wrong on every row; halves are near chance.
    balanced = [_row(id=f"b{i}", answer=("yes", "no")[i % 2]) for i in range(40)]
    hits = sum(p == r["answer"] for p, r in zip(blind.predict(suite, balanced), balanced))
    assert 8 <= hits <= 32
    leaky = [_row(id=str(i), question=f"Q? [{a}]", answer=a) for i, a in enumerate(["yes", "no"] * 4)]
    preds = blind.predict(suite, leaky[:4], leaky[4:])
    assert preds == [r["answer"] for r in leaky[:4]]


def test_random_is_seeded_and_stays_in_the_answer_space():
    suite, agent = suite_for_release("probes"), AGENTS.get("random")()
    spec, _ = _pie_view(1)
    rows = [_row(id=f"r{i}", spec=spec.to_json(), answer=spec.data.categories[0], answer_type="label",
                 program=Program("extreme_label", {"largest": True}).to_json()) for i in range(30)]
    preds = agent.predict(suite, rows)
    assert preds == agent.predict(suite, list(reversed(rows)))[::-1]  # per-row streams, order-free
    assert set(preds) <= set(spec.data.categories) and len(set(preds)) > 1
    bools = agent.predict(suite, [_row(id=f"b{i}") for i in range(40)])
    assert set(bools) == {"yes", "no"}


def test_abstain_agents():
    suite = suite_for_release("probes")
    rows = [_row(answer="4", answer_type="integer"), _row(answer="I don't know", answer_type="abstain")]
    never = AGENTS.get("never_abstain")().predict(suite, rows)
    always = AGENTS.get("always_abstain")().predict(suite, rows)
    assert never[0] == "4" and suite.score(rows[1], never[1])["correct"] is False
    assert [suite.score(r, p)["correct"] for r, p in zip(rows, always)] == [False, True]


@pytest.fixture(scope="module")
def probe_runs(probes_release):
    rows = load_release_rows(probes_release)
    return run_agents("probes", rows, ["oracle", "blind", "random", "legend_order", "always_abstain"])


def _harness_metrics(task, rows, preds):
    """eval_tasks/harness/tasks/probes_utils.py process_probe/process_cr per row, aggregated as the YAML says:
    (domain, template, value) items by the template macro mean, plain values by lm-eval's `mean`."""
    fn = (probes_utils.process_cr if task.config.startswith("cr_") else
          probes_utils.process_style if task.config.startswith("style_shift_") else probes_utils.process_probe)
    per_row = [fn(r, [p]) for r, p in zip(rows, preds)]
    own = {"style_gap": probes_utils.style_gap, "style_consistency": probes_utils.style_consistency}
    return {k: own[k]([d[k] for d in per_row]) if k in own else
            probes_utils.template_macro([d[k] for d in per_row]) if isinstance(per_row[0][k], tuple)
            else fmean(d[k] for d in per_row) for k in per_row[0]}


def test_agent_predictions_through_score_equal_the_in_harness_aggregation(probe_runs, probes_release, tmp_path):
    write_agent_samples(probe_runs, tmp_path / "samples")
    # Over the rows each agent answers (agents skip rows they do not apply to), as in the harness.
    results = score_samples([tmp_path / "samples"], releases=probes_release.parent, allow_partial=True)
    index, compared = task_index(), 0
    for (agent, config, split), run in probe_runs.runs.items():
        for task in (t for t in index.values() if t.release == "probes"):
            picked = [(r, p) for r, p in zip(run.rows, run.predictions) if task.selects(config, split, r)]
            if not picked:
                continue
            want = _harness_metrics(task, *zip(*picked))
            got = results["models"][agent]["tasks"][task.task]
            assert got["n"] == len(picked)
            assert set(got["metrics"]) == set(want), task.task
            for k, v in want.items():
                assert math.isclose(got["metrics"][k], v, abs_tol=1e-12), (agent, task.task, k)
            compared += 1
    assert compared >= 3 * 15  # oracle, blind and random on every probes task at least
    assert {t["metrics"]["accuracy"] for t in results["models"]["oracle"]["tasks"].values()} == {1.0}


def test_an_agent_overriding_neither_hook_is_refused():
    import pytest
    from chartprobe.eval_tasks.validity.agents._base import Agent

    with pytest.raises(TypeError, match="must override answer\\(\\) or predict\\(\\)"):
        type("Mute", (Agent,), {})
