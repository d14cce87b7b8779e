"""``chartprobe-probes``: ChartProbe's skill-targeted probes and held-out complex reasoning.

Configs ``bar``, ``hbar``, ``pie``, ``shapes`` hold the probe bank (splits train /
validation / test); ``cr_bar``, ``cr_pie``, ``cr_shapes`` hold complex-reasoning questions
(test only) over further charts, and ``cr_ood_bar``, ``cr_ood_pie``, ``cr_ood_shapes``
out-of-template ones: steps no concatenation of trained templates yields, phrased from a
separate bank (``config_sets.py``, ``out_of_template.py``); ``style_shift_*`` draw each chart in
several engines and house styles (``style_shift.py``) and ``real_*`` chart real tables
(``real.py``). Every chart is an *item*: it is
sampled in a complexity tier (round-robin over simple / medium / complex), rendered once, and asked
``probes_per_skill`` templates of each skill (the paper's nine probes per chart), or one
held-out complex-reasoning template. Each row stores the recorded program and the spec,
so its answer can be re-run and checked by anyone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, ClassVar

from ..core.occlusion import occluded
from ..core.readability import readability_problems
from ..core.rng import rng_for
from ..release.dataset import (
    DatasetBuilder,
    base_features,
    dataset,
)
from ..release.labels import class_label
from ..release.preset import Preset
from .card import probe_card
from .config_sets import config_set, eligible_templates, pool_for, template_vocabulary
from .domains import PROBE_DOMAINS, TIERS
from .mix import choose
from .orders import ORDER_REGIMES, TREND_SHARE, is_monotone, order_decides
from .out_of_template import check_rows, check_templates
from .real import real_rows
from .row_columns import PROBE_SKILLS, config_domain, question_row
from .slots import data_table, sample_in_slot, split_slot
from .style_shift import style_shift_rows
from .templates._base import SKILLS

# The paper's text names no authors (an anonymous submission): the entry says so rather than guess.
CITATION = """@misc{chartprobe2026,
  title        = {ChartProbe: A Diagnostic Study on Visual Reasoning through Perception, Grounding, and Simple Reasoning},
  author       = {{Anonymous authors}},
  year         = {2026},
  howpublished = {Preprint},
  note         = {Author list not given in the paper's text; probe templates: Supplementary material}
}"""

@dataset("probes")
class ProbesDataset(DatasetBuilder):
    """ChartProbe's probe bank over bar, hbar, pie and shape scenes, plus CR sets."""

    title = "chartprobe-probes: atomic skill probes (ChartProbe)"
    paper = "ChartProbe: A Diagnostic Study on Visual Reasoning through Perception, Grounding, and Simple Reasoning"
    citation = CITATION
    default_config = "bar"  # the headline config: `load_dataset(repo)` opens it
    license = "cc-by-4.0"
    # cr_* ignore probes_per_skill; out_of_template / templates: see config_sets.py
    param_types: ClassVar[dict[str, dict[str, Any]]] = {
        "*": {"probes_per_skill": int, "out_of_template": bool, "templates": list[str], "styles": list[str],
              "tables": list[str]}}
    description = (
        "Skill-targeted probes generated from the spec that renders each chart: perception "
        "(geometry only, never reading a value or naming a category), grounding (label <-> "
        "element binding, values of named elements, bounding boxes) and simple reasoning (one "
        "operation over the values), on single-series bar, horizontal bar and pie charts and on "
        "CLEVR-like shape scenes; plus held-out complex-reasoning questions over disjoint charts, "
        "never to be used for training; real_* configs ask the probes over charts of real tables "
        "(vega_datasets), each row naming its source records. Every answer is exact by construction.")

    def features(self, config: str) -> Any:
        from datasets import Sequence, Value

        feats = base_features(chart_id="string", template_id="string", skill="string", tier="string",
                              program="string", domain="string", chart_kind="string",
                              n_marks="int32", held_out="bool", tolerance="string", answer_aliases="string")
        feats["target_bbox"] = Sequence(Value("float64"), length=4)
        if config_set(config)[0].style_shift:  # the drawing, as a factor (style_shift.py)
            feats.update(style=Value("string"), engine=Value("string"))
        if config_set(config)[0].real:  # the table, its digest and each value's rows (real.py)
            feats["source"] = Value("string")
        # Closed vocabularies as ClassLabel (stratified splits, value counts in the viewer); every
        # chartprobe reader sees names again (release/labels.py).
        vocab = {"template_id": template_vocabulary(config), "skill": SKILLS, "tier": TIERS,
                 "domain": list(PROBE_DOMAINS)}
        feats.update({column: class_label(names) for column, names in vocab.items()})
        return feats

    def item_keys(self, preset: Preset, config: str, split: str) -> list[str]:
        cset, domain = config_set(config)
        pool = pool_for(config, preset.params(config))  # refuses bad params at preset load
        if cset.out_of_template:
            check_templates(domain, pool)
        n = preset.configs[config].splits[split]
        return [f"{config}-{split}-{i:05d}" for i in range(n)]

    def build_item(self, preset: Preset, config: str, split: str, key: str) -> Iterator[dict]:
        cset = config_set(config)[0]
        if cset.style_shift or cset.real:
            yield from (style_shift_rows if cset.style_shift else real_rows)(self, preset, config, split, key)
            return
        domain_name, held_out = config_domain(config)
        domain = PROBE_DOMAINS[domain_name]
        tier = TIERS[int(key.rsplit("-", 1)[1]) % len(TIERS)]
        params = preset.params(config)
        pool = pool_for(config, params)
        trend = any(t.needs_trend for t in pool) and rng_for(preset.seed, key, "trend").random() < TREND_SHARE
        order = ORDER_REGIMES[int(rng_for(preset.seed, key, "order").integers(3))] if trend else "shuffled"
        trend_probe = next((t for t in pool if t.needs_trend), None)
        # A trend chart must carry its trend probe (a visual tie makes it degenerate): else a
        # sorted series would be left behind among the charts that must look random.
        drawn: dict[str, Any] = {}

        def acceptable(s: Any) -> bool:
            if trend and trend_probe.instantiate(domain.view(s, {}), rng_for(preset.seed, key, "check")) is None:
                return False
            drawn["render"] = rendered = domain.render(s)
            # every mark visible (no text over > 25% of one) and every label readable
            return not occluded(rendered.boxes) and not readability_problems(rendered.boxes, getattr(rendered, "slanted", ()))

        spec = sample_in_slot(domain, preset.seed, key, tier, split_slot(split, held_out), order, acceptable)
        rendered = drawn["render"]
        view = domain.view(spec, rendered.boxes)
        # On a sorted trend chart only the trend probe may be decided by positions.
        sorted_chart = trend and is_monotone(tuple(view.values[i] for i in view.order))
        keep = ((lambda t, q: t.needs_trend or not order_decides(q, view)) if sorted_chart
                else (lambda t, q: True))
        if held_out:  # one CR question per chart, templates rotated so every one is used
            start = int(key.rsplit("-", 1)[1]) % len(pool)
            questions = self._first(preset.seed, key, view, pool[start:] + pool[:start], 1, keep)
        else:
            per_skill = int(params.get("probes_per_skill", 3))
            # Trend charts always carry the trend probe; no other chart does (it would be
            # "fluctuating" almost always on a shuffled order).
            pool = [t for t in pool if trend or not t.needs_trend]
            questions = [q for skill in PROBE_SKILLS for q in self._pick(
                preset.seed, key, view, [t for t in pool if t.skill == skill], per_skill, skill, keep)]
        image = {"bytes": rendered.png, "path": None}
        for q in questions:
            yield question_row(q, chart_id=key, image=image, spec=spec, seed=preset.seed, domain=domain_name,
                               tier=tier, held_out=held_out, rendered=rendered, view=view)

    @classmethod
    def _pick(cls, seed: int, key: str, view: Any, templates: list[Any], k: int, stream: str,
              keep: Any) -> list[Any]:
        """Up to ``k`` questions from ``templates`` (trend probes first), skipping degenerate
        ones and those ``keep`` refuses, the others drawn to balance the skill's template mix
        (``mix.py``)."""
        trend = cls._first(seed, key, view, [t for t in templates if t.needs_trend], k, keep)
        usable = [(t, q) for t in templates if not t.needs_trend
                  for q in [t.instantiate(view, rng_for(seed, key, t.name))] if q is not None and keep(t, q)]
        pool = tuple(t.name for t in eligible_templates(config_domain(key.rsplit("-", 2)[0])[0], False))
        return trend + choose(seed, key, stream, pool, usable, k, taken=len(trend))

    @staticmethod
    def _first(seed: int, key: str, view: Any, templates: list[Any], k: int, keep: Any) -> list[Any]:
        """The first ``k`` non-degenerate questions of ``templates`` in the given order that
        ``keep(template, question)`` accepts."""
        out = []
        for t in templates:
            q = t.instantiate(view, rng_for(seed, key, t.name))
            if q is not None and keep(t, q):
                out.append(q)
                if len(out) == k:
                    break
        return out

    def verify(self, built: dict[str, dict[str, Any]]) -> None:
        """Charts of one domain never repeat a data table across splits or CR sets, and the rows
        of an out-of-template set hold no composition of trained templates, nor their wording."""
        seen: dict[tuple[str, str], str] = {}
        for config, splits in built.items():
            cset, domain = config_set(config)
            for split, ds in splits.items():
                if cset.out_of_template:
                    try:
                        check_rows(domain, zip(ds["template_id"], ds["program"], ds["question"]))
                    except ValueError as exc:
                        raise ValueError(f"{config}/{split}: {exc}") from None
                for chart_id, spec_json in set(zip(ds["chart_id"], ds["spec"])):
                    table = json.dumps(data_table(json.loads(spec_json)), sort_keys=True)
                    where = f"{config}/{split}"
                    other = seen.setdefault((domain, table), where)
                    if other != where:
                        raise ValueError(f"chart {chart_id} in {where} repeats a data table of {other}")

    def card_extra(self, built: dict[str, dict[str, Any]]) -> str:
        return probe_card(built, eligible_templates)
