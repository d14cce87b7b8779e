"""``chartprobe score --judge``: which suites the LLM judge scores, and the pass that does it.

:data:`JUDGED` lists the suites whose answers are free-form and whose paper scores them with an
answer-equivalence judge. Only one does:

- ``families`` (Chartographer): "We use binary accuracy ... employing an LLM judge to determine
  whether the prediction is equivalent to the target answer" (§4, A.7), following ChartMuseum.
- ``probes`` (ChartProbe): skill probes have closed-form answers scored by typed matchers, and
  complex reasoning by the mean RapidFuzz ratio (§ complex-reasoning evaluation); no judge.
- ``legend`` (LegendBench): typed answers with abstention; its metrics are exact-match based.
- ``judge`` (ChartJudgeBench): the model *is* the judge; its A/B or accept/reject labels are parsed,
  there is no answer to compare. ``smoke`` is a plumbing test.

Every other suite is scored by its typed scorer with or without ``--judge``, and its results say
``scorer: "typed"``. The pass: records of a judged suite are left as placeholders while a model's
samples are read, every response's question is sent to the judge in one concurrent batch
(:meth:`~chartprobe.eval_tasks.answer_judge.client.Judge.prefetch`), then each record is scored with the
judge's decisions (from memory) in the samples' order, so the results do not depend on the order
replies arrived in. A repeated run is judged response by response and votes as ever.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..scoring.voting import majority_record
from .client import Judge, prompt_sha256

__all__ = ["JUDGED", "TYPED", "JudgePass", "JudgedSuite", "lm_eval_judge"]

Row = Mapping[str, Any]
TYPED = "typed"
"""The ``scorer`` of numbers the suite's typed scorer produced."""


@dataclass(frozen=True)
class JudgedSuite:
    """How one suite's responses reach the judge."""

    query: Callable[[Row, str], tuple[str, str, str]]
    """(question, gold, extracted answer) the judge is asked about one response to a row."""
    logged_judge: Callable[[Mapping[str, Any]], str | None]
    """The judge an lm-eval samples line says scored it inside lm-eval (None: the typed scorer)."""


def _families_query(doc: Row, response: str) -> tuple[str, str, str]:
    from ..metrics import families as fm
    from ..scoring.typed import score_doc

    return fm.judge_query(doc, score_doc(doc, response).extracted)


def _families_logged(line: Mapping[str, Any]) -> str | None:
    """The ``judge`` field of the record lm-eval logged under the family tasks' first metric."""
    from ..metrics import families as fm
    from ..metrics.names import readable

    item = line.get(readable("oa"))
    if isinstance(item, list) and len(item) == len(fm.ITEM_FIELDS):
        judge = item[fm.ITEM_FIELDS.index("judge")]
        return judge if isinstance(judge, str) and judge != TYPED else None
    return None


def _families_paper_query(doc: Row, response: str) -> tuple[str, str, str]:
    """The released protocol asks the judge about the released extraction (first ``<answer>`` block)."""
    from ..metrics import families as fm

    return fm.judge_query(doc, fm.paper_extract(response))


JUDGED: dict[str, JudgedSuite] = {"families": JudgedSuite(_families_query, _families_logged),
                                  "families_paper": JudgedSuite(_families_paper_query, _families_logged)}
"""Suite name -> how ``--judge`` scores it (see the module docstring for why only these)."""


def lm_eval_judge(path: str | Path, suite_name: str) -> str | None:
    """The LLM judge the lm-eval run that wrote samples file ``path`` scored with, if it used one
    (read from its first line; None for the typed scorer, a suite no judge scores, an odd file)."""
    import json

    judged = JUDGED.get(suite_name)
    if judged is None:
        return None
    try:
        with open(path, "rb") as fh:
            first = next((line for line in fh if not line.isspace()), b"")
        line = json.loads(first) if first else None
    except (OSError, ValueError):
        return None
    return judged.logged_judge(line) if isinstance(line, dict) else None


@dataclass
class _Tally:
    """Judge counters and reported server models of one (suite, task)."""

    counts: Counter = field(default_factory=Counter)
    servers: set[str] = field(default_factory=set)


@dataclass
class _Work:
    placeholder: dict[str, Any]
    suite: Any
    task: str
    doc: Row
    responses: tuple[str, ...]
    vote: bool


class JudgePass:
    """One model's judge-scored records: collected with :meth:`add`, scored by :meth:`run`."""

    def __init__(self, judge: Judge | None) -> None:
        self.judge = judge
        self._work: list[_Work] = []
        self._tally: dict[tuple[str, str], _Tally] = defaultdict(_Tally)

    def wants(self, suite: Any) -> bool:
        """Whether ``suite``'s records go to the judge in this run."""
        return self.judge is not None and suite.name in JUDGED

    def add(self, placeholder: dict[str, Any], suite: Any, task: str, doc: Row, responses: Sequence[str],
            vote: bool = False) -> None:
        """Score ``responses`` to ``doc`` into ``placeholder`` when :meth:`run` runs (``vote``: the
        majority record of a repeated run, else the one response's)."""
        self._work.append(_Work(placeholder, suite, task, doc, tuple(responses), vote))

    def run(self) -> None:
        """Ask the judge for everything added (concurrently), then fill the placeholders in order."""
        if not self._work:
            return
        judge = self.judge
        assert judge is not None, "JudgePass.run with work but no judge"
        judge.prefetch(JUDGED[w.suite.name].query(w.doc, r) for w in self._work for r in w.responses)
        for w in self._work:
            before = judge.counts()
            recs = [w.suite.score(w.doc, r, judge=judge) for r in w.responses]
            tally = self._tally[(w.suite.name, w.task)]
            tally.counts.update({k: v - before[k] for k, v in judge.counts().items()})
            tally.servers.update(r["judge"].partition("@")[2] for r in recs if "@" in r.get("judge", ""))
            w.placeholder.update(majority_record(recs) if w.vote else recs[0])
        self._work.clear()

    def scorer(self, suite_name: str, task: str | None = None) -> str | dict[str, Any]:
        """The ``scorer`` of a suite's numbers (or one task's): ``"typed"``, or the judge that made
        them with its request counts (``calls``: new requests; ``cached``: decisions answered
        without one; ``parse_fail``: unparsable verdicts, counted wrong)."""
        if self.judge is None or suite_name not in JUDGED:
            return TYPED
        tallies = [t for (s, k), t in self._tally.items() if s == suite_name and task in (None, k)]
        counts = sum((t.counts for t in tallies), Counter())
        servers = sorted(set().union(*(t.servers for t in tallies)))
        return {"kind": "llm_judge", "model": self.judge.model, "server_model": ", ".join(servers) or None,
                "prompt_sha256": prompt_sha256(), "calls": counts["calls"], "cached": counts["cached"],
                "parse_fail": counts["parse_fail"]}
