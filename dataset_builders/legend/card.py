"""The ``chartprobe-legend`` dataset card body: dimensions, templates, interventions, metrics.

The tables of templates and interventions are generated from the registries (their
docstrings and class attributes), and the composition tables from the built release, so
the card cannot drift from the code.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.tolerance import card_cell
from .interventions import INTERVENTIONS
from .space import CHANNELS_OF_FAMILY, MARK_FAMILY, LegendSpace
from .templates import LEGEND_TEMPLATES

UNIT = """## Base unit b = (s, l, q, y)

Every row factorises its chart as in LegendBench §3.3:

- `chart_spec` — the chart side **s**: data and marks (encodings included), axes and style, with
  the names the legend carries replaced by neutral placeholders and no legend at all.
- `legend_spec` — the legend side **l**: the label -> encoding mapping (`labels[i]` names the marks
  of legend item *i*; compositional legends hold one `factor` per channel; colour bars hold a
  value `scale` a·v + b) and its presentation (`form`, `order`, `position`, `font_scale`,
  `columns`, `visible`, `title`).
- `question` / `answer` — **q, y**, instantiated from both by the template named in `program`.
  Parameters name semantic targets (labels), so after an intervention the question is
  re-instantiated from the new legend with its intent kept, and the answer follows the current
  binding. Every question ends with a visual-vocabulary hint listing the channels used (never
  the mapping).
- `spec` — the composed, renderable chart; `image` is `render(spec)`.

`chartprobe.dataset_builders.legend.program.answer_row(row)` recomputes any row's answer from
`chart_spec`, `legend_spec` and `program`.
"""

GROUPS = """## Diagnostic chains and counterfactual groups

**Chains** (`chain_id`, `chain_role`): for each target reasoning question, the matched upstream
probes it needs, each asked on its own: `parse` -> `bind` -> `reason` for relational targets,
`parse` -> `bind` -> `value` -> `reason` for numeric ones; for colour bars `locate` replaces
`bind`. Pies have no separate binding probe (their marks are the entries).

**Groups** (`group_id` = the base row's id): the base row (`expected = base`) and legend-only
interventions of it. `chart_spec` is identical across a group; only `legend_spec` changes.
`expected` says what a legend-grounded reader does: `preserve` (same gold), `alter` (new gold,
always different from the base's), `abstain` (gold "I don't know": a legend entry the question
needs is not displayed). `evidence` lists the legend box ids a question needs and
`legend_boxes` the legend boxes actually rendered (every one with positive width and height; a
scatter or line handle is measured as its drawn marker or stroke), so answerability is checked on
the image's own layout. Sufficiency rule: an item is answerable iff every entry it reads is
displayed; identifying a hidden entry by elimination does not count. Every unanswerable occlusion
comes with an answerable one in the same group (`hide_distractor`: only entries the question does
not read are hidden), so a partial legend is answerable as often as not and "abstain whenever the
legend is incomplete" scores no better than a question-only policy (validity agent
`incomplete_legend`). No (image, question) pair is asked twice in a split.

**Evidence visible.** No text element (legend box, title, axis labels, value labels of other
marks) covers more than 25% of any data mark's box on any row's image: a base chart whose legend
would hide marks is re-laid out (the box legend moved, outside the axes first) or redrawn, and a
variant that would hide marks is replaced by another intervention. `occlusion_max` stores the
largest share of any data mark covered by any text on the row's render (0.0 when none), so the
rule can be checked without re-rendering (`chartprobe.dataset_builders.core.occlusion`).

**Labels readable.** No two text boxes (title, axis and tick labels, legend and direct labels,
printed values) overlap by more than 20% of the smaller one, and the legend box covers no more
than 10% of any axis label, tick label or printed value: such a chart is re-laid out or redrawn
like one that hides a mark (`text_overlap_max`, `legend_text_cover_max`;
`chartprobe.dataset_builders.core.readability`). Radar charts carry no value-axis label (it
would sit on the 9 o'clock spoke's name; the title names the metric).
"""

STUDIES = """## Controlled studies (§6)

