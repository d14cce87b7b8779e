"""Which scorer produced a number (the typed scorer or an LLM judge), and refusing to mix them.

``chartprobe score`` records a ``scorer`` per model and suite (``scorers``) and per task entry:
``"typed"``, or ``{"kind": "llm_judge", "model", "server_model", "prompt_sha256", "calls",
"cached", "parse_fail"}`` (:mod:`chartprobe.eval_tasks.answer_judge.scoring_pass`). Two numbers of one suite
are comparable only when the same scorer made them: the same kind, and for a judge the same
requested model and prompt (:func:`scorer_identity`; the request counts are how a run went, not
what it measured). ``chartprobe report`` refuses a suite whose models mix scorers, as it refuses
mixed releases, unless ``--allow-mixed-scorers``; the report then marks them. A results file
written before scorers were recorded was typed-scored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .predictions import PredictionsError

__all__ = ["SCORER_HEADER", "check_same_scorers", "describe", "scorer_identity", "scorer_markdown", "scorer_rows",
           "scorers_of_entry"]

TYPED = "typed"
Scorer = Any
"""``"typed"`` or an ``llm_judge`` mapping, as results files hold it."""


def scorer_identity(scorer: Scorer) -> str:
    """What two numbers must share to be comparable: ``typed`` or ``llm_judge:<model>:<prompt sha[:12]>``."""
    if not isinstance(scorer, Mapping):
        return str(scorer or TYPED)
    return f"{scorer.get('kind', 'llm_judge')}:{scorer.get('model')}:{str(scorer.get('prompt_sha256') or '?')[:12]}"


def describe(scorer: Scorer) -> str:
    """One readable phrase: ``typed`` or ``LLM judge gpt-4.1-mini (server ...; prompt 234e7c18d0f8)``."""
    if not isinstance(scorer, Mapping):
        return str(scorer or TYPED)
    server = f"server {scorer['server_model']}; " if scorer.get("server_model") else ""
    return f"LLM judge {scorer.get('model')} ({server}prompt {str(scorer.get('prompt_sha256') or '?')[:12]})"


def scorers_of_entry(entry: Mapping[str, Any], suites: Iterable[str]) -> dict[str, Scorer]:
    """A results entry's scorer per suite (``typed`` where the entry records none: older files)."""
    recorded = entry.get("scorers") if isinstance(entry.get("scorers"), Mapping) else {}
    return {suite: recorded.get(suite, TYPED) for suite in suites}


def check_same_scorers(per_model: Mapping[str, Mapping[str, Iterable[Scorer]]],
                       allow_mixed: bool = False) -> dict[str, list[str]]:
    """Suites whose models (or one model's merged files) were scored by different scorers.

    ``per_model`` maps model -> suite -> the scorers its records came from. Returns suite -> the
    distinct scorer identities of the suites that mix them; raises a one-line
    :class:`PredictionsError` naming the first such suite unless ``allow_mixed``.
    """
    seen: dict[str, dict[str, tuple[str, Scorer]]] = {}
    for model, by_suite in sorted(per_model.items()):
        for suite, scorers in by_suite.items():
            for scorer in scorers:
                seen.setdefault(suite, {}).setdefault(scorer_identity(scorer), (model, scorer))
    mixed = {s: sorted(ids) for s, ids in sorted(seen.items()) if len(ids) > 1}
    if mixed and not allow_mixed:
        suite = next(iter(mixed))
        (m1, s1), (m2, s2) = list(seen[suite].values())[:2]
        raise PredictionsError(f"suite {suite}: {m1} was scored by {describe(s1)} but {m2} by {describe(s2)}; "
                               "numbers from different scorers are not comparable (pass --allow-mixed-scorers "
                               "to report them side by side anyway)")
    return mixed


SCORER_HEADER = ["model", "suite", "scorer", "judge calls", "cached", "unparsable verdicts"]


def scorer_rows(prov: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
    """One row per model, suite and scorer (``prov``: model -> {"scorers": {suite: [scorer, ...]}})."""
    rows = []
    for model, entry in sorted(prov.items()):
        for suite, scorers in sorted((entry.get("scorers") or {}).items()):
            for sc in scorers:
                judge = isinstance(sc, Mapping)
                rows.append([model, suite, describe(sc), *((sc.get(k) for k in ("calls", "cached", "parse_fail"))
                                                           if judge else (None, None, None))])
    return rows


def scorer_markdown(prov: Mapping[str, Mapping[str, Any]], mixed: Mapping[str, list[str]],
                    table: Callable[..., str]) -> list[str]:
    """The report.md section saying which scorer produced each model's numbers of each suite."""
    parts = ["## Scorers", "",
             ("Which scorer produced each model's numbers: the typed scorer, or an LLM answer-equivalence judge "
              "(`chartprobe score --judge`; unparsable verdicts count as wrong)."), ""]
    for suite, ids in mixed.items():
        parts += [(f"**Mixed scorers:** models of suite `{suite}` were scored by {len(ids)} different scorers "
                   f"({', '.join(ids)}); their numbers are not comparable."), ""]
    return parts + [table(SCORER_HEADER, scorer_rows(prov)), ""]
