"""The chart probe bank (ChartProbe, Table 5) and its held-out complex-reasoning templates.

Parametrized over the TEMPLATES registry (domain "chart"), so a new template file is tested
the moment it exists. Every emitted item is checked the way a user would check a published
row: re-run the stored program on the round-tripped spec, and score the gold answer against
itself. Charts are rendered once per module (render is the slow part) and shared.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest
from chartprobe.dataset_builders.core.charts._base import SampleConfig
from chartprobe.dataset_builders.core.chartview import ChartView
from chartprobe.dataset_builders.core.programs import Program, answer_of
from chartprobe.dataset_builders.core.render import render, sample_spec
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.spec import ChartSpec
from chartprobe.dataset_builders.core.vocab import NAMED_COLORS
from chartprobe.dataset_builders.probes.templates import TEMPLATES
from chartprobe.eval_tasks.scoring.typed import score_answer

KINDS = ("bar", "hbar", "pie")
CHARTS_PER_KIND = 10
DRAWS_PER_CHART = 2
CONFIG = SampleConfig(n_series=(1, 1), n_categories=(3, 10))

CHART = {name: cls for name, cls in TEMPLATES.items() if cls.domain == "chart"}
BANK = sorted(name for name, cls in CHART.items() if not cls.held_out)
HELD_OUT = sorted(name for name, cls in CHART.items() if cls.held_out)
ID_PATTERN = {"perception": r"P", "grounding": r"G(-VT|-TV)?", "reasoning": r"R", "complex": r"CR"}


def _with_colors(spec: ChartSpec, colors: tuple[str, ...]) -> ChartSpec:
    """Per-mark colours: the palette of a single-series bar chart, or one colour per wedge."""
    if spec.kind == "pie":
        encs = tuple(dataclasses.replace(e, color=c) for e, c in zip(spec.encodings, colors))
        return spec.replace(encodings=encs)
    return spec.replace(encodings=(dataclasses.replace(spec.encodings[0], colors=colors),))


def _with_values(spec: ChartSpec, values: tuple[float, ...], labels: tuple[str, ...] | None = None):
    """``spec`` with its single series replaced (and categories renamed when given)."""
    labels = labels or tuple(f"C{i}" for i in range(len(values)))
    series = (dataclasses.replace(spec.data.series[0], values=tuple(map(float, values))),)
    spec = spec.replace(data=dataclasses.replace(spec.data, categories=labels, series=series))
    if spec.kind == "pie":  # one encoding per wedge
        spec = spec.replace(encodings=tuple(spec.encodings[i % len(spec.encodings)]
                                            for i in range(len(values))))
    return spec


def _sample(kind: str, s: int) -> ChartSpec:
    """A sampled single-series chart; even charts get named per-mark colours, odd ones value labels."""
    spec = sample_spec(kind, rng_for(0, "test_templates", kind, s), CONFIG)
    n = len(spec.data.categories)
    if s % 2 == 0:
        rng = rng_for(0, "test_templates", kind, s, "colors")
        names = list(NAMED_COLORS.values())
        spec = _with_colors(spec, tuple(names[int(i)] for i in rng.choice(len(names), n, replace=False)))
    else:
        spec = spec.replace(style=dataclasses.replace(spec.style, value_labels=True))
    return spec.validate()


@pytest.fixture(scope="module")
def charts() -> list[tuple[ChartSpec, dict]]:
    """(spec, boxes) for every sampled chart, rendered once."""
    out = []
    for kind in KINDS:
        for s in range(CHARTS_PER_KIND):
            spec = _sample(kind, s)
            out.append((spec, render(spec).boxes))
    return out


@pytest.fixture(scope="module")
def items(charts) -> dict[str, list]:
    """Template name -> [(spec, boxes, question)] over every chart and a few rng draws."""
    out: dict[str, list] = {name: [] for name in CHART}
    for c, (spec, boxes) in enumerate(charts):
        view = ChartView(spec, boxes)
        for name, cls in CHART.items():
            for d in range(DRAWS_PER_CHART):
                q = cls().instantiate(view, rng_for(1, name, c, d))
                if q is not None:
                    out[name].append((spec, boxes, q))
    return out


# -- the bank's shape -------------------------------------------------------------------------

def test_bank_has_26_templates_8_9_9():
    assert len(BANK) == 26
    assert Counter(CHART[n].skill for n in BANK) == {"perception": 8, "grounding": 9, "reasoning": 9}
    for name in ("P-COUNT-ABOVE-AVG", "P-HEIGHT-2X", "P-TREND-PATTERN", "G-BBOX-ELEMENT", "G-VT-LEFTMOST",
                 "G-TV-VALUE-B", "R-RANK-TOP3", "R-ARITH-TOTAL", "R-MULTI-DIFF-MEAN", "R-RANK-ABOVE-AVG"):
        assert name in BANK  # the paper's walkthrough names


def test_held_out_templates_are_complex():
    assert len(HELD_OUT) >= 6
    for name in HELD_OUT:
        assert CHART[name].skill == "complex" and name.startswith("CR-")
        assert {"bar", "pie"} <= set(CHART[name].kinds)


@pytest.mark.parametrize("name", sorted(CHART))
def test_id_scheme_and_file(name):
    cls = CHART[name]
    assert re.fullmatch(rf"{ID_PATTERN[cls.skill]}(-[A-Z0-9]+)+", name)
    assert cls.__module__.rsplit(".", 1)[1] == name.lower().replace("-", "_")
    assert cls.answer_type in {"count", "integer", "bool", "label", "number", "list", "bbox"}
    assert cls.description and "\n" not in cls.description
    assert 1 <= len(cls.phrasings) <= 3
    assert cls.held_out == (cls.skill == "complex")
    if not cls.held_out:
        assert cls.kinds == KINDS


# -- every emitted item ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CHART))
def test_template_fires_on_every_kind(name, items):
    kinds = Counter(spec.kind for spec, _, _ in items[name])
    assert set(CHART[name].kinds) <= set(kinds), kinds


@pytest.mark.parametrize("name", sorted(CHART))
def test_answer_reruns_from_stored_program_and_spec(name, items):
    for spec, boxes, q in items[name]:
        assert (q.template_id, q.skill, q.answer_type) == (name, CHART[name].skill, CHART[name].answer_type)
        program = Program.from_json(q.program.to_json())
        view = ChartView(ChartSpec.from_json(spec.to_json()), boxes)
        assert answer_of(program, view, q.answer_type) == q.answer
        assert score_answer(q.answer, q.answer, q.answer_type).correct, q
        assert "{" not in q.question and "}" not in q.question.replace("[x0, y0, x1, y1]", "")


@pytest.mark.parametrize("name", [n for n in sorted(CHART) if CHART[n].skill == "perception"])
def test_perception_never_names_a_category(name, items):
    for spec, _, q in items[name]:
        for label in spec.data.categories:
            assert not re.search(rf"\b{re.escape(label)}\b", q.question, re.IGNORECASE), (label, q.question)
        assert q.question.startswith("Ignore all text")


def test_bbox_answers_are_normalized_boxes(items):
    for spec, boxes, q in items["G-BBOX-ELEMENT"]:
        x0, y0, x1, y1 = q.target_bbox
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
        assert "normalized image coordinates" in q.question


def test_geometry_words_follow_the_kind(items):
    texts = {spec.kind: q.question for spec, _, q in items["G-VT-LEFTMOST"]}
    assert "leftmost" in texts["bar"] and "topmost" in texts["hbar"]
    assert "clockwise from twelve o'clock" in texts["pie"]
    above = {spec.kind: q.question for spec, _, q in items["P-COUNT-ABOVE-AVG"]}
    assert "equal share of the pie" in above["pie"] and "average bar height" in above["bar"]


def test_value_templates_need_readable_values_on_pie(items):
    for name in ("G-TV-VALUE-B", "R-ARITH-TOTAL", "R-ARITH-MEAN", "R-ARITH-DIFF", "R-MULTI-DIFF-MEAN"):
        pies = [spec for spec, _, _ in items[name] if spec.kind == "pie"]
        assert pies and all(spec.style.value_labels for spec in pies), name


def test_instantiation_is_deterministic(charts):
    spec, boxes = charts[0]
    view = ChartView(spec, boxes)
    for name, cls in CHART.items():
        assert cls().instantiate(view, rng_for(7, name)) == cls().instantiate(view, rng_for(7, name))


# -- degenerate instances are never emitted ------------------------------------------------------

def _none_everywhere(name: str, spec: ChartSpec, draws: int = 12) -> bool:
    view = ChartView(spec, {})
    return all(CHART[name]().instantiate(view, rng_for(3, name, d)) is None for d in range(draws))


@pytest.fixture(scope="module")
def bases() -> dict[str, ChartSpec]:
    # Without value labels: perception probes are never asked on a chart that prints its values.
    return {kind: _unlabelled(_sample(kind, 1)) for kind in KINDS}


def _unlabelled(spec: ChartSpec) -> ChartSpec:
    return spec.replace(style=dataclasses.replace(spec.style, value_labels=False))


@pytest.mark.parametrize("kind", KINDS)
def test_where_value_labels_print_the_values_perception_asks_only_what_they_cannot_decide(kind, bases):
    labelled = bases[kind].replace(style=dataclasses.replace(bases[kind].style, value_labels=True))
    value_free = sorted(name for name, cls in CHART.items() if cls.skill == "perception" and cls.value_free)
    assert value_free == ["P-COLOR-DISTINCT", "P-COUNT-BARS"]
    for name, cls in CHART.items():
        if cls.skill == "perception" and not cls.value_free:
            assert _none_everywhere(name, labelled), name
    assert not _none_everywhere("P-COUNT-BARS", labelled)
    assert not _none_everywhere("G-VT-TALLEST", _with_values(labelled, (50, 80, 30, 20, 10)))


@pytest.mark.parametrize("kind", KINDS)
def test_ties_are_rejected(kind, bases):
    base = bases[kind]
    two_tallest = _with_values(base, (50, 80, 30, 80, 20))
    for name in ("P-EXTREME-TALLEST-POS", "G-VT-TALLEST", "CR-EXCEED-MEAN-OTHERS"):
        assert _none_everywhere(name, two_tallest), name
    assert not _none_everywhere("P-EXTREME-SHORTEST-POS", two_tallest)  # only the top is tied
    assert _none_everywhere("R-RANK-TOP3", _with_values(base, (90, 70, 60, 60, 10)))
    assert not _none_everywhere("R-RANK-TOP3", _with_values(base, (90, 70, 60, 59, 10)))
    at_mean = _with_values(base, (10, 20, 30, 40, 50))  # 30 is exactly the mean
    for name in ("P-COUNT-ABOVE-AVG", "R-RANK-ABOVE-AVG", "CR-SUM-ABOVE-AVG"):
        assert _none_everywhere(name, at_mean), name
    near_mean = _with_values(base, (10, 20, 31, 40, 50))  # within the visual margin of 30.2
    assert _none_everywhere("P-COUNT-ABOVE-AVG", near_mean)
    assert not _none_everywhere("R-RANK-ABOVE-AVG", near_mean)  # values, not eyes, decide here


@pytest.mark.parametrize("kind", KINDS)
def test_positional_and_value_degenerates(kind, bases):
    base = bases[kind]
    two = _with_values(base, (40, 60))
    assert _none_everywhere("P-TREND-PATTERN", two) and _none_everywhere("G-VT-POSITION-K", two)
    assert _none_everywhere("P-TREND-PATTERN", _with_values(base, (10, 50, 51, 90)))  # adjacent near-tie
    view = ChartView(_with_values(base, (50, 51, 50, 10)), {})
    assert answer_of(Program("compare_positions", {"i": 1, "j": 2}), view, "bool") is None
    assert answer_of(Program("rank_of", {"label": "C0"}), view, "integer") is None
    assert answer_of(Program("rank_of", {"label": "C1"}), view, "integer") == "1"
    assert answer_of(Program("max_exceeds_factor_of_min", {"factor": 2.0}),
                     ChartView(_with_values(base, (20, 41, 30)), {}), "bool") is None


@pytest.mark.parametrize("kind", KINDS)
def test_colour_questions_need_plain_distinct_colours(kind, bases):
    spec = _with_values(bases[kind], (50, 80, 30, 20))
    assert _none_everywhere("G-TV-COLOR", _with_colors(spec, ("#123456", "#654321", "#abcdef", "#fedcba")))
    assert _none_everywhere("G-TV-COLOR", _with_colors(spec, (NAMED_COLORS["blue"],) * 4))
    named = _with_colors(spec, tuple(NAMED_COLORS[c] for c in ("red", "blue", "red", "green")))
    q = CHART["G-TV-COLOR"]().instantiate(ChartView(named, {}), rng_for(0))
    assert q is not None and q.answer in {"red", "blue", "green"}
    assert CHART["P-COLOR-DISTINCT"]().instantiate(ChartView(named, {}), rng_for(0)).answer == "3"


def test_bbox_needs_a_rendered_box(bases):
    assert _none_everywhere("G-BBOX-ELEMENT", bases["bar"])  # no boxes in the view: no item
