"""``chartprobe-legend``: LegendBench's legend counterfactual groups, chains and studies.

An item is one base chart ``(s, l)`` drawn from the parameterised space a preset config
lists (``space.LegendSpace``). Configs:

- ``snapshot``: a broad sample of the space. Each base chart yields diagnostic chains
  (Parsing -> Binding [-> Value] -> Reasoning, localisation for colour bars), extra
  parsing/grounding probes, and around each a counterfactual group of legend-only
  interventions (mapping-preserving, mapping-altering, answerability).
- ``channel_study``, ``order_study``, ``visibility_study``: the controlled studies of §6
  (``studies``), one matched set per base chart.

With ``--tables DIR`` (params ``tables``/``tables_sha256``, ``sources``) the chart side's data
comes from ChartBench data tables instead of the synthetic generator (LegendBench §4.1); the
legend, interventions, chains and studies are the same. ``data_source`` records each row's
table (``chartbench:<data_path>``, else ``synthetic``) and ``tables_sha256`` the table set.

Every row stores its chart side, legend side and template program, so its answer can be
recomputed (``program.answer_row``) and its variants re-derived. Every row's image shows the
marks it reads: no text covers more than a quarter of a data mark (``visible``; the
``occlusion_max`` column is the proof).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any, ClassVar

from ..core.png_pad import equalize_rows
from ..core.readability import LEGEND_LIMIT, OVERLAP_LIMIT
from ..core.rng import rng_for
from ..release.dataset import DatasetBuilder, base_features, dataset
from ..release.preset import Preset, PresetError
from ..release.schema import OneOf
from .disjoint import DISJOINT_COLUMNS, check_disjoint
from .groups import offering_draw, snapshot_rows
from .rows import LEGEND_COLUMNS, RowMaker
from .sources import TablePool, pool_from_params
from .space import MARK_FAMILY, LegendSpace, sample_unit
from .studies import STUDIES as PAPER_STUDIES
from .style_study import style_rows
from .table_shares import Shares, share_pool, split_shares
from .tables import TablesError
from .visible import Renders, visible_unit

# The paper's text names no authors (an anonymous submission): the entry says so rather than guess.
CITATION = """@misc{legendbench2026,
  title        = {LegendBench: A Diagnostic Benchmark for Legend Understanding with Counterfactual Interventions},
  author       = {{Anonymous authors}},
  year         = {2026},
  howpublished = {\\url{https://github.com/legendbench/legendbench}},
  note         = {Author list not given in the paper's text; code and the 26,689-instance snapshot at the URL}
}"""

STUDIES = {**PAPER_STUDIES, "style": style_rows}
"""Every study a legend config may name: the paper's three and the style shift."""

SNAPSHOT_DEFAULTS = {"chains_per_chart": 2, "extra_probes": 2, "interventions_per_group": 3}


@dataset("legend")
class LegendDataset(DatasetBuilder):
    """Legend counterfactual groups (LegendBench)."""

    title = "chartprobe-legend: legend counterfactual groups (LegendBench)"
    paper = "LegendBench: A Diagnostic Benchmark for Legend Understanding with Counterfactual Interventions"
    citation = CITATION
    default_config = "snapshot"  # the headline config: `load_dataset(repo)` opens it
    # The study, the snapshot knobs and every LegendSpace dimension (a list of allowed values).
    param_types: ClassVar[dict[str, dict[str, Any]]] = {"*": {
        "study": OneOf(("snapshot", *STUDIES)), **dict.fromkeys(SNAPSHOT_DEFAULTS, int),
        "chart_kinds": list[OneOf(tuple(MARK_FAMILY))],
        "legend_forms": list[str], "encoding_modes": list[str], "channels": list[list[str]],
        "num_series": list[int], "num_points": list[int], "themes": list[str], "add_labels": list[bool],
        "legend_positions": list[str], "trajectories": list[str], "legend_columns": list[int],
        "tables": str, "tables_sha256": str}}
    description = (
        "Legend-centric diagnostic items in the style of LegendBench: each base unit factorises a chart "
        "side (data and marks, no legend) and a legend side (label -> encoding mapping and its "
        "presentation); questions test legend parsing, grounding, legend-conditioned reasoning and "
        "abstention, grouped into diagnostic chains, and legend-only interventions must keep, change "
        "or remove each answer. Three controlled studies vary one factor: encoding channel, legend "
        "order and legend visibility.")

    def features(self, config: str) -> Any:
        from datasets import Sequence, Value

        features = base_features(**LEGEND_COLUMNS)
        features["channels"] = Sequence(Value("string"))
        return features

    def item_keys(self, preset: Preset, config: str, split: str) -> list[str]:
        n = preset.configs[config].splits[split]
        if "tables" in preset.params(config):
            # Refuse a split short of tables now (one line, from the preset check), not mid-build.
            _split_space(preset, config, split)
        return [f"{config}-{split}-{i:04d}" for i in range(n)]

    def build_item(self, preset: Preset, config: str, split: str, key: str) -> Iterator[dict]:
        study, knobs, space = _split_space(preset, config, split)

        def rng(*keys: Any) -> Any:
            return rng_for(preset.seed, config, *keys)

        index = int(key.rsplit("-", 1)[1])
        if study == "snapshot":
            # Kind and encoding mode are stratified over the item index (coprime cycles), so even
            # a small release covers every chart kind and every mode.
            kinds, modes = space.chart_kinds, space.encoding_modes
            kind = kinds[index % len(kinds)]
            # With tables, the i-th item of a kind draws the i-th table of its split's share
            # (every redraw keeps it).
            table = space.tables.nth(kind, space.num_series, index // len(kinds)) if space.tables else None
            renders = Renders()

            stratum = _stratum(split, index, len(kinds))

            def draw(r: Any) -> Any:
                def once() -> Any:
                    return sample_unit(space, r, kind=kind, mode=modes[index % len(modes)], table=table)

                # A table pins the data: nothing to draw again for the stratum's answer.
                return once() if table is not None else offering_draw(once, stratum)

            def hidden(u: Any) -> list:
                return renders.hidden(u.chart, u.legend)

            # Every row of a snapshot item is asked on its base legend or a variant of it: the
            # base must show every mark (re-laid out, else redrawn from a fresh stream).
            unit = visible_unit(draw, lambda a: rng(key, "unit", a) if a else rng(key, "unit"),
                                space.legend_positions, hidden)
            maker = RowMaker(unit, key, preset.seed, renders=renders)
            rows = list(snapshot_rows(maker, rng, knobs["chains_per_chart"], knobs["extra_probes"],
                                      knobs["interventions_per_group"], stratum=stratum))
        elif study in STUDIES:
            rows = list(STUDIES[study](space, key, index, preset.seed, rng))
        else:
            raise PresetError(f"legend config {config!r}: unknown study {study!r}; "
                              f"choose snapshot or one of {sorted(STUDIES)}")
        # One file size for the whole item: an intervention that removes ink (a masked legend)
        # must not be recognisable from len(png) (the metadata agent, issue 14).
        yield from equalize_rows(rows)

    def verify(self, built: dict[str, dict[str, Any]]) -> None:
        """Release-wide validity: one chart side per group, expected behaviours hold, the order
        study visits every position once per target, no (image, question) pair is asked twice in
        a split, every row's labels are readable, and no base chart or ChartBench table is in two
        splits (``disjoint``)."""
        for config, splits in built.items():
            for split, ds in splits.items():
                cols = ds.select_columns(["id", "group_id", "chart_spec", "answer", "expected",
                                          "intervention_family", "target_legend_index", "study_factor",
                                          "study_level",
                                          "spec", "question", *READABILITY_LIMITS]).to_dict()
                _verify_groups(config, cols)
                _verify_unique_questions(f"{config}/{split}", cols)
                _verify_readable(f"{config}/{split}", cols)
        check_disjoint({config: {split: ds.select_columns(list(DISJOINT_COLUMNS)).to_dict()
                                 for split, ds in splits.items()} for config, splits in built.items()})

    def card_extra(self, built: dict[str, dict[str, Any]]) -> str:
        from .card import legend_card

        return legend_card(built)

    def card_inputs(self, preset: Preset) -> str:
        """The ChartBench table set a ``--tables`` release drew from: source, licence, counts."""
        from .card_tables import tables_card

        return tables_card(preset)


def _stratum(split: str, index: int, n_kinds: int) -> int:
    """The item's ordinal among charts of its kind, offset by a function of the split's name, so
    that small splits starting at item 0 do not all stratify their few charts alike (train,
    validation and test fall on offsets 0, 2 and 1 mod 3), and adding a split changes no other
    split's rows."""
    return index // n_kinds + zlib.crc32(split.encode())


def _config_space(params: dict[str, Any], config: str) -> tuple[str, dict[str, int], LegendSpace]:
    """(study, snapshot knobs, space) of a config's params; with tables, the whole pool's."""
    params = dict(params)
    study = params.pop("study", "snapshot")
    knobs = {k: int(params.pop(k, v)) for k, v in SNAPSHOT_DEFAULTS.items()}
    pool = pool_from_params(params)
    space = LegendSpace.from_params(params)
    if pool is not None:
        space = pool.narrow(space, config)
    return study, knobs, space


def _kinds_drawn(study: str, space: LegendSpace, n: int) -> dict[str, int]:
    """Items of each chart kind a split of ``n`` items may draw: a snapshot stratifies kinds over
    the item index; a study may draw any of its kinds on every item."""
    kinds = space.chart_kinds
    if study == "snapshot":
        return {k: (n - p + len(kinds) - 1) // len(kinds) for p, k in enumerate(kinds) if p < n}
    return dict.fromkeys(kinds, n)


@functools.lru_cache(maxsize=8)
def _release_shares(recipe: str, pool: TablePool) -> Shares:
    """The table share of every split of a recipe (its canonical JSON), over all configs drawing
    from ``pool``'s table set. Cached: every item of a build asks again."""
    demand: dict[str, Counter] = defaultdict(Counter)
    for config, body in json.loads(recipe)["configs"].items():
        study, _, space = _config_space(body["params"], config)
        if space.tables is None or space.tables.digest != pool.digest:
            continue
        for split, n in body["splits"].items():
            for kind, items in _kinds_drawn(study, space, n).items():
                demand[kind][split] += items
    return split_shares(pool, demand)


def _split_space(preset: Preset, config: str, split: str) -> tuple[str, dict[str, int], LegendSpace]:
    """(study, knobs, space) of one split: with tables, drawing only from the split's share, so no
    table is in two splits; TablesError if a kind the split draws has no fitting table there."""
    study, knobs, space = _config_space(preset.params(config), config)
    if space.tables is None:
        return study, knobs, space
    share = _release_shares(preset.to_json(), space.tables).get(split, {})
    pool = share_pool(space.tables, share)
    lo, hi = space.num_series
    for kind in _kinds_drawn(study, space, preset.configs[config].splits[split]):
        if not pool.candidates(kind, space.num_series):
            raise TablesError(
                f"legend config {config!r}, split {split!r}: its share of the {kind} tables "
                f"({len(share.get(kind, ()))} of {len(space.tables.by_kind.get(kind, ()))}; the others belong "
                f"to other splits) has none with {lo}-{hi} legend items: add {kind} tables, widen num_series "
                f"or drop {kind} from chart_kinds")
    return study, knobs, dataclasses.replace(space, tables=pool)


READABILITY_LIMITS = {"text_overlap_max": OVERLAP_LIMIT, "legend_text_cover_max": LEGEND_LIMIT}
"""Stored readability shares and their limits (``core.readability``): what ``verify`` checks per row."""


def _verify_readable(scope: str, cols: dict[str, list]) -> None:
    """Every row's labels are readable on its image: no text over text, no legend over axis text."""
    for column, limit in READABILITY_LIMITS.items():
        for row_id, share in zip(cols["id"], cols[column]):
            if share > limit + 1e-6:
                raise ValueError(f"{scope}: row {row_id} has {column} {share:.2f} > {limit} (unreadable labels)")


def _verify_unique_questions(scope: str, cols: dict[str, list]) -> None:
    """No (rendered spec, question) twice: a repeated pair would weigh double in QA accuracy.
    The rendered spec stands for the image (the render is a function of it and of the engine)."""
    first: dict[tuple[str, str, str], str] = {}
    n = len(cols["id"])
    for row_id, spec, question, factor, level in zip(cols["id"], cols["spec"], cols["question"],
                                                     cols.get("study_factor", [""] * n),
                                                     cols.get("study_level", [""] * n)):
        # a style study's level names the engine: one spec drawn by two engines is two images
        other = first.setdefault((spec, question, level if factor == "style" else ""), row_id)
        if other != row_id:
            raise ValueError(f"{scope}: rows {other} and {row_id} ask the same question on the same image")


def _verify_groups(config: str, cols: dict[str, list]) -> None:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(cols["group_id"]):
        groups[g].append(i)
    for gid, rows in groups.items():
        base = [i for i in rows if cols["expected"][i] == "base"]
        if len(base) != 1:
            raise ValueError(f"{config}: group {gid} has {len(base)} base rows (expected 1)")
        b = base[0]
        for i in rows:
            fam = cols["intervention_family"][i]
            if fam != "configuration" and cols["chart_spec"][i] != cols["chart_spec"][b]:
                raise ValueError(f"{config}: row {cols['id'][i]} changed the chart side of its group")
            exp = cols["expected"][i]
            if (exp == "preserve") != (cols["answer"][i] == cols["answer"][b]) and exp in ("preserve", "alter"):
                raise ValueError(f"{config}: row {cols['id'][i]} is '{exp}' but its answer says otherwise")
        if cols["study_factor"][b] == "order":
            positions = Counter(cols["target_legend_index"][i] for i in rows)
            if sorted(positions) != list(range(1, len(rows) + 1)) or set(positions.values()) != {1}:
                raise ValueError(f"{config}: order group {gid} does not visit every legend position once")
