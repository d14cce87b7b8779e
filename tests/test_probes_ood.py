"""Out-of-template complex reasoning (``cr_ood_*``): primitive steps, the composition rule, the
separate phrase bank and its 4-gram check, the new templates' answers, and the build's refusal.

Parametrized over the template registry, so a new template is covered the moment it exists.
Fast: no session release; the one build is a tiny out-of-template preset in a tmp folder.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter

import pytest
from chartprobe.dataset_builders.core.programs import OPS, Program, answer_of
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.probes import steps as steps_mod
from chartprobe.dataset_builders.probes.builder import ProbesDataset
from chartprobe.dataset_builders.probes.compose import decompose, template_composition
from chartprobe.dataset_builders.probes.config_sets import (
    config_set,
    eligible_templates,
    pool_for,
    template_vocabulary,
)
from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS, TIERS
from chartprobe.dataset_builders.probes.out_of_template import check_templates, trained_steps, trained_wording
from chartprobe.dataset_builders.probes.phrase_bank_ood import OOD_PHRASINGS
from chartprobe.dataset_builders.probes.phrase_overlap import ngrams, shared_ngram, tokens
from chartprobe.dataset_builders.probes.steps import STEP_RULES, VOCABULARY, steps_of, variants_of
from chartprobe.dataset_builders.probes.templates import TEMPLATES

TEMPLATES.load()
ALL = sorted(TEMPLATES.names())
OOD = sorted(n for n, c in TEMPLATES.items() if c.out_of_template)
IN_TEMPLATE_CR = sorted(n for n, c in TEMPLATES.items() if c.held_out and not c.out_of_template)
OOD_CONFIGS = ("cr_ood_bar", "cr_ood_pie", "cr_ood_shapes")
CHARTS_PER_DOMAIN = 60
COMPOSITIONS = {"CR-SUM-ABOVE-AVG": "R-RANK-ABOVE-AVG + R-ARITH-TOTAL", "S-CR-COUNT-DIFF": "S-R-COUNT-DIFF"}
"""The in-template CR templates the rule flags, and the trained templates they decompose into."""


def _domains(cls) -> list[str]:
    """The probe domains (bar, hbar, pie, shapes) a template is asked in."""
    return [d for d, dom in PROBE_DOMAINS.items()
            if dom.template_domain == cls.domain and (cls.domain != "chart" or d in cls.kinds)]


def _views(domain: str, n: int = CHARTS_PER_DOMAIN):
    """(spec, view) of ``n`` charts or scenes the domain's own sampler draws (no render)."""
    d = PROBE_DOMAINS[domain]
    out = []
    for i in range(n):
        spec = d.sample(rng_for(7, "test_probes_ood", domain, i), TIERS[i % len(TIERS)])
        out.append((spec, d.view(spec, {})))
    return out


# -- primitive steps ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_every_template_op_has_steps_in_the_closed_vocabulary(name):
    op = TEMPLATES.get(name).op
    assert op in STEP_RULES, f"{name}: op {op!r} has no primitive steps"
    for seq in variants_of(op):
        assert seq and set(seq) <= set(VOCABULARY), (name, seq)


def test_every_probe_op_has_steps():
    probe_ops = [o for o, fn in OPS.items() if fn.__module__.startswith(TEMPLATES.package)]
    assert probe_ops and not [o for o in probe_ops if o not in STEP_RULES]
    assert set(STEP_RULES) <= set(OPS)  # no rule for an op that does not exist


def test_the_vocabulary_is_closed():
    with pytest.raises(ValueError, match="unknown or missing steps"):
        steps_mod.steps("__test_op__", "mean", "integrate")
    assert "__test_op__" not in STEP_RULES
    with pytest.raises(ValueError, match="registered twice"):
        steps_mod.steps("total", "sum")
    # Every recorded program picks one of its op's declared variants (args-dependent rules too).
    for domain in PROBE_DOMAINS:
        for _, view in _views(domain, 12):
            for t in eligible_templates(domain, False) + eligible_templates(domain, True):
                q = t.instantiate(view, rng_for(0, t.name))
                if q is not None:
                    assert steps_of(q.program) in variants_of(t.op)


def test_args_pick_the_variant():
    assert steps_of(Program("extreme_label", {"largest": False})) == ("argmin", "lookup_label")
    assert steps_of(Program("extreme_position", {"largest": True})) == ("argmax", "position")
    assert steps_of(Program("scene_count", {"where": {}})) == ("count",)
    assert steps_of(Program("scene_count", {"where": {"color": "red"}})) == ("filter_attr", "count")


# -- the composition rule -----------------------------------------------------------------------

