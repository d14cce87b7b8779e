"""Diagnostic chains and counterfactual groups of one base chart (the snapshot config).

A *chain* pairs a target reasoning question with the upstream probes it needs, each asked
on its own (paper §4.3): Parsing -> Binding -> Reasoning for relational targets, Parsing ->
Binding -> Value Extraction -> Reasoning for numeric ones; for colour bars, localisation
replaces binding. A *group* is a base question plus legend interventions of it, each
with the behaviour a legend-grounded reader must show (paper §3.4, Table 3).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .interventions import INTERVENTIONS
from .interventions._base import Intervention, Probe
from .rows import RowMaker
from .templates import LEGEND_TEMPLATES
from .templates._base import ABSTAIN, LegendTemplate, State

__all__ = ["BIND_TEMPLATES", "bind_template", "chain_steps", "group_rows", "offering_draw", "snapshot_rows"]

Rng = Callable[..., np.random.Generator]
CHAIN_TARGETS = ("t3_compare", "t3_rank", "t3_diff", "t3_crossing", "t3_colorbar_diff")
FIRST_TARGET = "t3_crossing"
REDRAWS = 16
"""Draws of a base chart's data before a snapshot settles for one without its stratum's answer."""
EXTRA_PROBES = ("t1_visual_to_label", "t2_value", "t2_bind_peak", "t2_bind_trend", "t2_colorbar_value",
                "t1_colorbar_end", "t1_colorbar_tick", "t1_colorbar_orientation")
BIND_TEMPLATES = ("t2_bind_peak", "t2_bind_trend")
"""Binding probes, one per kind of x axis (a peak without a time axis, a trend over one)."""


def bind_template(st: State, mode: str) -> str | None:
    """The binding probe that applies to ``st`` (None: the chart has none)."""
    return next((t for t in BIND_TEMPLATES if LEGEND_TEMPLATES.get(t)().applies(st, mode)), None)


def _parse_step(st: State, label: str | None) -> tuple[str, dict[str, Any]]:
    """The parsing probe for one label under this legend form."""
    steps = {"box": lambda: ("t1_label_to_visual", {"labels": [label]}),
             "direct": lambda: ("t1_direct_label", {"item": st.item_of(label)}),
             "colorbar": lambda: ("t1_colorbar_end", {"end": "top"})}
    return steps[st.legend.form]()


def chain_steps(st: State, mode: str, target: str, params: dict[str, Any]) -> list[tuple[str, str, dict]] | None:
    """(role, template, params) of a chain ending in ``target``; None if an upstream probe is ill-posed."""
    tpl = LEGEND_TEMPLATES.get(target)()
    labels = list(params.get("labels", [None]))
    steps: list[tuple[str, str, dict]] = []
    for label in labels:
        steps.append(("parse", *_parse_step(st, label)))
    bind = bind_template(st, mode)
    locate = LEGEND_TEMPLATES.get("t2_colorbar_locate")()
    if locate.applies(st, mode):
        steps.append(("locate", "t2_colorbar_locate", {"row": params["row"]}))
    elif bind is not None:
        steps += [("bind", bind, {"labels": [label]}) for label in labels]
    if tpl.answer_type == "number":  # numeric targets read values before reasoning
        if "row" in params:
            steps += [("value", "t2_colorbar_value", {"row": params["row"], "col": params[c]})
                      for c in ("col", "col2")]
        else:
            steps += [("value", "t2_value", {"labels": [label], "point": params["point"]}) for label in labels]
    steps.append(("reason", target, params))
    for _role, name, p in steps:
        if LEGEND_TEMPLATES.get(name)().answer(st, p) is None:
            return None
    return steps


def _probe(tpl: LegendTemplate, st: State, params: dict[str, Any]) -> Probe:
    targets = tpl.targets(st, params)
    primary = st.evidence_of_item(st.item_of(targets[0])) if targets else ()
    return Probe(evidence=tpl.evidence(st, params), primary=primary, target=targets[0] if targets else "")


TWIN = "hide_distractor"
"""The answerable occlusion paired with every unanswerable one (``interventions/hide_distractor``)."""


def _twin_row(maker: RowMaker, base_row: dict[str, Any], tpl: LegendTemplate, params: dict[str, Any],
              probe: Probe, rng: Rng, name: str) -> dict[str, Any] | None:
    """An answerable partial-legend variant of ``base_row`` (a ``hide_distractor`` edit not asked yet),
    or None when the question needs every entry.

    Every unanswerable occlusion comes with one, so a reader that abstains whenever part of the
    legend is missing is right on half of the partial legends, not on nearly all of them.
    """
    st = maker.state()
    twin: Intervention = INTERVENTIONS.get(TWIN)()
    if not twin.applies(st, probe):
        return None
    for legend in twin.apply(st, probe, rng(maker.base_id, TWIN, probe.target, name)):
        new = maker.state(legend)
        gold = tpl.gold(new, params)
        if gold is None or gold[0] != base_row["answer"] or maker.hidden(new):
            continue
        row = maker.row(f"{base_row['id']}-{name}-{TWIN}", new, tpl, params, group_id=base_row["id"],
                        intervention=TWIN, intervention_family=twin.family, expected="preserve")
        if row is not None:
            return row
    return None


def group_rows(maker: RowMaker, base_row: dict[str, Any], tpl: LegendTemplate, params: dict[str, Any],
               names: list[str], rng: Rng, limit: int | None = None) -> Iterator[dict[str, Any]]:
    """Variant rows of the group whose base row is ``base_row``: one per intervention of
    ``names`` (in order) until ``limit`` interventions are used.

    A candidate legend whose render hides a data mark (``visible``) is skipped; an intervention
    that only fails that way does not use up a slot, so the group takes the next one instead.
    An unanswerable occlusion comes with its answerable twin (:func:`_twin_row`), one slot for
    the pair; one that cannot be paired is skipped the same way.
    """
    st = maker.state()
    probe = _probe(tpl, st, params)
    used = 0
    for name in names:
        if limit is not None and used >= limit:
            break
        iv: Intervention = INTERVENTIONS.get(name)()
        # Edits that ignore the target are drawn once per chart, so groups share their image.
        keys = (maker.base_id, name, probe.target) if iv.per_target else (maker.base_id, name)
        outcome = "none"
        for legend in iv.apply(st, probe, rng(*keys)):
            new = maker.state(legend)
            gold = tpl.gold(new, params)
            if gold is None:
                continue
            changed = gold[0] != base_row["answer"]
            if iv.family == "preserving" and changed:
                raise ValueError(f"{name} changed the answer of {base_row['id']}: a preserving edit must not")
            if iv.family == "altering" and (not changed or gold[0] == ABSTAIN):
                continue
            if iv.family == "answerability" and changed and gold[0] != ABSTAIN:
                raise ValueError(f"{name} changed an answerable gold of {base_row['id']}")
            if maker.hidden(new):
                outcome = "hidden" if outcome == "none" else outcome
                continue
            expected = {"preserving": "preserve", "altering": "alter", "answerability": "preserve"}[iv.family]
            twin = _twin_row(maker, base_row, tpl, params, probe, rng, name) if gold[0] == ABSTAIN else None
            if gold[0] == ABSTAIN and twin is None:
                outcome = "hidden" if outcome == "none" else outcome  # unpaired: the slot goes to the next
                continue
            row = maker.row(f"{base_row['id']}-{name}", new, tpl, params, group_id=base_row["id"],
                            intervention=name, intervention_family=iv.family, expected=expected)
            if row is not None:
                outcome = "row"
                yield row
                if twin is not None:
                    yield twin
                break
        used += outcome != "hidden"


def _rank_interventions(tpl: LegendTemplate, st: State, params: dict, rng: np.random.Generator) -> list[str]:
    """Every applicable intervention, most wanted first: one per family, then the rest shuffled."""
    probe = _probe(tpl, st, params)
    usable = [n for n, cls in INTERVENTIONS.items() if cls().applies(st, probe)]
    by_family: dict[str, list[str]] = {}
    for n in usable:
        by_family.setdefault(INTERVENTIONS.get(n).family, []).append(n)
    picked = [fam[int(rng.integers(len(fam)))] for _, fam in sorted(by_family.items())]
    rest = [n for n in usable if n not in picked]
    rng.shuffle(rest)
    return picked + rest


def _key(template: str, params: dict[str, Any]) -> str:
    return f"{template}:{json.dumps(params, sort_keys=True)}"


def offering_draw(draw: Callable[[], Any], stratum: int) -> Any:
    """The first of up to :data:`REDRAWS` units from ``draw`` whose chart offers the answer its
    stratum wants of :data:`FIRST_TARGET` (the first draw where none does, or where it does not apply).

    Stratifying which pair is asked cannot ask a count no chart offers: a pair crossing twice
    comes on ~21% of line charts, so the small preset's four line charts asked "0" and "1" only.
    Drawing the data again until the count is there (one draw in five has a pair crossing twice,
    ~97% of charts within 16 draws) asks every count the answer set holds, spread over charts
    like the strata.
    """
    tpl = LEGEND_TEMPLATES.get(FIRST_TARGET)()
    first = None
    for _ in range(REDRAWS):
        unit = draw()
        st = State(chart=unit.chart, legend=unit.legend, channels=unit.channels, add_labels=unit.add_labels)
        if not tpl.applies(st, unit.encoding_mode) or not tpl.answer_set:
            return unit
        if tpl.offers(st, tpl.answer_set[stratum % len(tpl.answer_set)]):
            return unit
        first = first or unit
    return first


def snapshot_rows(maker: RowMaker, rng: Rng, chains: int, extras: int, per_group: int,
                  stratum: int = 0) -> Iterator[dict]:
    """Every row of one snapshot base chart: chains, extra probes, and a group around each.

    ``stratum`` (the item's ordinal among charts of its kind) picks which answer of a closed
    answer set a chain target asks where the chart offers it (``LegendTemplate.candidates_for``).
    """
    st, mode = maker.state(), maker.unit.encoding_mode
    bases: list[tuple[dict, LegendTemplate, dict]] = []
    asked: set[str] = set()  # every base question once: a chain sharing a probe with another is redrawn
    r = rng(maker.base_id, "chains")
    targets = [t for t in CHAIN_TARGETS if LEGEND_TEMPLATES.get(t)().applies(st, mode)]
    r.shuffle(targets)
    # The crossing count applies to line charts only (one kind in seven) and its chain shares
    # label probes with any other: drawn first where it applies, or it is hardly ever asked.
    targets.sort(key=lambda t: t != FIRST_TARGET)
    n_chains = 0
    for target in targets:
        if n_chains >= chains:
            break
        tpl = LEGEND_TEMPLATES.get(target)()
        want = tpl.answer_set[stratum % len(tpl.answer_set)] if tpl.answer_set else None
        cands = tpl.candidates_for(st, r, want)
        for j in r.permutation(len(cands)):
            steps = chain_steps(st, mode, target, cands[int(j)])
            if steps is None or asked & {_key(name, p) for _, name, p in steps}:
                continue
            asked.update(_key(name, p) for _, name, p in steps)
            chain_id = f"{maker.base_id}-c{n_chains}"
            for k, (role, name, p) in enumerate(steps):
                row = maker.row(f"{chain_id}-{k}", st, name, p, group_id=f"{chain_id}-{k}", chain_id=chain_id,
                                chain_role=role)
                if row is not None:
                    bases.append((row, LEGEND_TEMPLATES.get(name)(), p))
            n_chains += 1
            break
    extra_names = [t for t in EXTRA_PROBES if LEGEND_TEMPLATES.get(t)().applies(st, mode)]
    r.shuffle(extra_names)  # which extra probes a chart gets varies, so every template is covered
    for k, name in enumerate(extra_names[:extras]):
        tpl = LEGEND_TEMPLATES.get(name)()
        want = tpl.answer_set[stratum % len(tpl.answer_set)] if tpl.answer_set else None
        cands = [c for c in tpl.candidates_for(st, r, want) if _key(name, c) not in asked]
        if cands:
            p = cands[int(r.integers(len(cands)))]
            asked.add(_key(name, p))
            row = maker.row(f"{maker.base_id}-p{k}", st, tpl, p, group_id=f"{maker.base_id}-p{k}")
            if row is not None:
                bases.append((row, tpl, p))
    for row, tpl, p in bases:
        yield row
        # Groups around every chain target and extra probe, and around one upstream probe per chain.
        if row["chain_role"] in ("", "reason") or row["id"].endswith("-0"):
            names = _rank_interventions(tpl, st, p, rng(maker.base_id, row["id"], "pick"))
            yield from group_rows(maker, row, tpl, p, names, rng, limit=per_group)
