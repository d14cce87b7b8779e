"""Fresh private test sets: ``chartprobe validate --across-seeds`` over releases built with other seeds."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.eval_tasks.rescoring.predictions import PredictionsError
from chartprobe.eval_tasks.validity.seed_check import _homogeneity, agreement_checks, mix_of, seed_check

from chartprobe.cli import main


@pytest.fixture(scope="module")
def seeded(tmp_path_factory, release_root):
    """Seeds 0 (the session release), 1 and 2 of the small smoke, probes and judge presets."""
    out = {}
    for name in ("smoke", "probes", "judge"):
        paths = [release_root / f"chartprobe-{name}"]
        for seed in (1, 2):
            paths.append(build_release(name, tmp_path_factory.mktemp(f"{name}{seed}"), "small", seed=seed,
                                       num_proc=2).path)
        out[name] = paths
    return out


@pytest.mark.parametrize("name", ["smoke", "probes", "judge"])
def test_three_seeds_of_a_small_preset_pass_the_seed_check(seeded, name):
    report = seed_check(seeded[name])
    assert not report.failed, [(c.check, c.scope, c.agent, c.value) for c in report.failed]
    kinds = Counter(c.check for c in report.checks)
    configs = {c.scope.split("/")[0] for c in report.checks if c.check == "seed mix"}
    assert kinds["seed mix"] == kinds["seed fresh"] == kinds["seed mix exact"] >= len(configs) >= 1
    agreed = {(c.agent, c.scope) for c in report.checks if c.check == "seed agreement"}
    assert {"oracle", "random"} <= {a for a, _ in agreed} and {s for _, s in agreed} == configs
    assert "image_stats" not in {a for a, _ in agreed}  # learned: judged on seeds pooled (--pool-seeds)


def test_a_seed_whose_rows_repeat_another_fails_freshness(seeded, tmp_path):
    """A copy of seed 0 relabelled seed 9: same mix, same scores, but every row repeated."""
    copy = tmp_path / "chartprobe-smoke"
    shutil.copytree(seeded["smoke"][0], copy)
    card = (copy / "README.md").read_text()
    assert card.count("  seed: 0\n") == 2  # the card's seed and its recipe's
    (copy / "README.md").write_text(card.replace("  seed: 0\n", "  seed: 9\n"))
    report = seed_check([seeded["smoke"][0], copy])
    assert [c.check for c in report.failed] == ["seed fresh"]


def test_a_mix_that_moves_with_the_seed_fails():
    same = [Counter({("answer type", "number"): 30, ("answer type", "text"): 30})] * 3
    moved = [Counter({("answer type", "number"): 30, ("answer type", "text"): 30}),
             Counter({("answer type", "number"): 55, ("answer type", "text"): 5})]
    assert _homogeneity(same) == 1.0 and _homogeneity(moved) < 0.05
    assert mix_of([{"template_id": "P-1", "spec": '{"kind": "bar"}', "answer_type": "number"},
                   {"template_id": "P-2", "spec": '{"kind": "bar"}', "answer_type": "number"},
                   {"spec": '{"version": "chartprobe.scene/1"}', "answer_type": "text"}]) == Counter({
        ("template", "P-1"): 1, ("template", "P-2"): 1, ("chart kind", "bar"): 1, ("chart kind", "scene"): 1,
        ("answer type", "number"): 1, ("answer type", "text"): 1})  # a chart's kind and answer types count once


def test_releases_of_one_seed_or_of_other_presets_are_refused(seeded, release_root):
    with pytest.raises(PredictionsError, match="different seeds"):
        seed_check([seeded["smoke"][0], seeded["smoke"][0]])
    with pytest.raises(PredictionsError, match="not the same dataset"):
        seed_check([seeded["smoke"][0], seeded["probes"][1]])
    with pytest.raises(PredictionsError, match="at least two"):
        seed_check([seeded["smoke"][0]])


def test_validate_across_seeds_cli(seeded, tmp_path, capsys):
    assert main(["validate", *map(str, seeded["smoke"]), "--across-seeds", "--out", str(tmp_path / "v")]) == 0
    assert "(across seeds)" in capsys.readouterr().out and (tmp_path / "v" / "validity.json").is_file()
    assert main(["validate", *map(str, seeded["smoke"]), "--across-seeds", "--write-card"]) == 2


def test_agreement_is_family_wise_yet_sees_a_real_drift():
    """100 agent x config pairs: 0.10 apart on 200 rows a seed is chance; 0.30 apart is a drift."""
    pooled = {(f"agent{i}", "bar"): [(100.0, 200), (100.0, 200)] for i in range(98)}
    pooled[("random", "bar")] = [(90.0, 200), (110.0, 200)]
    pooled[("blind", "bar")] = [(70.0, 200), (130.0, 200)]
    checks = {c.agent: c for c in agreement_checks(pooled)}
    assert len(checks) == 100 and "99.95%" in checks["random"].threshold
    assert checks["random"].status == "pass" and checks["blind"].status == "fail"
    assert round(checks["blind"].value, 3) == 0.3
