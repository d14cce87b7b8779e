"""Released Chartographer rows -> ``chartprobe-families`` members and rows.

The released schema is what ``src/pipeline/datasets/export_chart_question_families.py``
(``family_member_row``, ``export_chart_question_families``) writes, github compling-wat/Chartographer
at commit 1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083 (``docs/workflow.md`` lists the same nine fields):
one JSON object per line with ``chart_id`` (``c%06d`` over the sorted image stems of the export),
``question_id`` (``q%06d`` of the source row's index: the family, ``family_id_col`` of the export's
``datasets.json``), ``variant`` (``original``, ``reconstruction``, ``seed_N``: ``common/artifacts.py``
``seed_variant``), ``image`` and ``chart_data`` (paths relative to the export folder; an original whose
source image was not found has ``image`` ``""``), ``question``, ``answer`` (both ``str()`` of the
source's or the QA module's value), ``source_dataset_split`` (``<dataset>_<split>`` unless the export
was told otherwise) and ``source_row_index`` (the row of the source split after its
``row_filter_equals``). The question and answer columns are looked up as the released
``chartographer`` dataset config does (``examples/datasets.example.json``, ``common/datasets.py``
``resolve_column``: the first of ``question``/``reasoning_q``/``query`` and ``answer``/``reasoning_a``/
``label`` a row has). Our mapping, per member:

- family: ``family_id`` = ``<source_dataset_split>-<question_id>`` (question ids restart at
  ``q000000`` in every export, so the split names the namespace; ``visualize_predictions.py``
  ``_variant_family_keys`` shows the released code meeting that collision); row ``id`` =
  ``<family_id>-original`` | ``-reconstruction`` | ``-v<N>``;
- ``role``/``variant_seed`` from ``variant`` (:data:`VARIANTS`); ``regime`` is ``original``,
  ``reconstruction`` or ``unlabelled`` (the generator assigns no perturbation labels, A.4);
- ``group`` = the source benchmark (:data:`BENCHMARKS`, named in the split); ``source`` =
  ``family_id``: each released family has its own QA logic, so the sign-flip test resamples
  families one by one, as the paper's does (A.8, Table 1);
- ``answer``/``answer_type``: :mod:`.released_answers`; ``original_answer``/``original_question``:
  the original member's; ``question_adapted``: the member's question differs from the original's
  (``adapt_question``'s minimal validity edits, A.5);
- ``reasoning_type``: ChartMuseum's type when a row carries one (:data:`REASONING_FIELDS`; the
  export writes none), else ``unknown``;
- not in the release (:data:`NOT_IN_RELEASE`): ``spec`` ``""`` (the released ``chart_data`` is the
  paper's data object, not a chartprobe spec), ``qa_params`` ``"{}"``, ``chart_kind`` ``unknown``,
  ``tolerance``/``answer_aliases``/``degradation`` ``""``, ``seed`` null;
- ``data_source`` = ``chartographer:<source_dataset_split>/<question_id>/<variant>`` plus
  ``#row=<source_row_index>`` and ``@<chart_id>`` when released, and ``;license=<licence>`` when the
  row carries one (``chartprobe reconstruct`` exports: the source row's licence, per row).

A group of rows is a family when it has its original, its reconstruction and at least one seed
variant. A question id with an original row only (the export writes an original for every source
row, before it knows whether the chart was accepted) is not a family of the paper's (A.1: charts
excluded before counterfactual expansion) and is skipped and counted; any other incomplete group
is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .released_answers import type_family

__all__ = ["ANSWER_FIELDS", "BENCHMARKS", "NOT_IN_RELEASE", "QUESTION_FIELDS", "REQUIRED_FIELDS", "SOURCE_PREFIX",
           "VARIANTS", "Benchmark", "ReleasedFamiliesError", "ReleasedMember", "benchmark_of", "check_family",
           "data_source", "family_rows", "member_of", "original_only"]

SOURCE_PREFIX = "chartographer:"
REQUIRED_FIELDS = ("question_id", "variant", "image", "source_dataset_split")
QUESTION_FIELDS = ("question", "reasoning_q", "query")
ANSWER_FIELDS = ("answer", "reasoning_a", "label")
"""``question_col``/``question_cols`` and ``answer_col``/``answer_cols`` of the released
``chartographer`` config, in the order ``resolve_column`` tries them."""
REASONING_FIELDS = ("reasoning_type", "Reasoning Type", "reason_type")
"""Where ``visualize_predictions.py`` looks for a reasoning type (its last candidate, ``type``, is
ChartQA's human/machine flag in some copies, so it is not read)."""
MAX_FIELD_CHARS = 20_000
NOT_IN_RELEASE = {"spec": "", "qa_params": "{}", "chart_kind": "unknown", "tolerance": "", "answer_aliases": "",
                  "degradation": "", "scale": 1.0, "seed": None}
"""Columns the released data has no value for, and the value each imported row gets."""


class ReleasedFamiliesError(ValueError):
    """The released Chartographer data cannot be read or mapped (one line naming the file and row)."""


@dataclass(frozen=True)
class Benchmark:
    """A source benchmark of the paper's testbed (§4, A.1, ``examples/datasets.example.json``)."""

    key: str
    name: str
    hub: str
    """The source dataset the released code loads (``hf_id``, split, filter)."""
    license: str
    rights: str
    """The source's terms as A.1 states them (who holds the chart images' rights)."""
    families: int
    """Accepted families the paper reports for it (Table 5)."""


BENCHMARKS: dict[str, Benchmark] = {b.key: b for b in (
           Benchmark("chartqa", "ChartQA", "`HuggingFaceM4/ChartQA`, split `val`, rows with `human_or_machine == 0`",
                     "gpl-3.0", "GPL-3.0", 150),
           Benchmark("charxiv", "CharXiv", "`princeton-nlp/CharXiv`, split `validation` (reasoning questions)",
                     "cc-by-sa-4.0", "CC BY-SA 4.0 for non-chart data; chart copyrights stay with the source papers",
                     148),
           Benchmark("chartmuseum", "ChartMuseum", "`lytang/ChartMuseum`, split `dev`", "cc-by-sa-4.0",
                     "CC BY-SA 4.0; chart copyrights stay with the original sources", 142))}
"""The paper's three source benchmarks, in its order (§4, Table 1)."""


def benchmark_of(source_split: str, where: str, declared: Mapping[str, Benchmark] | None = None) -> Benchmark:
    """The benchmark a ``source_dataset_split`` (``chartqa_val``, ``HuggingFaceM4/ChartQA_val``) names.

    ``declared``: the source a ``chartprobe reconstruct`` export declares in its manifest; its
    splits start with its key (``fixture_test``), and it wins over the paper's three.
    """
    flat = re.sub(r"[^a-z0-9]", "", source_split.lower())
    for key, bench in (declared or {}).items():
        if flat.startswith(key):
            return bench
    found = [b for b in BENCHMARKS if b in flat]
    if len(found) != 1:
        raise ReleasedFamiliesError(f"{where}: source_dataset_split {source_split!r} names "
                                    f"{'no' if not found else 'more than one'} source benchmark of the paper "
                                    f"(expected one of {', '.join(BENCHMARKS)} in it)")
    return BENCHMARKS[found[0]]


VARIANTS: dict[str, tuple[str, int]] = {"original": ("original", -1), "reconstruction": ("reconstruction", -1)}
"""Released variant name -> (role, variant_seed); ``seed_N`` (also ``chart_seed_N``, as
``visualize_predictions.py`` ``_variant_order_key`` accepts) is (``variant``, N)."""
_SEED = re.compile(r"(?:chart_)?seed_(\d{1,6})")
REASONING = {"visual": "visual", "text": "text", "visual/text": "visual_text", "text/visual": "visual_text",
             "visual_text": "visual_text", "synthesis": "synthesis"}
"""ChartMuseum's reasoning types (any case, with or without " reasoning") -> ours."""


def role_of(variant: str, where: str) -> tuple[str, int]:
    """(role, variant_seed) of a released variant name."""
    name = variant.strip().lower()
    if name in VARIANTS:
        return VARIANTS[name]
    seed = _SEED.fullmatch(name)
    if seed is None:
        raise ReleasedFamiliesError(f"{where}: unknown variant {variant!r} (expected original, reconstruction "
                                    "or seed_N)")
    return "variant", int(seed.group(1))


@dataclass(frozen=True)
class ReleasedMember:
    """One released row, checked; its image as found on disk."""

    family_id: str
    role: str
    variant_seed: int
    variant: str
    question_id: str
    source_split: str
    benchmark: str
    question: str
    answer: str
    """As released (stripped); the family's canonical gold comes from :func:`family_rows`."""
    chart_id: str
    source_row_index: int | None
    reasoning_type: str
    image: str
    """Relative to the released folder (empty until the image is found)."""
    image_sha256: str
    where: str
    license: str = ""
    """The source row's licence when the rows carry one (``chartprobe reconstruct`` exports do)."""


def _text(raw: Mapping[str, Any], key: str, where: str, *, empty: bool = False) -> str:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        kind = "missing" if value is None else type(value).__name__
        raise ReleasedFamiliesError(f"{where}: field {key!r} is {kind}, expected a string")
    text = str(value).strip()
    if (not text and not empty) or len(text) > MAX_FIELD_CHARS:
        raise ReleasedFamiliesError(f"{where}: field {key!r} is {'empty' if not text else 'too long'}")
    return text


def _first(raw: Mapping[str, Any], names: tuple[str, ...], where: str) -> str:
    """The first of ``names`` the row has (``resolve_column``), as checked text; a list of scalars (a
    label kept as a list rather than ``str()``-ed, as ChartQA's is) becomes its JSON text."""
    name = next((n for n in names if n in raw), None)
    if name is None:
        raise ReleasedFamiliesError(f"{where}: no field {' / '.join(map(repr, names))} (the released rows: "
                                    "export_chart_question_families.py)")
    value = raw[name]
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return _text({name: json.dumps(value, ensure_ascii=False)}, name, where)
    return _text(raw, name, where)


def _row_index(raw: Mapping[str, Any], where: str) -> int | None:
    value = raw.get("source_row_index")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ReleasedFamiliesError(f"{where}: source_row_index {value!r} is not a non-negative integer")
    return value


def _reasoning(raw: Mapping[str, Any]) -> str:
    value = next((raw[k] for k in REASONING_FIELDS if raw.get(k)), "")
    name = re.sub(r"\s*reasoning\s*$", "", str(value).strip().lower()).replace(" ", "")
    return REASONING.get(name, "unknown")


def member_of(raw: Any, where: str, declared: Mapping[str, Benchmark] | None = None) -> tuple[ReleasedMember, str]:
    """A checked member (image not yet found: ``image``/``image_sha256`` empty) and its released image path.

    ``declared``: a reconstruction's own source benchmark (:func:`benchmark_of`)."""
    if not isinstance(raw, dict):
        raise ReleasedFamiliesError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    missing = [k for k in REQUIRED_FIELDS if k not in raw]
    if missing:
        raise ReleasedFamiliesError(f"{where}: no field {missing[0]!r} (the released rows have "
                                    f"{', '.join(REQUIRED_FIELDS)}: export_chart_question_families.py)")
    variant = _text(raw, "variant", where)
    role, seed = role_of(variant, where)
    split, qid = _text(raw, "source_dataset_split", where), _text(raw, "question_id", where)
    member = ReleasedMember(
        family_id=f"{split}-{qid}", role=role, variant_seed=seed, variant=variant, question_id=qid,
        source_split=split, benchmark=benchmark_of(split, where, declared).key,
        question=_first(raw, QUESTION_FIELDS, where), answer=_first(raw, ANSWER_FIELDS, where),
        chart_id=_text(raw, "chart_id", where, empty=True) if raw.get("chart_id") is not None else "",
        source_row_index=_row_index(raw, where), reasoning_type=_reasoning(raw), image="", image_sha256="",
        where=where, license=_text(raw, "license", where) if raw.get("license") is not None else "")
    return member, _text(raw, "image", where, empty=True)


def original_only(members: list[ReleasedMember]) -> bool:
    """True for a question id the export wrote an original for but that has no counterfactuals."""
    return all(m.role == "original" for m in members) and len(members) == 1


def check_family(members: list[ReleasedMember]) -> list[ReleasedMember]:
    """The family's members in our order (original, reconstruction, seeds ascending); refused when a
    role is missing or doubled, or members disagree on the chart they come from."""
    first = members[0]
    seen: dict[tuple[str, int], ReleasedMember] = {}
    for m in members:
        key = (m.role, m.variant_seed)
        if key in seen:
            raise ReleasedFamiliesError(f"{m.where}: duplicate row {m.family_id}/{m.variant} (also at "
                                        f"{seen[key].where})")
        seen[key] = m
        if (m.chart_id, m.source_row_index) != (first.chart_id, first.source_row_index):
            raise ReleasedFamiliesError(f"{m.where}: family {m.family_id} mixes charts (chart_id/source_row_index "
                                        f"differ from {first.where})")
    for role in ("original", "reconstruction", "variant"):
        if not any(m.role == role for m in members):
            raise ReleasedFamiliesError(f"{first.where}: family {first.family_id} has no {role} row (a family is "
                                        "its original, its reconstruction and its seed variants)")
    order = {"original": 0, "reconstruction": 1, "variant": 2}
    return sorted(members, key=lambda m: (order[m.role], m.variant_seed))


def data_source(m: ReleasedMember) -> str:
    """Where an imported row comes from: released split, question id, variant, source row, chart."""
    row = "" if m.source_row_index is None else f"#row={m.source_row_index}"
    chart = f"@{m.chart_id}" if m.chart_id else ""
    terms = f";license={m.license}" if m.license else ""
    return f"{SOURCE_PREFIX}{m.source_split}/{m.question_id}/{m.variant}{row}{chart}{terms}"


def _suffix(m: ReleasedMember) -> str:
    return m.role if m.role != "variant" else f"v{m.variant_seed}"


def family_rows(members: list[ReleasedMember], generator_version: str) -> list[dict[str, Any]]:
    """Our rows of one checked family (``image`` left for the caller to embed: the member's path)."""
    original = members[0]
    typed = type_family([m.answer for m in members], original.question)
    reasoning = next((m.reasoning_type for m in members if m.reasoning_type != "unknown"), "unknown")
    rows = []
    for m, answer in zip(members, typed.answers, strict=True):
        rows.append({
            **NOT_IN_RELEASE, "id": f"{m.family_id}-{_suffix(m)}", "family_id": m.family_id, "image": m.image,
            "question": m.question, "answer": answer, "answer_type": typed.answer_type,
            "answer_type_reason": typed.reason,
            "generator_version": generator_version, "source": m.family_id, "group": original.benchmark,
            "role": m.role, "variant_seed": m.variant_seed,
            "regime": m.role if m.role != "variant" else "unlabelled", "reasoning_type": reasoning,
            "question_adapted": m.question != original.question, "original_question": original.question,
            "original_answer": typed.answers[0], "data_source": data_source(m)})
    return rows