- `channel_study`: one data table per base chart, rendered once per channel scheme of its mark
  family (`study_level`: point — color, marker, color+marker; line — color, marker, line_style,
  color+marker, color+line_style; area — color, texture, color+texture), with the same parse,
  bind, value and compare questions on each, about a target drawn uniformly over the legend's
  entries (validity agent `first_entry` checks that binding to the first entry scores what a
  random binding does). Compare stages per `(mark_family, study_level)`.
- `order_study`: a box legend whose base order mirrors the visual rank, rotated N times
  (`study_level = rotation_k`); the rank question of every target is asked on every rotation,
  so every target visits every legend position exactly once and the gold never changes.
  `target_legend_index` (1-based displayed position) equals `visual_rank` in the aligned
  condition and differs in the conflict condition.
- `visibility_study`: a one-label and a two-label question under full visibility and the four
  occlusion policies `mask_full`, `keep_target`, `hide_target`, `keep_distractor`; each
  unanswerable policy row comes with an answerable twin (`study_level = hide_distractor`: entries
  the question does not read are hidden, its own stay), so an incomplete legend alone does not
  mean "I don't know". A policy row that cannot be paired (the question reads every entry) is
  not asked.
"""

METRICS = """## Metrics (LegendBench §5.1)

Computed by `eval_tasks/metrics/legend.py`, each over the rows it applies to:

- **QA accuracy**: share of questions answered correctly. **Chain accuracy**: share of chains
  whose every question is correct.
- **Guide Read.** (`capability = guide_read`), **Bind.** (`bind`, incl. colour-bar localisation),
  **VE** (`value_extraction`), **Reason.** (`reason`), and **Reason.|Sup.**: reasoning accuracy
  on chains whose upstream probes are all correct.
- **Consistency**: over mapping-preserving variants, the variant and its base are both correct;
  **Responsiveness**: the same over mapping-altering variants (the model updates to the new gold);
  **CR** = harmonic mean of the two.
- **AP** = correct refusals / every refusal the model makes (on any row; 0 for a model that never
  refuses), **AR** = refusals on unanswerable rows / unanswerable rows, **AF1** = harmonic mean.
  Rows where the hidden entry is the only one missing (`elimination_answerable`: the unlabelled
  series is the target by elimination, though the strict gold is "I don't know") are also
  reported apart (`ap_excl_elim`, `ar_excl_elim`, `af1_excl_elim`, `elim_refusal_rate`).
- Order study: accuracy on aligned and conflict rows, and the share of conflict predictions that
  equal the target's legend position (legend-order shortcut).
