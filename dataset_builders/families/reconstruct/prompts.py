"""The construction prompts, one per stage, and the text each call sends.

They follow the contracts of the paper's released pipeline (github compling-wat/Chartographer @
1f02025c: ``src/pipeline/reconstruction/chart_to_code.py`` (A.2), ``diagnose_chart_issues.py`` and
``revise_chart_code.py`` (A.3), ``generate_data_modules.py`` (A.4), ``src/pipeline/qa/
generate_question_adapters.py`` and ``generate_answer_modules.py`` (A.5)): the same inputs, the
same JSON replies and function signatures, the same rules (semantic data apart from style code,
sparse fix-worthy diagnoses, seed-controlled regimes, verbatim questions, answers computed from
the data). The wording is ours, not the released text, so construction-side parity with the
paper is by contract, not by prompt string. Every call's first line names the stage (and the
round for the A.3 loop): endpoints and logs can tell the calls apart, and the text is part of
the cache key. :data:`PROMPTS` (the ``chartprobe`` protocol) or the ``paper`` protocol's prompts
(:func:`protocol_prompts`: the released stages' inputs, an assumptions stage, the released import
lists, no source answer) are recorded whole in the manifest, with their SHA-256.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .sandbox.check import ALLOWED_IMPORTS

__all__ = ["ALLOWED_IMPORTS_TEXT", "PROMPTS", "imports_text", "prompt_sha256", "protocol_prompts", "stage_text"]

_LIBRARIES = ("numpy", "pandas", "matplotlib")
ALLOWED_IMPORTS_TEXT = (f"the standard modules {', '.join(sorted(ALLOWED_IMPORTS - set(_LIBRARIES)))}, plus numpy, "
                        "pandas and matplotlib; no files, network, subprocesses or other imports")
"""The sandbox's AST check (:data:`~.sandbox.ALLOWED_IMPORTS`) in words: the model is told what passes."""

_CODE_RULES = f"""CODE RULES
- Imports allowed: {ALLOWED_IMPORTS_TEXT}.
- Exactly one top-level function (the one named below); besides it only import statements.
- Deterministic: no clock, no global random state (seed a local random.Random or numpy Generator)."""

PROMPTS: dict[str, str] = {
    "reconstruct": f"""Given the chart image, reverse-engineer it into data and plotting code.
Return one JSON object with exactly two keys, "chart_data" and "chart_code", and nothing else.
- chart_data: the semantic data only: entities, categories, labels, dates, values, groups and their domain
  order, as read from the chart. Compact (tables, grouped arrays, parameters), never traced pixels or
  plotting coordinates. When a value is unreadable, infer a plausible one that keeps the trends, ranks,
  crossings and boundaries. No styling (colours, markers, limits, ticks, title placement, figure size).
- chart_code: Python defining make_figure(data, savepath=None) that draws the chart from `data` alone
  (nothing in the code that chart_data holds) with matplotlib, saves it as PNG to savepath when given
  (bbox_inches="tight") and closes the figure. Never call plt.show().
Semantic fidelity first; match layout and style reasonably, a faithful simpler approximation is fine.
{_CODE_RULES}""",
    "diagnose": """The first image is the original chart, the second the reconstruction rendered from the code and
data below. Compare them and report only fix-worthy differences, in this priority: data faithfulness;
structure (chart type, mappings, scales, ordering, legend meaning); readability (overlaps among labels,
legend, ticks and marks); labels and annotations; aesthetics only when misleading. At most 6 issues,
usually 0-2; ignore cosmetic drift (fonts, theme, spacing, shades) and tiny numeric drift that keeps
trends and ranks; merge duplicates; when unsure, leave it out. The original is the truth.
Return one JSON object: {"issues": [{"category": "data|structure|readability|labels|aesthetics",
"targets": "code|data|both", "severity": "low|medium|high", "summary": "...", "details": ["..."],
"suggested_fix": "..."}]}, with {"issues": []} when nothing is worth fixing. (Equivalently:
{"significant_issues": true|false, "diagnosis": "...", "plan": "..."}.)""",
    "revise": f"""The first image is the original chart. The reconstruction below has the problems listed (a
diagnosis of its render, or the error its code raised). Plan the smallest changes that fix them, then
apply the plan. Return one JSON object with exactly "chart_data" and "chart_code", under the same rules as
the reconstruction: semantic data only in chart_data, make_figure(data, savepath=None) drawing from it.
{_CODE_RULES}""",
    "verdict": """The first image is the original chart, the second the final reconstruction; the question it must
keep answerable and the data follow. Judge the reconstruction for this question: "accept" when it keeps the
visual evidence the question needs (minor style differences are fine); "reject" when it is too far from
the original, the relation the question needs cannot be recovered, or the data cannot support controlled
variation; "needs_review" when a person must decide (ambiguous or overlapping labels, unreadable values,
inconsistent legend or panel structure). Return one JSON object: {"verdict": "accept|reject|needs_review",
"reason": "one sentence"}.""",
    "generate_data": f"""Write a Python function generate_data(data_template, seed) that returns a new data object for
make_figure below: the same schema as the template (same keys, same value types, same meaning), valid for
the chart, and deterministic given the seed. Use seed-controlled regimes, not only small noise: reorder
ranks, move peaks, flip or bend trends, change compositions, so that the relations charts are read for
really change; keep domain constraints (shares sum to their total, counts stay integers, dates stay in
order). Never modify data_template in place. Return one JSON object: {{"code": "..."}}.
{_CODE_RULES}""",
    "adapt_question": f"""Write a Python function adapt_question(data) that returns the question for a chart drawn from
`data` (same schema as below). Normally it returns the original question verbatim; edit it minimally only
when regenerated data would make it unanswerable (e.g. it names a category the data no longer has).
Return one JSON object: {{"code": "..."}}.
{_CODE_RULES}""",
    "generate_answer": f"""Write a Python function generate_answer(data) that computes the answer to the question from
`data` (same schema as below), never from copied constants: use the schema's fields, keep the answer's
format (the original answer's type, units and precision), and work when elements are reordered or values
change. On the data below it must return the original answer. Return one JSON object: {{"code": "..."}}.
{_CODE_RULES}""",
}


