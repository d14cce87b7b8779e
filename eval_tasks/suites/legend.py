"""The LegendBench suite: legend counterfactual groups, chains and controlled studies (``chartprobe-legend``).

Scoring, the capability profile and the study numbers come from :mod:`chartprobe.eval_tasks.metrics.legend`
and :mod:`chartprobe.eval_tasks.metrics.legend_studies`; task metrics are exactly the lm-eval aggregations
of ``legend_utils``. The oracle recomputes each row's gold from its ``chart_spec``,
``legend_spec`` and ``program`` columns (``chartprobe.dataset_builders.legend.program.answer_row``).

Beyond the shared checks (oracle 100%, blind agent, abstaining agents, majority shares):

- legend-order shortcut (§6.2): the ``legend_order`` agent answers every order-study rank row
  with the target's legend-entry position, so it must score ~100% where that position equals
  the visual rank (aligned) and ~0% where it does not (conflict), and every conflict answer
  must follow the legend (this also checks ``target_legend_index`` against the drawn legend);
- every rotation set of the order study puts its target at each legend position exactly once;
- abstention recall is 1 for ``always_abstain`` and 0 for ``never_abstain`` (§5.1 AR);
- the evidence is visible: no row's render has text over more than 25% of a data mark
  (the stored ``occlusion_max``);
- binding to the first legend entries without reading them scores no more than a random
  binding, and abstaining whenever the legend is incomplete no more than the best question-only
  abstention policy (+5 points each, :mod:`._legend_shortcuts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..metrics import legend as lm
from ..metrics import legend_studies as ls
from . import suite
from ._base import Check, RunSet, Suite
from ._legend_shortcuts import legend_shortcut_checks
from ._verdict import verdict

Row = Mapping[str, Any]


def _chart_vocabulary(row: Row) -> set[str]:
    """Every string in the row's chart and legend specs, plus the positions 1..n of its series."""
    import json

    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for col in ("chart_spec", "legend_spec"):
        try:
            walk(json.loads(row.get(col) or "null"))
        except (TypeError, ValueError):
            continue
    try:
        n = max(len(s["values"]) for s in json.loads(row["chart_spec"])["data"]["series"])
    except (TypeError, ValueError, KeyError):
        n = 0
    out.update(str(i) for i in range(1, n + 1))
    return out

SHORTCUT_ALIGNED_MIN = 0.95
"""The legend-order agent must pass (nearly) every aligned rank row..."""
SHORTCUT_CONFLICT_MAX = 0.05
"""...and (nearly) no conflict row: the study separates reading from the shortcut."""
FOLLOW_MIN = 0.95
"""Its conflict answers are legend positions, so follow_legend must be (nearly) 1."""
AR_EXPECTED = {"always_abstain": 1.0, "never_abstain": 0.0}
PROFILE_GROUPS = {"stage-wise accuracy": ("guide_read", "bind", "ve", "reason", "reason_sup"),
                  "counterfactual": ("cons", "resp", "cr"), "abstention": ("ap", "ar", "af1")}
"""The capability groups of the profile (§5.1): one heatmap panel each, models on the rows."""




