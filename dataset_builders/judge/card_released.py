"""The dataset-card sections of a ``--released`` release: where its rows come from and what they lack.

:func:`released_inputs` documents the released data a recipe names (source, revision, licence,
files and their hashes, the field mapping, the empty values, how validity reads imported rows);
:func:`released_extra` counts what was imported per config. A synthetic release gets neither
(both return ''), so its card is as before.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .flaws._base import DIMENSIONS
from .released import OUR_SPLIT, RELEASED, RELEASED_SPLIT, load_released
from .released_rows import NOT_IN_RELEASE, TASKS, UNSPECIFIED

__all__ = ["imported", "released_extra", "released_inputs"]

SOURCE_PREFIX = "chartjudgebench:"

MAPPING = """| our column | `CPA` | `ChartReproduction` | `ChartEditing` |
|---|---|---|---|
| `id` / `pair_id` / `item_id` | `cjb-cpa-<pair_id>` | `cjb-crj_reproduction-<example_id>` | `cjb-crj_editing-<example_id>` |
| first image | `image_better` <- `better_image` | `image_reference` <- `target` (ground truth) | `image_reference` <- `reference` (original) |
| second image | `image_worse` <- `worse_image` | `image_candidate` <- `input` (generated) | `image_candidate` <- `edited` (result) |
| label | the column: `image_better` is the better chart | `label`/`answer` <- `decision`, `.title()` | `label`/`answer` <- `decision`, `.title()` |
| criterion | `criterion` <- `subcategory` (`Axis_Scaling` -> `axis_scaling`), checked against `category` | – | – |
| text | – | `question` = our reproduction query | `instruction`/`question` <- `instruction` |
| `chart_kind` | `chart_type` (else `unknown`) | `chart_type` | `chart_type` |

Field names with the released fallbacks (`sample_id`/`case_id` ids, `main_category`/`sub_category`,
`better`/`worse`, `ground_truth`, `generated_image`/`target_image`, `reference_image`/`edited_image`,
`query`) are read exactly as `chartjudge_bench/data.py` reads them: the first one a file has."""

VALIDITY = """`chartprobe validate` runs the same reference agents and checks on imported rows, and every
check keeps its meaning, so none is marked not applicable for being imported (the never-abstain line
is n/a on every judge release: no judge item is unanswerable). The oracle answers from the released
annotation (the column holding the better chart; `failure` is `none` exactly when the released label
is Accept), so its 100% checks the import itself; the blind, position-prior, file-metadata and text
agents measure the released questions and files as they are (images are not padded to equal byte
length as synthetic items are), so a failed shortcut check is a finding about the released data, not
an import error; CRJ class balance is the released labels' (the paper: 156/159 and 163/172)."""


def imported(ds: Any) -> bool:
    """True when a built split's rows come from the released data (``data_source`` says so)."""
    if "data_source" not in ds.column_names or len(ds) == 0:
        return False
    return str(ds.select_columns(["data_source"])[0]["data_source"]).startswith(SOURCE_PREFIX)


def _recipe_released(preset: Any) -> tuple[str, str | None] | None:
    for config in preset.configs.values():
        if config.params.get("released"):
            return str(config.params["released"]), config.params.get("released_sha256") or None
    return None


def _empties() -> list[str]:
    specs = ", ".join(f"`{k}`" for k in NOT_IN_RELEASE if k.startswith("spec_"))
    return [
        (f"- {specs}: `\"\"` (no chart spec: imported charts cannot be re-rendered, re-answered or "
         "re-intervened; the card's line about specs above holds for synthetic rows only)"),
        (f"- `evidence`: `{NOT_IN_RELEASE['evidence']}` (no verified flaw evidence); `strategy` (CPA) and "
         "`edit` (CRJ): `\"\"` (the released rows name no perturbation strategy or edit type)"),
        (f"- `failure`: `none` for Accept items, `{UNSPECIFIED}` for Reject items (the released annotation "
         "is binary)"),
        "- `seed`: null (nothing was sampled); `generator_version`: the importer's version",
        f"- `data_source`: `{SOURCE_PREFIX}<released id>` (synthetic releases: `synthetic`)",
    ]


