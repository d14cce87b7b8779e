"""The dataset-card sections of a ``--released`` families release: where its rows come from, what they lack.

:func:`released_inputs` documents the released data a recipe names (source, revision, licences,
files and their hashes, the field mapping, the answer typing, the empty values, what validity
reads); :func:`released_extra` counts what was imported per config. A synthetic release gets
neither (both return ''), so its card is as before.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .released import OUR_SPLIT, RELEASED, load_released
from .released_answers import ANSWER_RULES
from .released_rows import BENCHMARKS, NOT_IN_RELEASE, SOURCE_PREFIX

__all__ = ["MAPPING", "imported", "released_extra", "released_inputs"]

MAPPING = """| our column | from the released row (`export_chart_question_families.py` `family_member_row`) |
|---|---|
| `family_id` | `<source_dataset_split>-<question_id>` (question ids restart in every export) |
| `id` | `<family_id>-original` / `-reconstruction` / `-v<N>` |
| `role`, `variant_seed` | `variant`: `original` -> (`original`, -1), `reconstruction` -> (`reconstruction`, -1), `seed_N` -> (`variant`, N) |
| `image` | the file `image` names, relative to the row file's folder (originals: also `originals/<source_dataset_split>/<source_row_index>.<png/jpg/jpeg/webp>`); RGB PNG byte for byte, anything else converted to RGB PNG |
| `question` | `question` (else `reasoning_q`, `query`: the released `chartographer` config's fallbacks) |
| `answer`, `answer_type` | `answer` (else `reasoning_a`, `label`), typed once per family (table below) |
| `original_question`, `original_answer` | the original member's question and typed answer |
| `question_adapted` | the member's question differs from the original's (`adapt_question`, A.5) |
| `group` | the source benchmark named in `source_dataset_split` (`chartqa`, `charxiv`, `chartmuseum`) |
| `source` | `family_id`: the sign-flip test resamples families, as the paper's does (A.8) |
| `regime` | `original` / `reconstruction` / `unlabelled` (the generator assigns no perturbation labels, A.4) |
| `reasoning_type` | a row's `reasoning_type` when it has one (ChartMuseum's types), else `unknown` |
| `data_source` | `chartographer:<source_dataset_split>/<question_id>/<variant>#row=<source_row_index>@<chart_id>` |