TOY = {("mean", "filter_above"): ("RANK",), ("sum",): ("TOTAL",), ("mean",): ("MEAN",),
       ("sort_desc", "top_k"): ("TOP",), ("mean", "filter_above", "count"): ("COUNT-ABOVE",)}


@pytest.mark.parametrize(("seq", "want"), [
    (("mean", "filter_above"), "RANK"),                             # equal to one trained sequence
    (("mean", "filter_above", "sum"), "RANK + TOTAL"),              # contiguous segments
    (("sum", "sort_desc", "top_k"), "TOTAL + TOP"),                 # one trained step prepended
    (("mean", "filter_above", "count"), "COUNT-ABOVE"),             # fewest segments win
    (("mean", "mean", "sum"), "MEAN + MEAN + TOTAL"),
    (("sort_desc",), None),                                         # a prefix of a trained sequence
    (("mean", "filter_above", "lookup_label"), None),               # a step no segment covers
    (("sum", "mean", "filter_above", "median"), None),
    ((), None),
])
def test_word_break_over_trained_sequences(seq, want):
    found = decompose(seq, TOY)
    assert (found.templates() if found else None) == want


def test_the_rule_flags_exactly_the_known_compositions():
    flagged = {}
    for name in IN_TEMPLATE_CR:
        cls = TEMPLATES.get(name)
        for domain in _domains(cls):
            how = template_composition(cls(), trained_steps(domain))
            if how is not None:
                flagged[name] = how.templates()
    assert flagged == COMPOSITIONS


@pytest.mark.parametrize("name", OOD)
def test_no_out_of_template_template_is_a_composition(name):
    cls = TEMPLATES.get(name)
    assert cls.held_out and cls.skill == "complex"
    for domain in _domains(cls):
        assert template_composition(cls(), trained_steps(domain)) is None, (name, domain)
        check_templates(domain, [cls()])  # the build's gate: steps and wording


def test_enough_out_of_template_templates_per_domain():
    chart = [n for n in OOD if TEMPLATES.get(n).domain == "chart"]
    shapes = [n for n in OOD if TEMPLATES.get(n).domain == "shapes"]
    assert len(chart) >= 4 and len(shapes) >= 2
    for domain in ("bar", "hbar", "pie"):
        assert len(eligible_templates(domain, True, True)) >= 4, domain
    # each uses a primitive no trained template of its domain uses, or a new order of trained ones
    for name in OOD:
        cls = TEMPLATES.get(name)
        for domain in _domains(cls):
            trained = {s for seq in trained_steps(domain) for s in seq}
            (seq,) = variants_of(cls.op)
            assert set(seq) - trained or decompose(seq, trained_steps(domain)) is None


# -- the phrase bank and the 4-gram check ----------------------------------------------------

def test_out_of_template_phrasings_come_from_the_bank_and_only_them():
    assert sorted(OOD_PHRASINGS) == OOD
    for name in OOD:
        assert TEMPLATES.get(name).phrasings is OOD_PHRASINGS[name]
    for name in ALL:
        if name not in OOD:
            assert TEMPLATES.get(name).phrasings is not OOD_PHRASINGS.get(name)


@pytest.mark.parametrize("name", OOD)
def test_no_out_of_template_phrasing_shares_a_4gram_with_trained_wording(name):
    assert shared_ngram(TEMPLATES.get(name)(), trained_wording()) is None


def test_out_of_template_wording_is_also_apart_from_the_in_template_cr_sets():
    from chartprobe.dataset_builders.probes.phrase_overlap import trained_ngrams

    in_template = trained_ngrams([TEMPLATES.get(n)() for n in IN_TEMPLATE_CR])
    for name in OOD:
        assert shared_ngram(TEMPLATES.get(name)(), in_template) is None, name


def test_normalisation_and_slot_filling():
    assert tokens("What's the TOTAL, of all the values?") == ("what's", "the", "total", "of", "all", "the",
                                                               "values")
    assert ("of", "all", "the", "values") in ngrams("What is the total of ALL the values?")

    @dataclasses.dataclass
    class Fake:
        phrasings: tuple
        name: str = "FAKE"
        kinds: tuple = ("bar", "pie")
        skill: str = "complex"
        hint: str = "axis_hint"

    grams = trained_wording()
    assert shared_ngram(Fake(("Add up: what is the TOTAL, of all the values shown?",)), grams) is not None
    assert grams[("is", "the", "total", "of")] == "R-ARITH-TOTAL"
    # geometry slots are filled per kind: {along} is "from left to right" on a bar chart
    assert shared_ngram(Fake(("Walk {along} now.",)), grams)[1] == "P-TREND-PATTERN"
    # slots the kinds do not fill are one token, and match any other slot
    assert shared_ngram(Fake(("Tell me the value of {x}.",)), grams) is not None
    assert shared_ngram(Fake(("Picture the {nouns} in a row and name one.",)), grams) is None


