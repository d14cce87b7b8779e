"""The out-of-template gate: a ``cr_ood_*`` config may only ask questions no trained template
composes, in wording no trained template uses.

Checked twice, with one message each time:

- at preset load (``ProbesDataset.item_keys``, which ``load_preset`` runs): every template the
  config's pool holds, by its op's step sequences (:mod:`.compose`) and its phrasings
  (:mod:`.phrase_overlap`), so a bad preset is refused before anything is built or written;
- in the release-wide ``verify``: every *row* of such a config, by the op and arguments of its
  recorded ``program`` (mapped to steps, :func:`~.steps.steps_of`), its template's phrasings
  and its emitted question text.

*Trained templates* are those not held out: for steps, those of the config's domain (what a
model fine-tuned on that domain's probe bank was taught); for wording, those of every domain
(a model sees every trained phrasing it is fine-tuned on, whatever the chart).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from ..core.programs import Program
from .compose import decompose, template_composition, trained_sequences
from .config_sets import eligible_templates
from .domains import PROBE_DOMAINS
from .phrase_overlap import shared_ngram, shared_with_text, trained_ngrams
from .steps import Steps, steps_of
from .templates import TEMPLATES

__all__ = ["check_rows", "check_templates", "trained_steps", "trained_wording"]


@cache
def trained_steps(domain: str) -> dict[Steps, tuple[str, ...]]:
    """Step sequence -> trained templates of ``domain`` that have it."""
    return trained_sequences(eligible_templates(domain, False))


@cache
def trained_wording() -> dict[tuple[str, ...], str]:
    """4-gram -> trained template (of any domain) whose phrasing has it."""
    return trained_ngrams([t for d in PROBE_DOMAINS for t in eligible_templates(d, False)])


def _composed(name: str, how: Any) -> str:
    return (f"{name} is not out of template: its steps {how.describe()} compose the trained templates "
            f"{how.templates()}")


def _worded(name: str, shared: tuple[str, str], where: str = "phrasing") -> str:
    return (f"{name} is not out of template: its {where} shares the 4-gram {shared[0]!r} with the trained "
            f"template {shared[1]}")


def check_templates(domain: str, templates: Iterable[Any]) -> None:
    """Raise ValueError (one line, naming the template) on the first template of ``templates``
    whose steps compose trained templates of ``domain`` or whose wording is trained wording."""
    for t in templates:
        how = template_composition(t, trained_steps(domain))
        if how is not None:
            raise ValueError(_composed(t.name, how))
        shared = shared_ngram(t, trained_wording())
        if shared is not None:
            raise ValueError(_worded(t.name, shared))


def check_rows(domain: str, rows: Iterable[tuple[str, str, str]]) -> None:
    """Raise ValueError on the first ``(template_id, program JSON, question)`` row whose recorded
    program composes trained templates of ``domain``, or whose template or text reuses trained wording."""
    seen: set[tuple[str, Steps]] = set()
    for template_id, program_json, question in rows:
        seq = steps_of(Program.from_json(program_json))
        if (template_id, seq) not in seen:
            seen.add((template_id, seq))
            how = decompose(seq, trained_steps(domain))
            if how is not None:
                raise ValueError(_composed(template_id, how))
            check_templates(domain, [TEMPLATES.get(template_id)()])
        shared = shared_with_text(question, trained_wording())
        if shared is not None:
            raise ValueError(_worded(template_id, shared, f"question {json.dumps(question)[:80]}"))