Not imported: `chart_data` (the paper's data object, not a chartprobe spec) and `datasets.json`."""

VALIDITY = """`chartprobe validate` runs the same reference agents and checks on imported rows. The oracle
answers each row with its released gold (there is no spec to recompute it from), so its 100% checks
the import and the answer typing: every canonical gold is matched by its own type's scorer. The
blind, stale, anti-stale and majority agents measure the released questions and answers as they are:
a failed shortcut check is a finding about the released families, not an import error. Agents that
read a chart spec (text reader, position prior) have nothing to read and answer nothing."""

SCORING = """The paper scores every member with an LLM answer-equivalence judge (A.7: GPT-4.1 mini, question +
target + extracted `<answer>`, Yes/No). The lm-eval tasks and `chartprobe score` score with the
typed scorer by default (the type each family was given above); for the paper's protocol use
`chartprobe score --judge` (or `CHARTPROBE_JUDGE_*` inside lm-eval) with the paper's judge prompt.
Typed and judged numbers can differ, most on `text` and `label` families."""


def imported(ds: Any) -> bool:
    """True when a built split's rows come from the released families (``data_source`` says so)."""
    if "data_source" not in ds.column_names or len(ds) == 0:
        return False
    return str(ds.select_columns(["data_source"])[0]["data_source"]).startswith(SOURCE_PREFIX)


def _recipe_released(preset: Any) -> tuple[str, str | None] | None:
    for config in preset.configs.values():
        if config.params.get("released"):
            return str(config.params["released"]), config.params.get("released_sha256") or None
    return None


def _typing_table() -> list[str]:
    lines = ["| order | `answer_type` | when every member's answer is |", "|---|---|---|"]
    lines += [f"| {r.order} | `{r.answer_type}` | {r.description} |" for r in ANSWER_RULES]
    return lines


def _facts(found: Any) -> list[str]:
    """The provenance bullets: data, revision, licences, code, files, split, images."""
    revisions = ", ".join(f"`{r}`" for r in found.revisions) or (
        "not recorded in the folder (no `.cache/huggingface/download/*.metadata` from `huggingface-cli download`)")
    declared = f"`{found.license}`" if found.license else "no licence field (or no README.md)"
    rows = [f for f in found.files if f.rows is not None]
    images = [f for f in found.files if f.rows is None]
    restored = sum(f.path.startswith("originals/") for f in images)
    terms = ", ".join(f"{b.name} ({b.rights})" for b in BENCHMARKS.values())
    listed = "; ".join(f"`{f.path}` ({f.rows} rows, sha256 `{f.sha256[:16]}…`)" for f in rows)
    return [
        f"- data: Hub dataset `{RELEASED['dataset']}`, revision {revisions}",
        (f"- licence: **CC BY-SA 4.0** (`{RELEASED['license']}`) where the source terms permit (paper A.1); the "
         f"downloaded card declares {declared}. Derived examples stay under their sources' terms: {terms}; "
         "per row, `group` names the source"),
        (f"- fields read as the released code writes and reads them: [compling-wat/Chartographer]({RELEASED['code']}) "
         f"at commit `{RELEASED['commit']}` (`src/pipeline/datasets/export_chart_question_families.py`, "
         "`src/common/datasets.py`, `src/pipeline/qa/run_qa_modules.py`; Apache-2.0)"),
        f"- sha256 of the whole set (every row file and image, path and hash): `{found.digest}`",
        f"- row files: {listed}",
        (f"- images: {len(images)} files, {restored} of them originals restored from the source benchmarks "
         "under `originals/` (the released card: upstream chart images are not included)"),
        (f"- the released rows are this release's split `{OUR_SPLIT}`; every family is imported once, in "
         "released order; question ids with an original row only (no reconstruction, no variants: not "
         f"families) skipped: {len(found.skipped)}"),
        ("- **redistribution**: the original charts embedded here come from the source benchmarks and keep "
         "their rights; do not push this release publicly unless those terms allow it"),
    ]


def _empties() -> list[str]:
    return [
        (f"- `spec`: `{NOT_IN_RELEASE['spec']!r}`, `qa_params`: `{NOT_IN_RELEASE['qa_params']}`, `chart_kind`: "
         "`unknown` (no chart spec: imported charts cannot be re-rendered or re-answered; the card's line about "
         "specs above holds for synthetic rows only)"),
        "- `tolerance`, `answer_aliases`, `degradation` (but in `resolution`): `\"\"`; `scale`: 1.0",
        "- `seed`: null (nothing was sampled); `generator_version`: the importer's version",
        f"- `data_source`: `{SOURCE_PREFIX}...` (synthetic releases: `synthetic`)",
        ("- `answer_type_reason`: why the family got its `answer_type`, the first typing rule that read every "
         "member's answer and the earlier ones that did not (synthetic rows: the source template's type)"),
    ]


_HUB_ID = re.compile(r"[a-z0-9][a-z0-9.+-]*")


def source_license(preset: Any) -> str | None:
    """The Hub ``license`` of an imported release (None for synthetic families).

    A ``chartprobe reconstruct`` export carries its source's terms: the one licence every accepted row
    states (per row in ``data_source``), ``other`` when they differ or are not a Hub identifier,
    else the source's declared licence. The paper's released families: the licence their card
    declares, else theirs as A.1 states it (CC BY-SA 4.0)."""
    named = _recipe_released(preset)
    if named is None:
        return None
    found = load_released(*named)
    if found.manifest is None:
        return (found.license or RELEASED["license"]).lower()
    rows = {m.license.strip().lower() for members in found.families.values() for m in members if m.license}
    terms = rows or {str(found.manifest.benchmark.get("license") or "unknown").strip().lower()}
    (one,) = terms if len(terms) == 1 else ("other",)
    return one if _HUB_ID.fullmatch(one) else "other"


def released_inputs(preset: Any) -> str:
    """Markdown about the released data the recipe names ('' when it names none)."""
    named = _recipe_released(preset)
    if named is None:
        return ""
    found = load_released(*named)
    if found.manifest is not None:  # a `chartprobe reconstruct` export, not the paper's families
        from .reconstruct.card import reconstruction_inputs

        return reconstruction_inputs(found) + "\n### Field mapping\n\n" + MAPPING + "\n"
    intro = (f"**Imported, not generated.** Every row is a member of a released {RELEASED['name']} family "
             f"([{RELEASED['dataset']}]({RELEASED['dataset_url']})), read from a local copy in its released layout "
             "by `chartprobe build families --released DIR` and mapped onto this schema. Questions and gold "
             "answers are the released ones (originals: the source benchmark's label; reconstructions and "
             "variants: the paper's executable QA logic), never read from pixels; no chart is re-rendered. (The "
             "description at the top and its line about specs are those of chartprobe's synthetic families.)")
    lines = ["## Data source: the released Chartographer families", "", intro, "", *_facts(found), "",
             "### Field mapping", "", MAPPING, "", "### Answer types",
             "", ("The release has no answer type. Each family gets one, from its members' answers and the "
                  "original question (`dataset_builders/families/released_answers.py`): the first rule that "
                  "reads every member's answer (a one-item list literal such as ChartQA's `['14']` counts as "
                  "its item)."), "", *_typing_table(), "", "### Scoring", "", SCORING, "",
             "### Columns the released data has no value for", "", *_empties(), "",
             "### Validity on imported rows", "", VALIDITY, ""]
    return "\n".join(lines)


def _config_line(config: str, ds: Any) -> str:
    cols = ds.select_columns(["family_id", "role", "answer_type", "question_adapted"]).to_dict()
    families = len(set(cols["family_id"]))
    types = Counter(t for t, r in zip(cols["answer_type"], cols["role"], strict=True) if r == "original")
    variants = Counter(cols["role"])["variant"]
    adapted = sum(cols["question_adapted"])
    paper = BENCHMARKS[config].families if config in BENCHMARKS else (
        sum(b.families for b in BENCHMARKS.values()) if config == "all" else None)
    shown = ", ".join(f"{t} {n}" for t, n in sorted(types.items())) if config != "resolution" else "—"
    return (f"| `{config}` | {families} | {paper if paper is not None else '—'} | {len(ds)} | "
            f"{variants if config != 'resolution' else '—'} | {adapted} | {shown} |")


def released_extra(built: dict[str, dict[str, Any]]) -> str:
    """Counts of the imported rows per config ('' for synthetic rows)."""
    if not any(imported(ds) for splits in built.values() for ds in splits.values()):
        return ""
    lines = ["## Configs", "",
             ("`all` holds every released family; `chartqa`, `charxiv`, `chartmuseum` the families of one source "
              "benchmark (the columns of the paper's Table 1; same rows as in `all`); `resolution` each "
              "reconstruction at 100%, 75% and 50% per side (RGB, bicubic, PNG: the paper's A.7 ablation, which "
              "reports ChartMuseum only). lm-eval: `chartprobe_families` reads `all` (OA, RA, VA, RVC, CVA, CU/NU/SP "
              "pooled over every family), `chartprobe_families_resolution` reads `resolution`; `chartprobe score` "
              "reports the same metrics per benchmark (`suites.families.per_group`)."), "",
             "| config | families | paper (Table 5) | rows | variants | adapted questions | answer types (families) |",
             "|---|---|---|---|---|---|---|"]
    for config, splits in built.items():
        for ds in splits.values():
            lines.append(_config_line(config, ds))
    return "\n".join(lines) + "\n"