# -- the new templates: exact, unique, re-run from the recorded program ---------------------

@pytest.mark.parametrize("name", OOD)
def test_answers_rerun_from_the_recorded_program(name):
    cls = TEMPLATES.get(name)
    answers: Counter = Counter()
    for domain in _domains(cls):
        emitted = 0
        for i, (spec, view) in enumerate(_views(domain)):
            q = cls().instantiate(view, rng_for(3, name, domain, i))
            if q is None:
                continue
            emitted += 1
            answers[q.answer] += 1
            d = PROBE_DOMAINS[domain]
            again = d.view(d.spec_from_json(spec.to_json()), {})
            assert answer_of(Program.from_json(q.program.to_json()), again, q.answer_type) == q.answer
            assert q.template_id == name and q.skill == "complex" and "{" not in q.question
            assert set(steps_of(q.program)) <= set(VOCABULARY)
        assert emitted >= CHARTS_PER_DOMAIN // 5, (name, domain, emitted)
    assert len(answers) >= 3, answers  # not a constant answer


def _chart(values, kind="bar"):
    spec, _ = _views(kind, 1)[0]
    series = (dataclasses.replace(spec.data.series[0], values=tuple(map(float, values))),)
    labels = tuple(f"C{i}" for i in range(len(values)))
    spec = spec.replace(data=dataclasses.replace(spec.data, categories=labels, series=series))
    return PROBE_DOMAINS[kind].view(spec, {})


@pytest.mark.parametrize(("op", "values", "want"), [
    ("median_label", [30, 10, 50, 20, 40], "C0"),
    ("median_label", [30, 10, 50, 20], None),                       # even count: no middle one
    ("count_largest_to_pass_half", [10, 20, 30, 40, 50], 2),        # 50 < 75 < 50 + 40
    ("count_largest_to_pass_half", [50, 30, 20], None),             # 50 is exactly half
    ("range_over_mean", [10, 20, 30, 40, 50], 40 / 30),
    ("count_adjacent_increases", [10, 30, 20, 40, 50], 3),
    ("count_adjacent_increases", [10, 30, 30.5, 50], None),         # a visual tie between neighbours
    ("second_largest_minus_median", [10, 20, 30, 40, 50], 10),
    ("second_largest_minus_median", [10, 20, 30], None),            # needs four values
])
def test_chart_ops_on_known_values(op, values, want):
    got = OPS[op](_chart(values))
    assert got == (pytest.approx(want) if isinstance(want, float) else want)


def test_scene_ops_on_known_scenes():
    from chartprobe.dataset_builders.core.scenes import SceneObject, SceneSpec, SceneView

    def scene(*colors):
        objs = [SceneObject("circle", c, "small", "solid", 0.1 + 0.8 * i / len(colors), 0.5)
                for i, c in enumerate(colors)]
        return SceneView.from_spec(SceneSpec(objects=tuple(objs)).validate())

    three_two_one = scene("red", "red", "red", "blue", "blue", "green")
    assert OPS["scene_second_most_common"](three_two_one, "color") == "blue"
    assert OPS["scene_second_most_common"](scene("red", "red", "blue", "green"), "color") is None  # tie
    assert OPS["scene_count_spread"](three_two_one, "color") == 2
    assert OPS["scene_count_spread"](scene("red", "blue"), "color") is None  # every group equal
    assert OPS["scene_count_singletons"](three_two_one, "color") == 1
    assert OPS["scene_count_singletons"](three_two_one, "shape") is None  # one value only


# -- configs: existing ones untouched, new ones restricted ------------------------------------

def test_existing_configs_keep_their_pools_and_label_vocabulary():
    legacy = [n for n in ALL if n not in OOD]
    for config in ("bar", "hbar", "pie", "shapes", "cr_bar", "cr_pie", "cr_shapes"):
        assert template_vocabulary(config) == legacy
        assert not {t.name for t in pool_for(config, {})} & set(OOD)
    for config in OOD_CONFIGS:
        cset, domain = config_set(config)
        assert cset.held_out and cset.out_of_template
        names = {t.name for t in pool_for(config, {"out_of_template": True})}
        assert names and names <= set(OOD)
        assert names == {t.name for t in eligible_templates(domain, True, True)}


@pytest.mark.parametrize("preset", ["small", "full"])
def test_bundled_presets_mark_the_ood_configs_and_size_them_like_cr(preset):
    from chartprobe.dataset_builders.release.preset import load_preset, preset_path

    p = load_preset(preset_path("probes", preset))  # loading runs the out-of-template gate
    for config in OOD_CONFIGS:
        c = p.configs[config]
        assert c.params == {"out_of_template": True}
        assert c.splits == p.configs[config.replace("cr_ood_", "cr_")].splits


