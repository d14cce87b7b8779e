"""The OA→VA sign-flip test resamples source templates, not families (issue #22, part 4).

Families of one source template are draws of one generator (28 per template in the full
release); flipping their signs independently makes one template's effect look like 28
independent replications.
"""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.metrics import families as fm


def _family(fid, source, original, variants):
    recs = [{"family_id": fid, "role": "original", "correct": original, "normalized": "a"},
            {"family_id": fid, "role": "reconstruction", "correct": original, "normalized": "a"}]
    recs += [{"family_id": fid, "role": "variant", "variant_seed": j, "correct": ok, "normalized": f"p{j}"}
             for j, ok in enumerate(variants)]
    for r in recs:
        if source is not None:
            r["source"] = source
    return recs


def _one_template_carries_the_effect():
    """28 families of template T solved originally and failed on every variant; 10 other
    templates (3 families each) with no OA→VA change, half solved and half not."""
    recs = [r for k in range(28) for r in _family(f"T-{k:04d}", "T", True, [False] * 10)]
    for t in range(10):
        for k in range(3):
            ok = (t + k) % 2 == 0
            recs += _family(f"S{t}-{k:04d}", f"S{t}", ok, [ok] * 10)
    return recs


def _effect_spread_over_templates(n_templates=12, per_template=3):
    """Every template: one of its families loses on the variants, the others are unchanged."""
    recs = []
    for t in range(n_templates):
        for k in range(per_template):
            variants = [False] * 10 if k == 0 else [True] * 10
            recs += _family(f"S{t}-{k:04d}", f"S{t}", True, variants)
    return recs


def _utils():
    from chartprobe.eval_tasks.harness.tasks import families_utils

    return families_utils


def test_one_template_carrying_the_whole_effect_is_not_significant():
    recs = _one_template_carries_the_effect()
    per_family = fm.sign_flip_test(recs, cluster=None)  # the old test: every family its own unit
    clustered = fm.sign_flip_test(recs)
    assert per_family < 0.05  # 28 "independent" families all worse: p ~ 1e-4 (resampled, 58 families)
    assert clustered >= 0.05  # 11 clusters, only one non-zero: exact p = 1
    assert clustered == pytest.approx(1.0)
    assert fm.sign_flip_clusters(recs) == 11 and fm.sign_flip_clusters(recs, cluster=None) == 58
    summary = fm.family_summary(recs)
    assert summary["RVC_p"] == pytest.approx(clustered) and summary["RVC_stars"] == ""
    assert summary["RVC_p_clusters"] == 11


def test_effect_spread_over_many_templates_stays_significant():
    recs = _effect_spread_over_templates()
    p = fm.sign_flip_test(recs)
    assert p < 0.05
    assert p == pytest.approx(2 / 2 ** 12)  # 12 clusters, all negative: exact enumeration
    # Same 12 clusters whether each template's total comes from 3 families or 1.
    assert fm.sign_flip_test(_effect_spread_over_templates(per_template=1)) == pytest.approx(p)


def test_cluster_totals_weight_templates_by_their_families():
    """A template with more families weighs more (the statistic is the families' mean change):
    a big negative template is not cancelled by a small positive one."""
    recs = [r for k in range(4) for r in _family(f"A-{k}", "A", True, [False] * 10)]
    recs += _family("B-0", "B", False, [True] * 10)
    recs += [r for t in range(3) for r in _family(f"C{t}-0", f"C{t}", True, [False] * 10)]
    # Cluster totals A -4, B +1, C0..C2 -1 each; observed sum -6. The exact p counts the 2^5
    # sign patterns whose |sum| >= 6 (with cluster means A would weigh as much as B).
    import itertools

    totals = [-4.0, 1.0, -1.0, -1.0, -1.0]
    obs = abs(sum(totals))
    hits = sum(abs(sum(s * t for s, t in zip(signs, totals))) >= obs - 1e-12
               for signs in itertools.product((1, -1), repeat=5))
    assert fm.sign_flip_test(recs) == pytest.approx(hits / 2 ** 5)


def test_records_without_a_source_fall_back_to_families():
    recs = [r for i in range(12) for r in _family(f"f{i}", None, True, [False] * 10)]
    assert fm.sign_flip_test(recs) == pytest.approx(2 / 2 ** 12)
    # Mixed: 28 families of T collapse into one cluster, 3 source-less families stay alone.
    mixed = [r for k in range(28) for r in _family(f"T-{k}", "T", True, [False] * 10)]
    mixed += [r for i in range(3) for r in _family(f"x{i}", None, True, [False] * 10)]
    assert fm.sign_flip_clusters(mixed) == 4
    assert fm.sign_flip_test(mixed) == pytest.approx(2 / 2 ** 4)


def test_source_survives_the_lm_eval_round_trip_and_all_paths_agree():
    """process_results -> to_item -> from_items keeps ``source``; lm-eval's rvc_p, the suite
    summary (``chartprobe score`` / ``report``) and the metric print one clustered p."""
    doc = {"family_id": "T-0000", "role": "variant", "variant_seed": 3, "question": "How many?",
           "answer": "42", "answer_type": "number", "original_answer": "40", "source": "T"}
    rec = fm.score_family_record(doc, "<answer>42</answer>")
    assert rec["source"] == "T"
    item = _utils().process_results(doc, ["<answer>42</answer>"])["relative_variant_change_p"]
    assert fm.from_items([item])[0]["source"] == "T"
    legacy = {k: v for k, v in rec.items() if k in fm.ITEM_FIELDS and k != "source"}
    assert fm.from_items([fm.to_item(legacy)]) == [legacy]  # no source stays no source

    from chartprobe.eval_tasks.suites import suite_for_release

    for recs in (_one_template_carries_the_effect(), _effect_spread_over_templates()):
        p = fm.sign_flip_test(recs)
        assert _utils().relative_variant_change_p([fm.to_item(r) for r in recs]) == pytest.approx(p)
        assert suite_for_release("families").summarize(recs)["RVC_p"] == pytest.approx(p)


def test_scored_release_rows_carry_their_source(release_root):
    from datasets import load_dataset

    rows = load_dataset(str(release_root / "chartprobe-families"), "all", split="test")
    rows = rows.remove_columns(["image"]).to_list()
    utils = _utils()
    recs = fm.from_items([utils.process_results(r, [f"<answer>{r['original_answer']}</answer>"])["original_accuracy"]
                          for r in rows])
    assert {r["source"] for r in recs} == {r["source"] for r in rows}
    assert fm.sign_flip_clusters(recs) == len({r["source"] for r in rows})


def test_a_cluster_whose_families_cancel_totals_exactly_zero():
    """-0.3 + 0.3 - 0.6 + 0.6 in float is not 0; the totals are rounded so p is exactly 1."""
    recs = []
    for t in range(12):
        for k, (orig, hits) in enumerate([(True, 7), (False, 3), (True, 4), (False, 6)]):
            recs += _family(f"S{t}-{k}", f"S{t}", orig, [True] * hits + [False] * (10 - hits))
    assert fm.sign_flip_test(recs) == 1.0
