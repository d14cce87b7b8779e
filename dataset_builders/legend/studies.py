"""The three controlled studies of LegendBench §6, as matched sets over one base chart each.

- ``channel``: the same data and labels rendered once per encoding channel scheme of its
  mark family (colour, marker, line style, texture; single and double), with the same
  parsing, binding, value and reasoning questions on each (§6.1).
- ``order``: N cyclic rotations of a legend whose base order mirrors the visual rank, so
  every target visits every legend position exactly once; the rank question's answer never
  changes (§6.2). Rotation 0 is the aligned condition for every target.
- ``visibility``: a one-label and a two-label question under full visibility and the four
  occlusion policies Mask_Full, Keep_Target, Hide_Target, Keep_Distractor (§6.3); each
  unanswerable policy row comes with an answerable ``hide_distractor`` twin (level of that
  name), so an incomplete legend does not by itself mean "I don't know".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .groups import TWIN, bind_template, group_rows
from .rows import RowMaker
from .space import (
    CHANNEL_POOLS,
    CHANNELS_OF_FAMILY,
    LegendSpace,
    Unit,
    channel_schemes,
    encodings_for,
    sample_unit,
)
from .templates import LEGEND_TEMPLATES
from .templates.t3_rank import visual_ranks
from .visible import Hidden, Renders, fit_layout

__all__ = ["STUDIES", "channel_rows", "order_rows", "visibility_rows"]

YES_NO = ("yes", "no")
"""The answers the channel study's comparison and trend questions take in turn over its bases."""

Rng = Callable[..., np.random.Generator]
FAMILY_KINDS = {"point": ("scatter",), "line": ("line", "radar"), "area": ("grouped_bar", "pie", "area")}
"""Kinds each mark family's channel study draws from (the paper's §6.1 grouping)."""
VISIBILITY_POLICIES = ("mask_full", "keep_target", "hide_target", "keep_distractor")
ORDER_KINDS = ("line", "grouped_bar", "pie", "scatter")


def _unit_where(space: LegendSpace, rng: np.random.Generator, ok: Callable[[Unit], bool], hidden: Hidden,
                **pins: Any) -> Unit:
    """Redraw until ``ok`` holds and some layout shows every mark of every chart the study draws
    from the unit (``hidden``); fails loudly after 200 tries."""
    for _ in range(200):
        unit = sample_unit(space, rng, **pins)
        if ok(unit):
            visible = fit_layout(unit, space.legend_positions, hidden)
            if visible is not None:
                return visible
    raise ValueError(f"no usable base chart for {pins} in 200 draws; widen the preset's ranges")


def _levels(unit: Unit, family: str, key: str, rng: Rng) -> list[tuple[str, Unit]]:
    """(study level, unit) per channel scheme of ``family``: same data and legend, new encodings."""
    out = []
    for channels in channel_schemes(family, "single") + channel_schemes(family, "double"):
        mode = "single" if len(channels) == 1 else "double"
        encodings = encodings_for(unit.kind, family, mode, channels, len(unit.chart.encodings), rng(key, "encodings"))
        out.append(("+".join(channels), dataclasses.replace(
            unit, chart=unit.chart.replace(encodings=encodings), channels=channels, encoding_mode=mode)))
    return out


