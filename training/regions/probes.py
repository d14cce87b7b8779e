"""ChartProbe's capability regions: skill x template x domain (paper §3, Table 1).

Trained from the probe configs (``bar`` by default, as in the paper); the held-out complex
reasoning rows (``skill == "complex"`` or ``held_out``) are evaluation-only and are profiled
apart with the CR fuzzy metric, never selected.
"""

from __future__ import annotations

from typing import Any

from ._base import Dimension, RegionSet, Row, column, crossed, region_set

INSTRUCTION = "\nAnswer with the answer only."
"""Must stay equal to the instruction in eval_tasks/harness/tasks/_probes_yaml (a test checks it)."""


@region_set("probes")
class ProbeRegions(RegionSet):
    """Skill, template, domain and the per-domain x skill cells of ChartProbe's Table 1."""

    release = "probes"
    default_configs = ("bar",)
    default_dimension = "skill"
    template_column = "template_id"
    stratum_column = "skill"
    compare_dims = ("domain",)
    table_dimension = "domain_skill"
    table_title = "domain x skill"
    test_tasks = "chartprobe_probes_bar,chartprobe_probes_pie,chartprobe_probes_shapes,chartprobe_complex"
    recipe = 'Atomic-skill fine-tuning after ChartProbe (§4 "Setup")'
    never_trained = "No complex-reasoning question and no test row was used."

    def validation_tasks(self, configs: list[str]) -> str:
        return ",".join(f"chartprobe_probes_val_{c}" for c in configs)

    def dimensions(self) -> dict[str, Dimension]:
        return {d.name: d for d in (
            Dimension("skill", column("skill"), "perception, grounding, reasoning"),
            Dimension("template_id", column("template_id"), "one region per probe template"),
            Dimension("domain", column("domain"), "bar, hbar, pie, shapes"),
            Dimension("domain_skill", crossed(column("domain"), column("skill")),
                      "per-domain x skill cells (ChartProbe Table 1)"),
        )}

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        from chartprobe.eval_tasks.metrics.probes import score_record

        return {**score_record(row, prediction), "held_out": bool(row.get("held_out"))}

    def correct(self, record: Row) -> float:
        # The item verdict (a list must be the exact set): what the probes' accuracy counts.
        return float(record.get("accuracy", record.get("correct", 0.0)))

    def evaluation_only(self, row: Row) -> bool:
        return row.get("skill") == "complex" or bool(row.get("held_out"))

    def prompt(self, row: Row) -> str:
        return f"{row['question']}{INSTRUCTION}"

    def extra(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """CR fuzzy accuracy per domain (the paper's transfer metric), from the evaluation-only rows;
        the out-of-template sets (``cr_ood_*``) under ``ood_<domain>``, apart from the in-template ones."""
        by: dict[str, list[dict[str, Any]]] = {}
        for r in records:
            if self.evaluation_only(r):
                prefix = "ood_" if _out_of_template(r.get("template_id")) else ""
                by.setdefault(f"{prefix}{r.get('domain')}", []).append(r)
        return {"complex": {d: {"fuzzy": _avg(r.get("fuzzy", 0.0) for r in rs),
                                "accuracy": _avg(self.correct(r) for r in rs), "n": len(rs)}
                            for d, rs in sorted(by.items())}}


def _out_of_template(template_id: Any) -> bool:
    """Whether a template is one of the out-of-template CR set (its class says so)."""
    from chartprobe.dataset_builders.probes.templates import TEMPLATES

    name = str(template_id)
    return name in TEMPLATES.names() and bool(getattr(TEMPLATES.get(name), "out_of_template", False))


def _avg(values) -> float | None:
    vals = [float(v) for v in values]
    return sum(vals) / len(vals) if vals else None
