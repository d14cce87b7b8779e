"""The template table of the ``chartprobe-probes`` dataset card.

Lists every template with its skill, answer type, the scoring rule its answer type gets,
the chart kinds it applies to and one example drawn from the release itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.answer_types import SCORING_RULES
from ..core.tolerance import card_cell
from .config_sets import config_set
from .domains import PROBE_DOMAINS

_SECTIONS = {("perception", False): "Perception (P)", ("grounding", False): "Grounding (G)",
             ("reasoning", False): "Simple reasoning (SR)",
             ("complex", False): "Complex reasoning (CR, held out)",
             ("complex", True): "Complex reasoning out of template (CR-OOD, held out, `cr_ood_*` configs)"}
"""Card sections, keyed by (skill, out_of_template)."""


def _examples(built: dict[str, dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """First (question, answer) seen per template id, preferring test splits."""
    out: dict[str, tuple[str, str]] = {}
    for splits in built.values():
        for split in sorted(splits, key=lambda s: (s != "test", s)):
            ds = splits[split].select_columns(["template_id", "question", "answer"])
            for row in ds:
                out.setdefault(row["template_id"], (row["question"], row["answer"]))
    return out


def _example_from_specs(built: dict[str, dict[str, Any]], template: Any) -> tuple[str, str] | None:
    """Instantiate ``template`` on the release's own charts when sampling never picked it."""
    from ..core.rng import rng_for

    for config, splits in built.items():
        domain = PROBE_DOMAINS[config_set(config)[1]]
        if domain.template_domain != template.domain:
            continue
        for ds in splits.values():
            # a style-shift row's spec carries a house style only its own engine draws
            engines = ds["engine"] if "engine" in ds.column_names else [None] * len(ds)
            for chart_id, (spec_json, engine) in dict(zip(ds["chart_id"], zip(ds["spec"], engines))).items():
                spec = domain.spec_from_json(spec_json)
                boxes = domain.boxes(spec, engine) if template.answer_type == "bbox" else {}
                q = template.instantiate(domain.view(spec, boxes), rng_for(0, chart_id, template.name))
                if q is not None:
                    return q.question, q.answer
    return None


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _match(t: Any) -> str:
    """The template's tolerance or answer vocabulary, else its answer type's scoring rule."""
    return card_cell(t.answer_type, t.tolerance_rule, 1, t.answer_vocabulary) if (
        t.answer_type == "number" or t.answer_vocabulary) else SCORING_RULES[t.answer_type]


def probe_card(built: dict[str, dict[str, Any]], eligible: Callable[[str, bool], list[Any]]) -> str:
    """Markdown: one table per skill listing every template, plus how items are scored."""
    examples = _examples(built)
    templates: dict[str, Any] = {}
    for domain in PROBE_DOMAINS:
        for held_out in (False, True):
            for t in eligible(domain, held_out):
                templates.setdefault(t.name, t)
    intro = ("Answers are computed by the recorded `program` on the stored `spec`; the scoring "
             "rule is the matcher of the answer type in `eval_tasks/scoring/matchers.py`. Perception "
             "questions carry an instruction to ignore axis text. Complex-reasoning items are "
             "also scored with the RapidFuzz ratio, as in the paper. Out-of-template items decompose "
             "into primitive steps no concatenation of trained templates yields and share no word "
             "4-gram with trained phrasings; the build checks both (`probes/out_of_template.py`).")
    lines = ["## Templates", "", intro, ""]
    for (skill, ood), title in _SECTIONS.items():
        rows = sorted((t for t in templates.values() if t.skill == skill and t.out_of_template == ood),
                      key=lambda t: (t.domain, t.name))
        if not rows:
            continue
        lines += [f"### {title}", "", "| template | domain | kinds | answer type | scoring | example (answer) |",
                  "|---|---|---|---|---|---|"]
        for t in rows:
            q, a = examples.get(t.name) or _example_from_specs(built, t) or ("(no applicable chart)", "")
            kinds = ", ".join(t.kinds)
            lines.append(f"| `{t.name}` | {t.domain} | {kinds} | {t.answer_type} | "
                         f"{_cell(_match(t), 120)} | {_cell(q)} (**{_cell(a, 60)}**) |")
        lines.append("")
    styles = [s for splits in built.values() for ds in splits.values() if "style" in ds.column_names
              for s in dict.fromkeys(ds["style"])]
    if styles:
        from ..core.style_axis import style_card

        lines.append(style_card(list(dict.fromkeys(styles))))
    sources = [s for splits in built.values() for ds in splits.values() if "source" in ds.column_names
               for s in ds["source"]]
    if sources:
        from ..core.real.card import tables_card

        lines.append(tables_card(sources))
    return "\n".join(lines)
