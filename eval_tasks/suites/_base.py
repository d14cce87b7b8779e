"""The suite contract: scoring, summary, oracle, answer space and validity checks of a benchmark.

A suite is named after the release it covers (the dataset registry name) and reuses that
benchmark's metrics module: ``score`` turns (row, prediction) into a scored record and
``summarize`` turns records into the benchmark's metrics. Its lm-eval tasks are found in
the task YAMLs (:mod:`chartprobe.eval_tasks.suites._task_index`), never listed twice.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any, ClassVar

from ..scoring.typed import is_abstention
from ..scoring.voting import majority_record
from ._runs import AgentRun, Check, Row, RunSet

__all__ = ["AgentRun", "Check", "RunSet", "Suite"]


class Suite(abc.ABC):
    """Base class: defaults fit benchmarks whose records carry a boolean ``correct``."""

    name: ClassVar[str]
    """Release (dataset registry) name; set by ``@suite``."""

    def documents(self, config: str, rows: Sequence[Row]) -> list[Row]:
        """The lm-eval documents built from a config's release rows (default: the rows).

        A task whose loader reshapes rows (e.g. a judge pair asked twice, positions
        swapped) overrides this so agents answer exactly the documents a model sees.
        """
        return list(rows)

    def doc_key(self, doc: Row) -> str:
        """The identity of a document, as a samples file logs it (default: its row ``id``).

        ``chartprobe score`` finds a sample's gold in the release by this key, so a task whose
        loader drops ``id`` overrides it with what its logged documents do carry.
        """
        return str(doc.get("id"))

    @abc.abstractmethod
    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        """Scored record for one prediction (reuse the benchmark's metrics module)."""

    def score_votes(self, row: Row, responses: Sequence[str]) -> dict[str, Any]:
        """Scored record of a repeated run's responses: the majority answer's record
        (:func:`chartprobe.eval_tasks.scoring.voting.majority_record`, votes over normalised answers)."""
        return majority_record([self.score(row, r) for r in responses])

    def accuracy(self, record: Mapping[str, Any]) -> float:
        """Item accuracy of a scored record (what validity checks average)."""
        return float(record["correct"])

    def score_accuracy(self, row: Row, prediction: str) -> float:
        """``accuracy(score(row, prediction))``; a suite whose record carries more than the verdict
        (list F1, fuzzy ratios) may compute the verdict alone (chance levels score ~10^5 candidates)."""
        return self.accuracy(self.score(row, prediction))

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The benchmark's metrics over scored records (JSON-able)."""
        return {"accuracy": fmean(map(self.accuracy, records)) if records else None, "n": len(records)}

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        """What lm-eval's results table shows for ``task`` (its aggregations over these records)."""
        return {"accuracy": fmean(map(self.accuracy, records)) if records else None}

    def task_table(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        """:meth:`task_metrics` under the names lm-eval's table prints (``value_extraction`` for
        ``ve``: :func:`chartprobe.eval_tasks.metrics.names.readable`), so the two tables read alike."""
        from ..metrics.names import readable_keys

        return readable_keys(self.task_metrics(task, records))

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        """Flat numbers for the cross-model comparison table (column -> value)."""
        return {"accuracy": summary.get("accuracy")}

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[Hashable, float] | None:
        """Additive statistics of one unit's records (sums and counts per cell) such that
        :meth:`headline_from_stats` of their sum over units is ``headline(summarize(records))``.

        The report's intervals and ``--compare`` then price a bootstrap draw as a product of unit
        counts and statistics, not a pass over relabelled records. None (the default): the
        headline is not such a function, and every draw recomputes it on records.
        """
        return None

    def headline_stats_matrix(self, units: Sequence[Sequence[Mapping[str, Any]]]) -> tuple[list[Hashable], Any] | None:
        """Every unit's :meth:`headline_stats` as (keys, sparse units x keys matrix), None without them; a
        suite with many small units may build it in one pass instead of a dict per unit."""
        from ..metrics.bootstrap_sums import stat_matrix

        stats = [self.headline_stats(u) for u in units]
        return stat_matrix(stats) if stats and all(s is not None for s in stats) else None

    def headline_from_stats(self, totals: Mapping[Hashable, float]) -> dict[str, float | None]:
        """The headline of records whose :meth:`headline_stats` sum to ``totals`` (statistics of
        units drawn zero times are 0: a cell whose count is 0 has no rows)."""
        raise NotImplementedError(f"suite {self.name!r} has no headline_stats")

    @abc.abstractmethod
    def oracle(self, row: Row) -> str | None:
        """The answer recomputed from the row's spec (never copied from ``answer``)."""

    def answer_space(self, row: Row, pool: Sequence[str]) -> Sequence[str]:
        """Candidate answers a random guesser picks from; ``pool`` = golds of similar rows."""
        closed = self.closed_answers(row)
        return closed if closed else sorted(set(pool)) or [str(row.get("answer", ""))]

    def closed_answers(self, row: Row) -> tuple[str, ...] | None:
        """The fixed answer set of a categorical row (yes/no, A/B, a declared vocabulary such as
        positive/negative: the keys of its ``answer_aliases``), or None if open."""
        if row.get("answer_type") == "bool":
            return ("yes", "no")
        vocab = row.get("answer_aliases")
        if vocab:
            import json

            try:
                keys = tuple(sorted(json.loads(vocab)))
            except (TypeError, ValueError):
                return None
            return keys or None
        return None

    def spec_json(self, row: Row) -> str | None:
        """The chart spec a row's answer is computed from (JSON), or None for non-chart rows."""
        return row.get("spec")

    def reanswer(self, row: Row, spec_json: str) -> str | None:
        """The row's gold recomputed on another spec (same question, same program).

        Image-side agents ask "what would the answer be if the chart looked like X?" (values
        sorted along the axis, values as printed): None where the suite cannot recompute
        it, or the program is degenerate on that spec.
        """
        return None

    def presented_images(self, doc: Row) -> list[str]:
        """The image columns of a document in the order the model sees them (metadata agent)."""
        return list(doc.get("image_meta") or {})

    def size_is_evidence(self, row: Row) -> bool:
        """True when the image's dimensions *are* what the question judges (a squashed chart):
        the metadata agent then has nothing to find that the skill itself would not see."""
        return False

    def score_key(self, row: Row) -> Any:
        """The row fields that decide ``accuracy(score(row, p))`` for any prediction ``p``, hashable; rows
        with equal keys score every prediction alike, so chance levels score each candidate once per
        key. None (the default): no such key is known, every row is scored itself."""
        return None

    def pixels_are_evidence(self, row: Row) -> bool:
        """True when cheap statistics of the pixels measure what the question asks (the image's shape,
        the whole picture's geometry): the image_stats agent finding the answer there is the skill."""
        return self.size_is_evidence(row)

    def claims_visual(self, row: Row) -> bool:
        """True when the row's question claims to need reading the marks, not printed text."""
        return False

    def value_free(self, row: Row) -> bool:
        """True when the row's answer is no function of the chart's values (how many marks, which
        colours): printed value labels cannot give it away, so the text reader does not answer it."""
        return False

    def options(self, row: Row) -> Sequence[str] | None:
        """Every option of a closed question, for the answer-everything agent (None = open)."""
        return self.closed_answers(row)

    def list_universe(self, row: Row) -> list[str]:
        """Everything a list answer of ``row`` could name (answer-everything agent)."""
        return list_universe(self.spec_json(row))

    def group_key(self, row: Row) -> str:
        """Template-like key for majority answers (blind agent, majority-share check)."""
        return str(row.get("template_id") or row.get("answer_type"))

    def order_key(self, row: Row) -> tuple[str, ...]:
        """What a task's documents take turns by, coarsest first (:mod:`chartprobe.eval_tasks.rescoring.doc_order`),
        so that lm-eval's ``--limit`` covers every template; default: the template (``group_key``)."""
        return (self.group_key(row),)

    def order_unit(self, doc: Row) -> str | None:
        """Documents sharing this value stay adjacent in task order (None: the document alone)."""
        return None

    def unit_key(self, row: Row) -> str:
        """The independent unit a row belongs to (a chart, a family, a pair): rows of one unit
        share answers, so priors fit "out of sample" must leave the whole unit out."""
        for key in ("chart_id", "family_id", "pair_id", "item_id", "group_id"):
            if row.get(key) is not None:
                return str(row[key])
        return str(row.get("id"))

    def answer_unit(self, row: Row) -> str | None:
        """Rows with the same value ask one drawn question (the same chart data and question shown
        in several drawings, e.g. a style shift): answer-distribution checks count it once.
        None (a row without an id): a question of its own."""
        return None if row.get("id") is None else str(row["id"])

    def answerable(self, row: Row) -> bool:
        """False when the gold answer is an abstention (unanswerable by design)."""
        return row.get("answer_type") != "abstain" and not is_abstention(str(row.get("answer", "")))

    def checks(self, runs: RunSet) -> list[Check]:
        """Validity checks with thresholds: the shared ones (:mod:`chartprobe.eval_tasks.suites._checks`)
        the shortcut agents' gaps over chance (:mod:`chartprobe.eval_tasks.suites._shortcuts`) and the
        learned image-statistics agent's (:mod:`chartprobe.eval_tasks.suites._image_stats`)."""
        from . import _checks, _image_stats, _shortcuts

        return [*_checks.common_checks(self, runs), *_shortcuts.shortcut_checks(self, runs),
                *_image_stats.image_stats_checks(self, runs)]

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """PNG plots of ``profiles`` (model -> summary) written into ``folder``; default none."""
        return []


def list_universe(spec_json: str | None) -> list[str]:
    """Categories and series names of a chart spec: everything a list answer could name."""
    try:
        data = json.loads(spec_json or "{}").get("data") or {}
    except (TypeError, ValueError, AttributeError):
        return []
    names = [str(c) for c in data.get("categories", [])] + [str(s.get("name")) for s in data.get("series", [])]
    return list(dict.fromkeys(n for n in names if n))