def _facts(found: Any) -> list[str]:
    """The provenance bullets: data, revision, licence, code, files, split, images."""
    revisions = ", ".join(f"`{r}`" for r in found.revisions) or (
        "not recorded in the folder (no `.cache/huggingface/download/*.metadata` from `huggingface-cli download`)")
    declared = f"`{found.license}`" if found.license else "no licence field (or no README.md)"
    files = "; ".join(f"`{f.path}` ({f.rows} rows, sha256 `{f.sha256[:16]}…`)" for f in found.files)
    converted = ", ".join(f"{c} {n}" for c, n in sorted(found.converted.items()))
    return [
        f"- data: Hub dataset `{RELEASED['dataset']}`, revision {revisions}",
        (f"- licence: **CC BY 4.0** (`{RELEASED['license']}`, `DATA_LICENSE.md` of the released code); "
         f"the downloaded card declares {declared}"),
        (f"- fields read as the released evaluation code reads them: [CSU-JPG/ChartJudgeBench]({RELEASED['code']}) "
         f"at commit `{RELEASED['commit']}` (`chartjudge_bench/data.py`, `constants.py`, `protocols.py`; "
         "Apache-2.0)"),
        f"- data files (sha256 of the set `{found.digest}`): {files}",
        (f"- the released split `{RELEASED_SPLIT}` is this release's `{OUR_SPLIT}`; the preset's item counts "
         "and CPA `pairs` do not apply: every released row is imported, in released order"),
        ("- images: RGB PNG/JPEG kept byte for byte; others converted as the released code converts them "
         f"(`convert(\"RGB\")`), saved as PNG: {converted}"),
    ]


def released_inputs(preset: Any) -> str:
    """Markdown about the released data the recipe names ('' when it names none)."""
    named = _recipe_released(preset)
    if named is None:
        return ""
    intro = (f"**Imported, not generated.** Every row is a row of the released {RELEASED['name']} data "
             f"([{RELEASED['dataset']}]({RELEASED['dataset_url']})), read from a local copy in its released "
             "layout by `chartprobe build judge --released DIR` and mapped onto this schema. Labels are the "
             "released annotations, never read from pixels; no chart is re-rendered.")
    lines = ["## Data source: the released ChartJudgeBench data", "", intro, "", *_facts(load_released(*named)),
             "", "### Field mapping", "", MAPPING, "", "### Columns the released data has no value for", "",
             *_empties(), "", "### Validity on imported rows", "", VALIDITY, ""]
    return "\n".join(lines)


def released_extra(built: dict[str, dict[str, Any]]) -> str:
    """Counts of the imported rows per config, CPA criterion and CRJ label ('' for synthetic rows)."""
    if not any(imported(ds) for splits in built.values() for ds in splits.values()):
        return ""
    lines = ["## Evaluation protocol", "",
             ("CPA is asked twice per pair with the two images swapped (the released Forward and Reverse "
              "passes); a pair counts only if both orders pick the better chart (two-pass accuracy). CRJ "
              "reports accuracy, precision, recall, specificity and F1 with Accept as the positive class. "
              "`chartprobe_judge_*_paper` tasks ask and score them as the released code does."), "",
             "## Imported rows", "", "| config | rows | released size | composition |", "|---|---|---|---|"]
    for config, splits in built.items():
        for ds in splits.values():
            key = "criterion" if config == "cpa" else "label"
            counts = Counter(ds.select_columns([key])[key])
            shown = ", ".join(f"{k} {counts.get(k, 0)}" for k in (sorted(DIMENSIONS) if config == "cpa"
                                                                   else ("Accept", "Reject")))
            lines.append(f"| `{config}` | {len(ds)} | {TASKS.get(config).size} | {shown} |")
    kinds = Counter(k for splits in built.values() for ds in splits.values()
                    for k in ds.select_columns(["chart_kind"])["chart_kind"])
    lines += ["", "Chart types (released `chart_type`): " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), ""]
    return "\n".join(lines)
