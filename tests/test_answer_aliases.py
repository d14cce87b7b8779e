"""Channel-value aliases of LegendBench rows (issue 42, point 3): every colour, marker, line style
and texture the generator draws carries the names a person uses for it, no alias names two
different drawings, and the scorer maps an alias to its value ("brown, dotted" == brown, dots)."""

from __future__ import annotations

import io
import itertools
import json
import re

import numpy as np
import pytest
from chartprobe.dataset_builders.legend.aliases import CHANNEL_ALIASES, row_aliases_json
from chartprobe.dataset_builders.legend.vocab import COLORS, HATCH_NAMES, LINE_STYLE_NAMES, MARKER_NAMES
from chartprobe.eval_tasks.scoring.typed import score_doc

DRAWN = {"color": {n: n for n in COLORS}, "marker": {v: k for k, v in MARKER_NAMES.items()},
         "line_style": {v: k for k, v in LINE_STYLE_NAMES.items()}, "texture": {v: k for k, v in HATCH_NAMES.items()}}
"""Channel -> canonical name -> what the renderer is given for it (colour name, marker, linestyle, hatch)."""


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def test_every_drawn_value_has_aliases():
    for channel, values in DRAWN.items():
        assert set(CHANNEL_ALIASES[channel]) == set(values), channel
        for canonical, names in CHANNEL_ALIASES[channel].items():
            assert names, (channel, canonical)


@pytest.mark.parametrize("channel", sorted(DRAWN))
def test_no_alias_names_two_drawings(channel):
    sets = {c: {_key(c), *map(_key, names)} for c, names in CHANNEL_ALIASES[channel].items()}
    for (a, sa), (b, sb) in itertools.combinations(sets.items(), 2):
        assert not sa & sb, (channel, a, b, sa & sb)
        assert "" not in sa  # an alias of punctuation only would match an empty answer