def imports_text(allowed: frozenset[str]) -> str:
    """An allow-list in words: the standard modules, then the libraries."""
    libraries = sorted(allowed - _STDLIB)
    return (f"the standard modules {', '.join(sorted(allowed & _STDLIB))}, plus {', '.join(libraries)}; "
            "no files, network, subprocesses or other imports")


_STDLIB = ALLOWED_IMPORTS - set(_LIBRARIES)


def _rules(allowed: frozenset[str]) -> str:
    return _CODE_RULES.replace(ALLOWED_IMPORTS_TEXT, imports_text(allowed))


_ASSUMPTIONS = """Given the chart code (make_figure(data, savepath=None)) and the chart data JSON below, identify:
1) implicit assumptions and constraints in the data and the plotting logic;
2) background or domain knowledge needed to synthesize realistic data of this kind;
3) concrete generation guidance that keeps generated data complete and well specified (full code lists,
   ordered bins, taxonomies, join keys, coverage).
Keep each item short and actionable; state data rules (schema invariants, domain constraints, ranges,
orderings, dependencies), not chart-instance quirks or styling; prefer relationships and ranges to exact
values; mark an uncertain item with the prefix "Hypothesis:". Return one JSON object with exactly three
lists of strings: {"implicit_assumptions": [...], "background_knowledge": [...], "generation_guidance": [...]}."""


def protocol_prompts(protocol: Any) -> dict[str, str]:
    """Every stage's prompt under ``protocol`` (:class:`~.protocol.Protocol`): :data:`PROMPTS` for the
    ``chartprobe`` protocol; for ``paper``, the released stages' inputs and import lists."""
    if protocol.name == "chartprobe":
        return dict(PROMPTS)
    figure, data, answer = (_rules(protocol.allowed(f)) for f in ("make_figure", "generate_data", "generate_answer"))
    out = {k: v.replace(_CODE_RULES, figure) for k, v in PROMPTS.items() if k in ("reconstruct", "revise")}
    out.update({k: PROMPTS[k] for k in ("diagnose", "verdict")})
    out["assumptions"] = _ASSUMPTIONS
    out["generate_data"] = f"""Write a Python function generate_data(data_template, seed) that returns a new data object for
the chart code below: exactly the template's schema (same keys, same nesting, the same length for every list,
the same value types and meaning), valid for the chart, and deterministic given the seed. Do not copy the
template's values. Use seed-controlled regimes and latent parameters, not only small noise: reorder ranks,
move peaks, flip or bend trends, change compositions, so that the relations charts are read for really
change; keep the constraints make_figure implies (ordering, positivity, totals, alignment, completeness).
The ASSUMPTIONS AND BACKGROUND section is required context for the data's meaning and completeness. Never
modify data_template in place. Return one JSON object: {{"code": "..."}}.
{data}"""
    out["adapt_question"] = PROMPTS["adapt_question"].replace(_CODE_RULES, answer).replace(
        "(same schema as below)", "(same schema as below; the chart code is context only)")
    out["generate_answer"] = f"""Write a Python function generate_answer(data) that computes the answer to the question from
`data` (same schema as below), never from copied constants. The chart code and the question-adapter module
are context for what is asked, not inputs at run time. Compute exactly the requested operation and scope,
use only fields present in the data, keep the answer type and format the question implies, handle
reordered elements, changed values and ties, and never return an empty answer. Return one JSON object:
{{"code": "..."}}.
{answer}"""
    return out


def prompt_sha256(prompts: dict[str, str] | None = None) -> str:
    """SHA-256 of every stage prompt (recorded with the prompts in the manifest; default :data:`PROMPTS`)."""
    return hashlib.sha256(json.dumps(PROMPTS if prompts is None else prompts, sort_keys=True).encode()).hexdigest()


def stage_text(stage: str, *, round_: int | None = None, prompts: dict[str, str] | None = None, **parts: Any) -> str:
    """The full text of one call: ``STAGE:`` (and ``ROUND:``) lines, the prompt (``prompts``: a protocol's,
    default :data:`PROMPTS`), then the named parts (data as JSON, code, question, ...) under upper-case
    headers, in the order given."""
    head = [f"STAGE: {stage}"] + ([f"ROUND: {round_}"] if round_ is not None else [])
    body = [(PROMPTS if prompts is None else prompts)[stage]]
    for name, value in parts.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
        body.append(f"{name.replace('_', ' ').upper()}:\n{text}")
    return "\n".join(head) + "\n\n" + "\n\n".join(body)