def channel_rows(space: LegendSpace, key: str, index: int, seed: int, rng: Rng) -> Iterator[dict]:
    """Rows of one channel-study base: every channel scheme of its mark family, same questions."""
    families = sorted(CHANNELS_OF_FAMILY)
    if space.tables is not None:  # only the families some table's kind belongs to
        families = [f for f in families if set(FAMILY_KINDS[f]) & set(space.chart_kinds)]
    family = families[index % len(families)]
    kinds = [k for k in FAMILY_KINDS[family] if k in space.chart_kinds] or list(FAMILY_KINDS[family])
    r = rng(key, "unit")
    kind = kinds[int(r.integers(len(kinds)))]
    # Every scheme must give each series a distinct value: no more series than the smallest pool.
    limit = min(len(CHANNEL_POOLS[c]) for c in CHANNELS_OF_FAMILY[family])
    renders = Renders()

    def hidden(u: Unit) -> list:  # one layout for every scheme, so the matched set differs only in channels
        return renders.first_hidden((lu.chart, lu.legend) for _, lu in _levels(u, family, key, rng))

    unit = _unit_where(space, r, lambda u: u.num_series <= limit, hidden, kind=kind, mode="single",
                       channels=("color",), form="box")
    questions = None
    for level, level_unit in _levels(unit, family, key, rng):
        maker = RowMaker(level_unit, key, seed, study_factor="channel", study_level=level, renders=renders)
        st = maker.state()
        if questions is None:  # chosen once, on the first scheme: the same questions on every scheme
            questions = _channel_questions(st, rng(key, "questions"), index // len(families))
        for name, role, params in questions:
            # Each scheme is its own base unit (a configuration-level variant); the matched set
            # across schemes is (base_id, template), compared by study_level.
            row = maker.row(f"{key}-{level}-{name}", st, name, params, group_id=f"{key}-{level}-{name}",
                            chain_id=f"{key}-{level}", chain_role=role, intervention_family="configuration")
            if row is not None:
                yield row


def _channel_questions(st: Any, r: np.random.Generator, stratum: int = 0) -> list[tuple[str, str, dict]]:
    """The parsing, binding, value and reasoning questions of one base, about targets drawn by key.

    The target is drawn uniformly over the legend's entries and the comparison's second label
    over the others, so no position (the first entry) carries the answers: the ``first_entry``
    validity agent, which binds without reading, scores what a random binding scores.

    Every scheme of a base asks the same questions, so a base's yes/no answers repeat on all its
    rows, and a few bases could all answer "yes" (seed 2's small study: 22 of 22 ``t3_compare``
    rows, seed 4's: 11 of 11 trend rows). ``stratum`` (the base's ordinal among its mark
    family's bases) asks "yes" and "no" in turn where the chart offers both: the comparison
    "yes" on even strata, the trend (drawn among the targets that answer it so) on odd ones.
    """
    labels = st.labels
    bind = bind_template(st, "single")
    targets = list(labels)
    if bind == "t2_bind_trend":
        trend = LEGEND_TEMPLATES.get(bind)()
        targets = [lb for lb in labels if trend.answer(st, {"labels": [lb]}) == YES_NO[(stratum + 1) % 2]] or targets
    a = targets[int(r.integers(len(targets)))]
    comparison = LEGEND_TEMPLATES.get("t3_compare")()
    compare = [c for c in comparison.candidates(st, r) if c["labels"][0] == a]
    compare = [c for c in compare if comparison.answer(st, c) == YES_NO[stratum % 2]] or compare
    pick = compare[int(r.integers(len(compare)))] if compare else None
    out = [("t1_label_to_visual", "parse", {"labels": [a]})]
    if bind is not None:
        out.append((bind, "bind", {"labels": [a]}))
    if st.wedges:
        point = {}
    elif pick is not None:
        point = {"point": pick["point"]}
    else:
        point = {"point": int(r.integers(len(st.categories)))}
    out.append(("t2_value", "value", {"labels": [a], **point}))
    if pick is not None:
        out.append(("t3_compare", "reason", pick))
    return out


def _rotations(unit: Unit, key: str, seed: int) -> list[tuple[int, ...]]:
    """The N cyclic rotations of the legend order that mirrors the visual rank (rotation 0)."""
    ranks = visual_ranks(RowMaker(unit, key, seed).state())
    n = len(ranks)
    aligned = sorted(range(n), key=lambda i: ranks[i])  # legend order mirrors visual rank
    return [tuple(aligned[(p - k) % n] for p in range(n)) for k in range(n)]


def order_rows(space: LegendSpace, key: str, index: int, seed: int, rng: Rng) -> Iterator[dict]:
    """N rotations x N targets of the rank question on one chart (every target at every position once)."""
    kinds = [k for k in ORDER_KINDS if k in space.chart_kinds] or ([] if space.tables else list(ORDER_KINDS))
    if not kinds:
        raise ValueError(f"order study: no table draws as one of its kinds {list(ORDER_KINDS)}")
    kind = kinds[index % len(kinds)]
    r = rng(key, "unit")
    renders = Renders()

    def hidden(u: Unit) -> list:  # every rotation is asked, so every rotation must show every mark
        return renders.first_hidden((u.chart, u.legend.replace(order=o)) for o in _rotations(u, key, seed))

    unit = _unit_where(space, r, lambda u: visual_ranks(RowMaker(u, key, seed).state()) is not None, hidden,
                       kind=kind, mode="single", form="box")
    maker = RowMaker(unit, key, seed, study_factor="order", renders=renders)
    st = maker.state()
    for k, order in enumerate(_rotations(unit, key, seed)):
        maker.study_level = f"rotation_{k}"
        rotated = maker.state(unit.legend.replace(order=order))
        for label in st.labels:
            row = maker.row(f"{key}-r{k}-{st.item_of(label)}", rotated, "t3_rank", {"labels": [label]},
                            group_id=f"{key}-{st.item_of(label)}", intervention="none" if k == 0 else "rotate_order",
                            intervention_family="configuration", expected="base" if k == 0 else "preserve")
            if row is not None:
                yield row


def visibility_rows(space: LegendSpace, key: str, index: int, seed: int, rng: Rng) -> Iterator[dict]:
    """A one-label and a two-label question under full visibility and each occlusion policy."""
    r = rng(key, "unit")
    renders = Renders()
    unit = _unit_where(space, r, lambda u: u.num_series >= 3, lambda u: renders.hidden(u.chart, u.legend),
                       mode="single", form="box")
    # A policy variant that would hide a mark is skipped (groups.group_rows); hiding entries
    # only shrinks the legend, so in practice every policy is kept.
    maker = RowMaker(unit, key, seed, study_factor="visibility", study_level="full", renders=renders)
    st = maker.state()
    for name in ("t2_value", "t3_compare"):
        tpl = LEGEND_TEMPLATES.get(name)()
        cands = tpl.candidates(st, rng(key, name))
        if not cands:
            continue
        params = cands[int(rng(key, name, "pick").integers(len(cands)))]
        maker.study_level = "full"
        base = maker.row(f"{key}-{name}", st, tpl, params, group_id=f"{key}-{name}")
        if base is None:
            continue
        yield base
        for policy in VISIBILITY_POLICIES:
            maker.study_level = policy
            for row in group_rows(maker, base, tpl, params, [policy], rng):
                # An unanswerable policy's answerable twin (part of the legend gone, the target's
                # entries kept) is its own level: the four policies stay the paper's.
                yield {**row, "study_level": TWIN} if row["intervention"] == TWIN else row


STUDIES: dict[str, Callable[..., Iterator[dict]]] = {
    "channel": channel_rows, "order": order_rows, "visibility": visibility_rows}
"""The paper's studies: name (a preset config's ``study`` param) -> row generator of one base chart.
The builder adds the ``style`` study (``style_study.py``, built on this module's helpers)."""
