"""Colour-bar T1 questions (ticks, orientation) are answered from the spec: the ticks the
renderer draws are ``core/colorbar.py``'s, read bottom to top off the drawn labels; the bar
runs up or down by key, so "where do the high values sit?" has a balanced answer."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from chartprobe.dataset_builders.core.colorbar import colorbar_ticks, ticks_from_end
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.legend.groups import EXTRA_PROBES
from chartprobe.dataset_builders.legend.space import LegendSpace, sample_unit
from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES
from chartprobe.dataset_builders.legend.templates._base import State

NEW = ("t1_colorbar_tick", "t1_colorbar_orientation")
SCALES = ((1.0, 0.0), (0.5, 0.0), (10.0, 0.0), (1.0, 100.0))
"""The base scale and the relabellings the ``rescale`` intervention draws from."""


def _states(n: int, seed: int = 21):
    space = LegendSpace()
    for i in range(n):
        unit = sample_unit(space, rng_for(seed, "colorbar", i), kind="heatmap")
        yield State(unit.chart, unit.legend, unit.channels, unit.add_labels)


def _drawn_labels(spec) -> list[str]:
    """The colour bar's tick labels as drawn, bottom to top (by their position on the canvas)."""
    from chartprobe.dataset_builders.core.render import _drawn_ticks, build_scene, theme_context

    with theme_context(spec):
        scene = build_scene(spec)
        scene.canvas.draw()
        renderer = scene.canvas.get_renderer()
        (axis,) = [a for prefix, a in scene.tick_axes if prefix == "legend/colorbar_tick"]
        # The bar's labels sit on its right (label2), as the renderer measures them.
        labels = [(x.get_window_extent(renderer).y0, x.get_text()) for t in _drawn_ticks(axis)
                  for x in (t.label1, t.label2) if x.get_visible() and x.get_text()]
    return [text for _y, text in sorted(labels)]  # display y grows upwards


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("direction", ["up", "down"])
def test_drawn_tick_labels_are_the_spec_ticks(scale, direction):
    from chartprobe.dataset_builders.core.render import render

    for st in _states(3):
        spec = State(st.chart, st.legend.replace(scale=scale, direction=direction), st.channels, st.add_labels).spec
        fmt = spec.axes.tick_format
        assert _drawn_labels(spec) == [fmt.format(x=v) for v in ticks_from_end(spec, "bottom")]
        assert render(spec).ticks["colorbar"] == pytest.approx(colorbar_ticks(spec))


@pytest.mark.parametrize("direction", ["up", "down"])
def test_tick_answers_read_the_drawn_labels_from_the_named_end(direction):
    tpl = LEGEND_TEMPLATES.get("t1_colorbar_tick")()
    asked = 0
    for st in _states(4):
        for scale in SCALES:
            new = State(st.chart, st.legend.replace(scale=scale, direction=direction), st.channels, st.add_labels)
            bottom_up = _drawn_labels(new.spec)
            for params in tpl.candidates(new, np.random.default_rng(0)):
                read = bottom_up if params["end"] == "bottom" else bottom_up[::-1]
                assert float(tpl.answer(new, params)) == float(read[params["k"] - 1]), params
                asked += 1
    assert asked > 20


def test_orientation_and_end_answers_follow_the_drawn_bar():
    """The label drawn at the top is the highest exactly when the bar runs up; the end value
    and the orientation answer follow it."""
    ori = LEGEND_TEMPLATES.get("t1_colorbar_orientation")()
    end = LEGEND_TEMPLATES.get("t1_colorbar_end")()
    for st in _states(2):
        for direction in ("up", "down"):
            new = State(st.chart, st.legend.replace(direction=direction), st.channels, st.add_labels)
            labels = [float(x) for x in _drawn_labels(new.spec)]
            high_at_top = labels[-1] > labels[0]
            assert high_at_top == (direction == "up")
            assert ori.answer(new, {"end": "top"}) == ("yes" if high_at_top else "no")
            assert ori.answer(new, {"end": "bottom"}) == ("no" if high_at_top else "yes")
            top = float(end.answer(new, {"end": "top"}))
            assert top == (new.all_values().max() if high_at_top else new.all_values().min())


def test_directions_and_orientation_answers_are_balanced():
    """Without reading the bar, "high at the top" is right half the time, not always."""
    ori = LEGEND_TEMPLATES.get("t1_colorbar_orientation")()
    directions, answers = Counter(), Counter()
    for i, st in enumerate(_states(200, seed=5)):
        directions[st.legend.direction] += 1
        cands = ori.candidates(st, np.random.default_rng(i))
        answers[ori.answer(st, cands[int(np.random.default_rng(i).integers(len(cands)))])] += 1
    assert set(answers) <= set(ori.answer_set)
    for counts in (directions, answers):
        assert 0.4 <= max(counts.values()) / sum(counts.values()) <= 0.6, counts


def test_preserving_legend_edits_keep_the_ticks():
    """A smaller legend font (``scale_down``) is a preserving edit: the ticks must not move."""
    for st in _states(5):
        small = State(st.chart, st.legend.replace(font_scale=0.5), st.channels, st.add_labels)
        assert colorbar_ticks(small.spec) == colorbar_ticks(st.spec)


def test_new_templates_are_extra_probes():
    assert set(NEW) <= set(EXTRA_PROBES)


def test_small_release_asks_the_colorbar_templates(release_root: Path):
    from chartprobe.dataset_builders.legend.program import answer_row
    from datasets import load_dataset

    folder = str(release_root / "chartprobe-legend")
    rows = [r for split in ("train", "validation", "test")
            for r in load_dataset(folder, "snapshot", split=split).remove_columns("image")]
    for name in NEW:
        mine = [r for r in rows if r["template"] == name]
        assert mine, f"{name} has no row in the small release"
        assert all(answer_row(r) == r["answer"] for r in mine)