# -- the refusal --------------------------------------------------------------------------------

def _preset(tmp_path, body: str):
    path = tmp_path / "ood.yaml"
    path.write_text(f"dataset: probes\npreset: ood\nseed: 0\nshard_size: 3\nconfigs:\n{body}\n")
    return path


def _build(path, out):
    return subprocess.run([sys.executable, "-m", "chartprobe", "build", "probes", "--preset", str(path),
                           "--out", str(out), "--quiet"], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(("params", "want"), [
    ("{out_of_template: true, templates: [CR-SUM-ABOVE-AVG]}",
     ("CR-SUM-ABOVE-AVG is not out of template: its steps [mean > filter_above] + [sum] compose the trained "
      "templates R-RANK-ABOVE-AVG + R-ARITH-TOTAL")),
    ("{out_of_template: true, templates: [CR-OOD-MEDIAN-LABEL, CR-EXCEED-MEAN-OTHERS]}",
     ("CR-EXCEED-MEAN-OTHERS is not out of template: its phrasing shares the 4-gram 'by how much does' with "
      "the trained template R-MULTI-DIFF-MEAN")),
    ("{templates: [CR-OOD-MEDIAN-LABEL]}", "params.out_of_template must be true on 'cr_ood_bar'"),
])
def test_build_refuses_a_violating_out_of_template_config(tmp_path, params, want):
    out = tmp_path / "out"
    result = _build(_preset(tmp_path, f"  cr_ood_bar: {{splits: {{test: 3}}, params: {params}}}"), out)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and want in lines[0] and "configs.cr_ood_bar" in lines[0], result.stderr
    assert not out.exists()


def test_the_marker_is_refused_on_other_configs():
    with pytest.raises(ValueError, match="marks the cr_ood_<domain> configs"):
        pool_for("cr_bar", {"out_of_template": True})
    with pytest.raises(ValueError, match="only held-out configs"):
        pool_for("bar", {"templates": ["CR-SUM-ABOVE-AVG"]})
    with pytest.raises(ValueError, match="not held-out templates of bar"):
        pool_for("cr_bar", {"templates": ["CR-OOD-MEDIAN-LABEL"]})  # its features do not know the id


def _rows(template_id, program, question="Picture the bars lined up; name the middle one."):
    from datasets import Dataset

    spec = json.dumps({"data": {"categories": ["A"], "series": []}})
    return Dataset.from_dict({"chart_id": ["cr_ood_bar-test-00000"], "spec": [spec],
                              "template_id": [template_id], "program": [program.to_json()],
                              "question": [question]})


def test_verify_refuses_recorded_compositions_and_trained_wording():
    built = {"cr_ood_bar": {"test": _rows("CR-OOD-MEDIAN-LABEL", Program("sum_above_mean"))}}
    want = (r"cr_ood_bar/test: CR-OOD-MEDIAN-LABEL is not out of template: its steps .* compose the "
            r"trained templates R-RANK-ABOVE-AVG \+ R-ARITH-TOTAL")
    with pytest.raises(ValueError, match=want):
        ProbesDataset().verify(built)
    text = "Picture the bars lined up. What is the total of all the values shown in the chart?"
    built = {"cr_ood_bar": {"test": _rows("CR-OOD-MEDIAN-LABEL", Program("median_label"), text)}}
    with pytest.raises(ValueError, match="its question .* shares the 4-gram"):
        ProbesDataset().verify(built)
    ProbesDataset().verify({"cr_ood_bar": {"test": _rows("CR-OOD-MEDIAN-LABEL", Program("median_label"))}})


def test_a_tiny_out_of_template_release_builds_and_reruns(tmp_path):
    from chartprobe.dataset_builders.probes.program import answer_row
    from chartprobe.dataset_builders.release.labels import as_text
    from datasets import load_dataset

    config = "{splits: {test: 4}, params: {out_of_template: true}}"
    body = "\n".join(f"  {c}: {config}" for c in OOD_CONFIGS)
    result = _build(_preset(tmp_path, body), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    for config in OOD_CONFIGS:
        rows = as_text(load_dataset(str(tmp_path / "out" / "chartprobe-probes"), config, split="test"))
        rows = rows.remove_columns(["image"]).to_list()
        assert len(rows) == 4 and {r["template_id"] for r in rows} <= set(OOD)
        for r in rows:
            assert r["held_out"] and r["skill"] == "complex" and answer_row(r) == r["answer"]