"""


def _space_table() -> str:
    d = LegendSpace()
    rows = [
        ("chart_kind / mark_family", ", ".join(f"{k} ({f})" for k, f in MARK_FAMILY.items())),
        ("legend_form", ", ".join(d.legend_forms) + " (colorbar on heatmaps only)"),
        ("channels", "; ".join(f"{f}: {', '.join(c)}" for f, c in sorted(CHANNELS_OF_FAMILY.items()))),
        ("encoding_mode", ("single (one channel), double (colour + one, same identity), compositional "
                           "(colour = Region, other channel = Product; 2 x 2)")),
        ("num_series / num_points", f"{d.num_series[0]}-{d.num_series[1]} / {d.num_points[0]}-{d.num_points[1]}"),
        ("theme / add_labels", f"{', '.join(d.themes)} / values printed on marks or not"),
        ("legend_position / columns", f"{', '.join(d.legend_positions)} / {', '.join(map(str, d.legend_columns))}"),
        ("trajectory (line/area data)", ", ".join(d.trajectories)),
    ]
    intro = ("A preset config lists the allowed values of each dimension "
             "(`dataset_builders/configs/legend-*.yaml`); defaults:")
    lines = ["## Parameterised space", "", intro, "", "| dimension | values |", "|---|---|"]
    return "\n".join(lines + [f"| {a} | {b} |" for a, b in rows]) + "\n"


def _templates_table() -> str:
    lines = ["## Question templates", "",
             "| template | family | capability | answer type | match | legend forms | question |",
             "|---|---|---|---|---|---|---|"]
    for name, cls in LEGEND_TEMPLATES.items():
        match = card_cell(cls.answer_type, cls.tolerance_rule, 1, printed_note=True)
        if cls.answer_type == "number" and cls.reads > 1:  # legend/tolerances.py: derived values
            match += (f"; {cls.reads} reads add in quadrature, capped at half the gap to the nearest "
                      "single-category misreading (`tolerance_derivation`)")
        if cls.answer_type == "number" and cls.tolerance_rule == "axis":
            match += "; ±5% on a pie without printed values (no scale)"
        lines.append(f"| `{name}` | {cls.task_family} | {cls.capability} | {cls.answer_type} | {match or '—'} | "
                     f"{', '.join(cls.forms)} | {cls.description} |")
    return "\n".join(lines) + ("\n\nT4 (abstention) rows are the answerability variants of these questions. "
                               "Each number row stores its own `tolerance` (`abs:<x>`/`rel:<r>`), computed from "
                               "the ticks drawn on its image, and `tolerance_derivation` says how; the scorer uses it. "
                               "`answer_aliases` lists every channel value of the row with the names a person "
                               "uses for what is drawn.\n")


def _interventions_table() -> str:
    expected = {"preserving": "preserve (consistency)", "altering": "alter (responsiveness)",
                "answerability": "preserve if the visible entries suffice, else abstain"}
    lines = ["## Interventions (legend side only)", "", "| intervention | family | legend forms | what it does | expected |",
             "|---|---|---|---|---|"]
    for name, cls in INTERVENTIONS.items():
        lines.append(f"| `{name}` | {cls.family} | {', '.join(cls.forms)} | {cls.description} | "
                     f"{expected[cls.family]} |")
    lines.append("| `rotate_order` | configuration | box | cyclic legend-order rotation (order study) | preserve |")
    return "\n".join(lines) + "\n"


def _composition(built: dict[str, dict[str, Any]]) -> str:
    lines = ["## Composition of this release", "", "| config | rows | base charts | groups | chains | expected |",
             "|---|---|---|---|---|---|"]
    for config, splits in built.items():
        for split, ds in splits.items():
            cols = ds.select_columns(["base_id", "group_id", "chain_id", "expected"]).to_dict()
            exp = Counter(cols["expected"])
            lines.append(f"| {config}/{split} | {len(ds)} | {len(set(cols['base_id']))} | "
                         f"{len(set(cols['group_id']))} | {len(set(cols['chain_id']) - {''})} | "
                         f"{', '.join(f'{k} {v}' for k, v in sorted(exp.items()))} |")
    return "\n".join(lines) + "\n"


def _splits(built: dict[str, dict[str, Any]]) -> str:
    """How the splits relate (only when the release has more than one split name)."""
    names = sorted({s for splits in built.values() for s in splits}, key=lambda s: (s != "train", s != "validation", s))
    if len(names) < 2:
        return ""
    only = [f"`{c}`" for c, splits in built.items() if list(splits) == ["test"]]
    studies = f" ({', '.join(only)} {'has' if len(only) == 1 else 'have'} a test split only)" if only else ""
    return ("## Splits\n\n"
            f"Splits: {', '.join(f'`{s}`' for s in names)}{studies}. No base chart (the chart side's data "
            "with its set of legend labels) and no ChartBench table (`data_source`) is in two splits, "
            "whichever configs they belong to: the build checks it and refuses a release that breaks it "
            "(`chartprobe.dataset_builders.legend.disjoint`). With ChartBench tables each chart kind's "
            "tables are partitioned between the splits in proportion to their sizes "
            "(`chartprobe.dataset_builders.legend.table_shares`), so no test chart's table is drawn for "
            "training. Adding splits leaves the test rows unchanged: every item's randomness is keyed by "
            "its own id (`<config>-<split>-<index>`).\n")


def legend_card(built: dict[str, dict[str, Any]]) -> str:
    """Markdown documenting every dimension, template, intervention and metric, plus composition."""
    from .card_tables import sources_section

    parts = [UNIT, _space_table(), _templates_table(), GROUPS, _interventions_table(), STUDIES, METRICS,
             _splits(built), _composition(built), sources_section(built)]
    return "\n".join(p for p in parts if p)
