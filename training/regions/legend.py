"""LegendBench's capability regions (paper §5.1): the stage a row tests, by channel and chart family.

The stage is the row's ``capability`` (guide reading, identity binding, value extraction,
reasoning; a chain's ``locate`` row counts as binding, as in the profile metrics) except that
the T4 rows (capability ``abstain``) and every row whose gold answer is to abstain
(``expected == "abstain"``) are in ``abstention``: the four legend-centric capability
families of the paper. Channel is the identity channel(s) the
legend encodes series with (``color``, ``marker+color``...), chart family the chart kind.
Trained from the ``snapshot`` config's train split (no row is evaluation-only).
"""

from __future__ import annotations

from typing import Any

from ._base import Dimension, RegionSet, Row, column, crossed, region_set


def stage(row: Row) -> str | None:
    """guide_read, bind, value_extraction, reason or abstention (None for a row without capability)."""
    if row.get("expected") == "abstain" or row.get("capability") == "abstain":  # T4 rows and answerability variants
        return "abstention"
    if row.get("chain_role") == "locate":
        return "bind"
    return column("capability")(row)


def channel(row: Row) -> str | None:
    """The legend's identity channels, sorted and joined (None when the row does not record them)."""
    channels = row.get("channels")
    return "+".join(sorted(str(c) for c in channels)) if channels else None


@region_set("legend")
class LegendRegions(RegionSet):
    """Capability, capability x channel, capability x chart family."""

    release = "legend"
    default_configs = ("snapshot",)
    default_dimension = "capability"
    template_column = "template"
    stratum_column = ""
    compare_dims = ("chart_family",)
    table_dimension = "capability_chart_family"
    table_title = "capability x chart family"
    test_tasks = "chartprobe_legend"
    recipe = "Diagnosis-guided fine-tuning after LegendBench (§5.3: Random-LB or Bottleneck-LB FT at one budget)"

    def validation_tasks(self, configs: list[str]) -> str:
        return "chartprobe_legend_val"  # only the snapshot has train/validation splits

    def dimensions(self) -> dict[str, Dimension]:
        return {d.name: d for d in (
            Dimension("capability", stage, "guide_read, bind, value_extraction, reason, abstention"),
            Dimension("channel", channel, "identity channels of the legend"),
            Dimension("chart_family", column("chart_kind"), "chart kind"),
            Dimension("capability_channel", crossed(stage, channel), "capability per channel"),
            Dimension("capability_chart_family", crossed(stage, column("chart_kind")),
                      "capability per chart family"),
        )}

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        from chartprobe.eval_tasks.metrics.legend import score_record

        return {**score_record(row, prediction), "channels": list(row.get("channels") or [])}

    def prompt(self, row: Row) -> str:
        from chartprobe.eval_tasks.harness.tasks.legend_utils import prompt

        return prompt().replace("{QUESTION}", str(row["question"]))

    def study_rows(self, section: dict[str, Any]) -> dict[str, float]:
        """Table 5's headline columns from the §5.1 profile: QA and Chain Accuracy, CR, abstention F1."""
        lb = section.get("legendbench") or {}
        names = {"qa_acc": "QA Acc", "chain_acc": "Chain Acc", "cr": "CR", "af1": "AF1"}
        return {label: float(lb[key]) for key, label in names.items() if isinstance(lb.get(key), (int, float))}

    def extra(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """The paper's §5.1 profile (QA and chain accuracy, CR, abstention F1...) over the same records."""
        from chartprobe.eval_tasks.metrics.legend import profile

        return {"legendbench": profile(records)}