def _draw(channel: str, value: str) -> np.ndarray:
    """RGB pixels of one legend-sized swatch drawn with ``value`` on ``channel``."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1.2, 0.8), dpi=72)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    if channel == "texture":
        ax.bar([0.5], [0.9], width=0.9, bottom=0.05, color="white", edgecolor="black", hatch=value * 2)
    elif channel == "marker":
        ax.plot([0.5], [0.5], marker=value, markersize=30, color="black", linestyle="none")
    elif channel == "line_style":
        ax.plot([0.02, 0.98], [0.5, 0.5], linestyle=value, linewidth=3, color="black")
    else:
        ax.bar([0.5], [0.9], width=0.9, bottom=0.05, color=COLORS[value])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"), dtype=np.int16)


@pytest.mark.parametrize("channel", sorted(DRAWN))
def test_each_value_draws_a_distinct_pattern(channel):
    # Two canonical names that drew the same pixels would be one pattern under two names; the
    # aliases above are disjoint only because the drawings differ.
    drawn = {name: _draw(channel, value) for name, value in DRAWN[channel].items()}
    for (a, pa), (b, pb) in itertools.combinations(drawn.items(), 2):
        assert np.abs(pa - pb).sum(axis=-1).astype(bool).mean() > 0.005, (channel, a, b)


def _row(answer, channels):
    return {"answer": json.dumps(answer), "answer_type": "list", "answer_aliases": row_aliases_json(channels)}


@pytest.mark.parametrize(("prediction", "correct"), [
    ("brown, dotted", True), ("Brown, dots", True), ("brown, stippled", True), ("dark brown, dot pattern", True),
    ("brown, small circles", False), ("brown, circles", False), ("red, dotted", False), ("brown", False),
])
def test_brown_dotted_is_brown_dots(prediction, correct):
    assert score_doc(_row(["brown", "dots"], ("color", "texture")), prediction).correct is correct


@pytest.mark.parametrize(("gold", "channels", "prediction", "correct"), [
    (["red", "dotted"], ("color", "line_style"), "red, dotted line", True),
    (["red", "dotted"], ("color", "line_style"), "red, dashed line", False),
    (["inverted triangle"], ("marker",), "downward triangle", True),
    (["inverted triangle"], ("marker",), "triangle", False),
    (["small circles"], ("texture",), "rings", True),
    (["small circles"], ("texture",), "dots", False),
])
def test_aliases_on_other_channels(gold, channels, prediction, correct):
    assert score_doc(_row(gold, channels), prediction).correct is correct


def test_aliases_shared_across_a_rows_channels_are_dropped():
    # "circles" names the circle marker's plural and the small-circles texture: on a row with both
    # channels it would be ambiguous, so it names neither there.
    table = json.loads(row_aliases_json(("marker", "texture")))
    owners = [k for k, names in table.items() if "circles" in names]
    assert owners == []
    assert "circles" in json.loads(row_aliases_json(("texture",)))["small circles"]


def test_release_rows_carry_aliases_of_every_channel_value(release_root):
    import pandas as pd

    files = sorted((release_root / "chartprobe-legend").glob("*/*.parquet"))
    df = pd.concat([pd.read_parquet(f, columns=["answer_aliases", "channels", "template", "answer", "answer_type"])
                    for f in files])
    for cell, channels in zip(df["answer_aliases"], df["channels"]):
        named = [c for c in channels if c in DRAWN]
        table = json.loads(cell) if cell else {}
        for channel in named:
            assert set(DRAWN[channel]) <= set(table), (channels, sorted(table))
    visual = df[(df["template"] == "t1_label_to_visual") & (df["answer_type"] == "list")]  # not the abstentions
    assert len(visual)
    for cell, answer in zip(visual["answer_aliases"], visual["answer"]):
        assert set(json.loads(answer)) <= set(json.loads(cell))


PROBE_VOCABULARIES = {"shape": "SHAPES", "scene_color": "COLORS", "chart_color": "NAMED_COLORS"}


@pytest.mark.parametrize("name", sorted(PROBE_VOCABULARIES))
def test_probe_vocabularies_cover_what_is_drawn_and_are_disjoint(name):
    from chartprobe.dataset_builders.core import vocab
    from chartprobe.dataset_builders.core.answer_vocab import vocabulary
    from chartprobe.dataset_builders.core.scenes import spec

    drawn = getattr(spec if name != "chart_color" else vocab, PROBE_VOCABULARIES[name])
    table = vocabulary(name)
    assert set(table) == set(drawn)
    sets = {c: {_key(c), *map(_key, names)} for c, names in table.items()}
    for (a, sa), (b, sb) in itertools.combinations(sets.items(), 2):
        assert not sa & sb, (name, a, b)


@pytest.mark.parametrize(("vocab", "gold", "prediction", "correct"), [
    ("shape", "circle", "a round disc", False), ("shape", "circle", "disc", True), ("shape", "star", "circle", False),
    ("scene_color", "gray", "grey", True), ("scene_color", "cyan", "teal", True), ("scene_color", "cyan", "blue", False),
    ("chart_color", "yellow", "golden", True), ("chart_color", "brown", "orange", False),
])
def test_probe_aliases_score(vocab, gold, prediction, correct):
    from chartprobe.dataset_builders.core.answer_vocab import aliases_json

    row = {"answer": gold, "answer_type": "label", "answer_aliases": aliases_json(vocab)}
    assert score_doc(row, prediction).correct is correct


def test_probe_release_rows_carry_shape_and_colour_aliases(probes_release):
    import pandas as pd
    from chartprobe.dataset_builders.core.answer_vocab import aliases_json

    files = sorted(probes_release.glob("*/*.parquet"))
    df = pd.concat([pd.read_parquet(f, columns=["answer", "answer_type", "answer_aliases", "program"])
                    for f in files])
    attrs = df["program"].map(lambda p: json.loads(p).get("args", {}).get("attr"))
    for attr, vocab in (("shape", "shape"), ("color", "scene_color")):
        rows = df[(attrs == attr) & (df["answer_type"] == "label")]
        assert len(rows), attr
        assert (rows["answer_aliases"] == aliases_json(vocab)).all(), attr
        assert rows["answer"].isin(list(json.loads(aliases_json(vocab)))).all(), attr
    colour = df[df["program"].map(lambda p: json.loads(p).get("op")) == "color_of"]  # G-TV-COLOR
    assert len(colour) and (colour["answer_aliases"] == aliases_json("chart_color")).all()
    assert colour["answer"].isin(list(json.loads(aliases_json("chart_color")))).all()