@suite("legend")
class LegendSuite(Suite):
    """Capability profile per LegendBench §5.1, studies per §6."""

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        return lm.score_record(row, prediction)

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return ls.summary(records)

    def answer_unit(self, row: Row) -> str | None:
        """A style-study row asks its group's question once, however many drawings show it."""
        if row.get("study_factor") == "style":
            return str(row.get("group_id"))
        return super().answer_unit(row)

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        return ls.task_metrics(ls.STUDY_FOR_CONFIG.get(task.config), records)

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        return {"QA acc": summary.get("qa_acc"), "Chain acc": summary.get("chain_acc"),
                "ConsResp": summary.get("cr"), "AF1": summary.get("af1")}

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], float]:
        # the profile is over snapshot rows, over every row when a draw has none: counts of both
        snapshot = [r for r in unit_records if not r.get("study_factor")]
        return {**{("snapshot", k): v for k, v in lm.headline_counts(snapshot).items()},
                **{("all", k): v for k, v in lm.headline_counts(unit_records).items()}}

    def headline_from_stats(self, totals: Mapping[tuple[str, str], float]) -> dict[str, float | None]:
        scope = "snapshot" if totals.get(("snapshot", "rows")) else "all"
        return self.headline(lm.from_headline_counts({k: v for (s, k), v in totals.items() if s == scope}))

    def oracle(self, row: Row) -> str | None:
        from chartprobe.dataset_builders.legend.program import answer_row

        return answer_row(row)

    def spec_json(self, row: Row) -> str | None:
        return row.get("chart_spec")

    def reanswer(self, row: Row, spec_json: str) -> str | None:
        from chartprobe.dataset_builders.core.spec import SpecError
        from chartprobe.dataset_builders.legend.program import answer_row

        try:
            return answer_row({**row, "chart_spec": spec_json})
        except (SpecError, ValueError, KeyError, IndexError, ZeroDivisionError):
            return None

    def closed_answers(self, row: Row) -> tuple[str, ...] | None:
        """A rank question's answers are the ranks 1..n of the chart's n ranked items (series,
        or wedges of a pie): what uniform is over for it, not the ranks of the largest chart. A
        template that declares its ``answer_set`` (crossing counts 0-2) has that set."""
        if row.get("template") == "t3_rank" and row.get("answer_type") == "integer":
            import json

            try:
                n = len(json.loads(row["chart_spec"])["encodings"])
            except (KeyError, TypeError, ValueError):
                return None
            return tuple(str(i) for i in range(1, n + 1)) or None
        from chartprobe.dataset_builders.legend.templates import LEGEND_TEMPLATES

        name = str(row.get("template") or "")
        tpl = LEGEND_TEMPLATES.get(name) if name in LEGEND_TEMPLATES else None
        if tpl is not None and tpl.answer_set and row.get("answer_type") == tpl.answer_type:
            return tpl.answer_set
        # A legend row's answer_aliases are channel-value names, not a closed answer set.
        return super().closed_answers({**row, "answer_aliases": ""})

    def answer_space(self, row: Row, pool: Sequence[str]) -> Sequence[str]:
        """The template's answers that can be given on *this* chart: its categories, legend labels
        and point positions 1..n. A template pools radar spoke names, scatter positions and
        every topic's labels; a guesser picks among what the chart shows, so the uniform chance
        the shortcut agents are held to is over those (the pooled space understated it)."""
        closed = self.closed_answers(row)
        if closed:
            return closed
        shown = _chart_vocabulary(row)
        own = sorted(a for a in set(pool) if a in shown)
        return own or super().answer_space(row, pool)

    def group_key(self, row: Row) -> str:
        return str(row.get("template") or row.get("answer_type"))

    def unit_key(self, row: Row) -> str:
        """The base chart: every question, chain and variant of one ``s`` shares its data."""
        return str(row.get("base_id") or row.get("group_id") or row.get("id"))

    def checks(self, runs: RunSet) -> list[Check]:
        return [*super().checks(runs), *self._order_shortcut_checks(runs), *self._rotation_checks(runs),
                *self._abstention_recall_checks(runs), *self._visibility_checks(runs),
                *legend_shortcut_checks(self, runs)]

    @staticmethod
    def _visibility_checks(runs: RunSet) -> list[Check]:
        """Every row's stored ``occlusion_max`` (text over a data mark) is at most 25%, and its labels
        are readable: ``text_overlap_max`` at most 20%, ``legend_text_cover_max`` at most 10%."""
        from chartprobe.dataset_builders.core.occlusion import COVER_LIMIT
        from chartprobe.dataset_builders.core.readability import LEGEND_LIMIT, OVERLAP_LIMIT

        out = []
        for (config, split), rows in sorted(runs.rows.items()):
            for column, what, limit in (("occlusion_max", "evidence visible: max text cover of a data mark", COVER_LIMIT),
                                        ("text_overlap_max", "labels readable: max overlap of two text boxes",
                                         OVERLAP_LIMIT),
                                        ("legend_text_cover_max", "labels readable: max axis text under the legend",
                                         LEGEND_LIMIT)):
                shares = [float(r[column]) for r in rows if r.get(column) is not None]
                if shares:
                    out.append(verdict(what, f"{config}/{split}", "-", max(shares), len(shares), op="<=", limit=limit))
        return out

    @staticmethod
    def _order_rows(rows: Sequence[Row]) -> list[Row]:
        return ls.order_rows(r for r in rows if r.get("study_factor") == "order")

    def _order_shortcut_checks(self, runs: RunSet) -> list[Check]:
        out = []
        for (config, split), rows in sorted(runs.rows.items()):
            ranks = self._order_rows(rows)
            if not ranks:
                continue
            run = runs.get("legend_order", config, split)
            recs = self._order_rows(run.records if run else [])
            scope = f"{config}/{split}"
            # An agent that cannot read the legend answers nothing: that is a failure, not n/a.
            out.append(verdict("legend-order agent answers the rank rows", scope, "legend_order",
                               len(recs) / len(ranks), len(ranks), op="=", limit=1.0))
            aligned = [r for r in recs if int(r["target_legend_index"]) == int(r["visual_rank"])]
            out.append(verdict("legend-order shortcut, aligned accuracy", scope, "legend_order",
                               ls.aligned_accuracy(recs), len(aligned), op=">=", limit=SHORTCUT_ALIGNED_MIN))
            out.append(verdict("legend-order shortcut, conflict accuracy", scope, "legend_order",
                               ls.conflict_accuracy(recs), len(recs) - len(aligned), op="<=",
                               limit=SHORTCUT_CONFLICT_MAX))
            out.append(verdict("legend-order shortcut follows the legend", scope, "legend_order",
                               ls.follow_legend(recs), len(recs) - len(aligned), op=">=", limit=FOLLOW_MIN))
        return out

    def _rotation_checks(self, runs: RunSet) -> list[Check]:
        out = []
        for (config, split), rows in sorted(runs.rows.items()):
            sets = ls.rotation_sets(self._order_rows(rows))
            if not sets:
                continue
            full = [sorted(int(r["target_legend_index"]) for r in rs) == list(range(1, len(rs) + 1))
                    for rs in sets.values()]
            out.append(verdict("order rotations: each target at every legend position once", f"{config}/{split}",
                               "-", sum(full) / len(full), len(full), op="=", limit=1.0))
        return out

    def _abstention_recall_checks(self, runs: RunSet) -> list[Check]:
        out = []
        for agent, want in AR_EXPECTED.items():
            for run in runs.by_agent(agent):
                scores = lm.abstention(lm.abstention_scope(run.records))
                out.append(verdict("abstention recall", f"{run.config}/{run.split}", agent, scores["ar"],
                                   scores["unanswerable"], op="=", limit=want))
        return out

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """The profile, one panel per capability group, and the studies present (all 0-1)."""
        from . import _plots as rp

        groups = [rp.panel(g, {m: {k: p.get(k) for k in keys} for m, p in profiles.items()})
                  for g, keys in PROFILE_GROUPS.items()]
        order = {m: {k: (p.get("order_study") or {}).get(k) for k in ("aligned_acc", "conflict_acc", "follow_legend")}
                 for m, p in profiles.items() if p.get("order_study")}
        visibility = {m: {lvl: v.get("af1") for lvl, v in (p.get("visibility_study") or {}).items()}
                      for m, p in profiles.items() if p.get("visibility_study")}
        channel = {m: {cell: v.get("grounding") for cell, v in (p.get("channel_study") or {}).items()}
                   for m, p in profiles.items() if p.get("channel_study")}
        studies = ([rp.panel("order study", order)] if order else []) + (
            [rp.panel("visibility study: AF1 per level", visibility)] if visibility else []) + (
            # models on the rows, as in the order and visibility panels beside it
            [rp.panel("channel study: grounding per mark/channel", channel)]
            if channel else [])
        return [*rp.heatmaps(groups, folder / "legend_profile.png", "Legend capability profile",
                             "accuracy / rate (0–1)"),
                *rp.heatmaps(studies, folder / "legend_studies.png", "Legend controlled studies",
                             "accuracy / rate (0–1)")]
