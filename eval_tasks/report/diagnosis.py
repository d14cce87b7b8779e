"""The diagnosis that opens ``report.md``: per model, its weakest capability and its strongest shortcut signal.

Both are computed from the model's test-split records, never written around a fixed claim:

- *capabilities*: every capability the suites score on rows (probes per skill, legend per stage,
  families' variant accuracy on solved originals), each a share with a cluster-bootstrap 95%
  interval over the suite's units (:func:`..metrics.bootstrap.interval`); the weakest is the one
  with the lowest value (ties: the narrower evidence, i.e. the larger n, wins).
- *shortcut signals*: shares of answers that follow a shortcut instead of the chart (legend-entry
  order on conflict rotations, the stale answer on chart variants) and the families' relative
  variant change RVC with its sign-flip p; the strongest is the one with the largest effect
  (a share, or |RVC| as a fraction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from ..metrics import families as fm
from ..metrics import legend as lm
from ..metrics import legend_studies as lst
from ..metrics.bootstrap import group_units, interval, relabel_fields
from ..metrics.bootstrap_sums import mean_interval, sums_interval

__all__ = ["Finding", "capabilities", "diagnose", "paragraph", "shortcuts"]

Record = Mapping[str, Any]
SKILLS = {"P": "perception", "G": "grounding", "SR": "simple reasoning"}
"""ChartProbe's skill letters, spelled out in the paragraph (releases name skills in full already)."""
ALPHA = 0.05
ITERS = 400
"""Bootstrap draws per finding."""
STAGES = {"guide_read": "reading the legend", "bind": "binding legend entries to marks (grounding)",
          "value_extraction": "value extraction", "reason": "reasoning"}


@dataclass(frozen=True)
class Finding:
    """One computed statement: a share (or RVC fraction) with its 95% interval over ``n`` rows."""

    suite: str
    text: str
    """What the share measures, e.g. "grounding (probes skill G)"."""
    value: float
    low: float | None
    high: float | None
    n: int
    units: int = 0
    """Independent units (charts, families) the interval resamples; under 2, no interval."""
    p: float | None = None
    percent_change: bool = False
    """RVC: a signed relative change printed in %, its effect is |value|."""

    @property
    def effect(self) -> float:
        return abs(self.value)

    def number(self) -> str:
        """"62% [51, 72]" or "-41% [-55, -27], p = 0.003"."""
        def pct(v: float | None) -> str:
            return f"{100 * v:.0f}"
        sign = "+" if self.percent_change and self.value > 0 else ""
        ci = (f"[{pct(self.low)}, {pct(self.high)}]" if self.low is not None and self.high is not None
              else f"(no interval: {self.units} unit{'s' if self.units != 1 else ''})")
        out = f"{sign}{pct(self.value)}% {ci}"
        return out + (f", p = {self.p:.3g}" if self.p is not None else "")


Counts = tuple[Callable[[list], Mapping[str, float]], Callable[[Mapping[str, float]], float | None]]
"""(a unit's additive counts, the metric from counts summed over units): the vectorized bootstrap."""


def _finding(suite: str, text: str, metric: Callable[[list], float | None], rows: Sequence[Record],
             unit: Callable[[Record], Any], relabel: Any = None, counts: Counts | None = None,
             mean_of: Callable[[Record], float] | None = None, **kw: Any) -> Finding | None:
    value = metric(list(rows))
    if value is None or not rows:
        return None
    if mean_of is not None:  # metric(rows) is the mean of mean_of over rows: per-unit sums and row counts
        ci = mean_interval(rows, mean_of, unit, ITERS)
    elif counts is None:
        ci = interval(metric, rows, unit, iters=ITERS, relabel=relabel)
    else:  # metric(rows) == statistic(summed unit counts): the same draws as interval's, as count vectors
        per_unit, statistic = counts
        ci = sums_interval([per_unit(u) for u in group_units(rows, unit)], statistic, ITERS)
    return Finding(suite, text, float(value), ci.low, ci.high, len(rows), ci.n_units, **kw)


def _family_counts(key: str, scale: float = 1.0) -> Counts:
    """A family metric (:func:`..metrics.families.from_family_counts`) from each family's counts."""
    def statistic(t: Mapping[str, float]) -> float | None:
        v = fm.from_family_counts(t)[key]
        return None if v is None else v / scale

    return fm.family_counts, statistic


def _correct(r: Record) -> float:
    return float(r["accuracy"]) if "accuracy" in r else float(bool(r.get("correct")))


def _mean_correct(rows: list) -> float | None:
    return fmean(map(_correct, rows)) if rows else None


def _unit(r: Record) -> Any:
    for key in ("chart_id", "base_id", "family_id", "group_id", "pair_id", "id"):
        if r.get(key) is not None:
            return r[key]
    return id(r)


_FAMILY_RELABEL = relabel_fields("family_id")


def capabilities(suite: str, rows: Sequence[Record]) -> list[Finding]:
    """Every row-level capability of one suite's test records, each with its interval."""
    out: list[Finding | None] = []
    if suite == "probes":
        for skill in sorted({str(r.get("skill")) for r in rows if r.get("skill") and not r.get("fuzzy")}):
            sub = [r for r in rows if str(r.get("skill")) == skill and "fuzzy" not in r]
            out.append(_finding(suite, f"probes {SKILLS.get(skill, skill)} skill", _mean_correct, sub, _unit,
                                mean_of=_correct))
    elif suite == "legend":
        for stage, label in STAGES.items():
            sub = [r for r in rows if lm.stage(r) == stage]
            out.append(_finding(suite, f"{label} (legend {stage})", _mean_correct, sub, _unit,
                                mean_of=_correct))
    elif suite == "families":
        fam = [r for r in rows if r.get("family_id") is not None and r.get("role") in ("original", "variant")]
        out.append(_finding(suite, "updating answers to chart variants (families CVA)",
                            fm.conditional_variant_accuracy, fam, lambda r: r["family_id"], _FAMILY_RELABEL,
                            _family_counts("CVA")))
    return [f for f in out if f is not None]


def _stale_share(rows: list) -> float | None:
    return fm.update_outcomes(rows).get("SP")


def _follows(r: Record) -> float:
    return r["_follows"]


def _follow_share(rows: list) -> float | None:
    # rows carry their parsed verdict ("_follows", computed once): the bootstrap only averages it
    return fmean(map(_follows, rows)) if rows else None


def _rvc(rows: list) -> float | None:
    change = fm.relative_change(fm.accuracy(rows, "variant"), fm.accuracy(rows, "original"))
    return None if change is None else change / 100


def shortcuts(suite: str, rows: Sequence[Record]) -> list[Finding]:
    """The shortcut signals the suites compute, on this suite's test records."""
    out: list[Finding | None] = []
    if suite == "legend":
        conflict = [{**r, "_follows": float(lst.follows_legend(r))}
                    for r in lst.order_rows(rows) if not lst._aligned(r)]
        out.append(_finding(suite, "follows the legend order instead of the visual rank on conflict rotations",
                            _follow_share, conflict, _unit, mean_of=_follows))
    elif suite == "families":
        fam = [r for r in rows if r.get("family_id") is not None and r.get("role") in ("original", "variant")]
        out.append(_finding(suite, "repeats the original's answer on chart variants (stale prediction SP)",
                            _stale_share, fam, lambda r: r["family_id"], _FAMILY_RELABEL, _family_counts("SP")))
        rvc = _finding(suite, "variant accuracy relative to originals (RVC)", _rvc, fam,
                       lambda r: r["family_id"], _FAMILY_RELABEL, _family_counts("RVC", 100), percent_change=True)
        if rvc is not None:
            p = fm.sign_flip_test(fam)
            out.append(Finding(**{**rvc.__dict__, "p": p}))
    return [f for f in out if f is not None]


def _findings(records: Mapping[str, Sequence[Record]]) -> tuple[list[Finding], list[Finding]]:
    """(capabilities, shortcut signals) of every suite, each bootstrapped once."""
    return ([c for s, rs in sorted(records.items()) for c in capabilities(s, rs)],
            [c for s, rs in sorted(records.items()) for c in shortcuts(s, rs)])


def _pick(caps: list[Finding], cuts: list[Finding]) -> tuple[Finding | None, Finding | None]:
    weakest = min(caps, key=lambda c: (c.value, -c.n)) if caps else None
    # Only a signal the data supports is named: a share whose interval excludes 0, an RVC with p < 0.05.
    real = [c for c in cuts if ((c.p is not None and c.p < ALPHA) if c.percent_change
                                else (c.low is not None and c.low > 0))]
    strongest = max(real, key=lambda c: (c.effect, not c.percent_change, c.n)) if real else None
    return weakest, strongest


def diagnose(records: Mapping[str, Sequence[Record]]) -> tuple[Finding | None, Finding | None]:
    """(weakest capability, strongest shortcut signal) over one model's suites (suite -> test records)."""
    return _pick(*_findings(records))


def paragraph(model: str, records: Mapping[str, Sequence[Record]]) -> str:
    """The generated paragraph: every clause is a number computed from ``records``."""
    caps, cuts = _findings(records)  # once: each finding is a bootstrap (and RVC a sign-flip test)
    weakest, strongest = _pick(caps, cuts)
    parts = []
    if weakest is not None and len(caps) > 1 and len({round(c.value, 9) for c in caps}) == 1:  # none stands out
        parts.append(f"Every one of its {len(caps)} capabilities scores {weakest.number().split(' ')[0]}.")
    elif weakest is not None:
        parts.append(f"Weakest capability: {weakest.text}, {weakest.number()} (n = {weakest.n} rows).")
    if strongest is not None:
        if strongest.percent_change:
            parts.append(f"Strongest shortcut signal: {strongest.text} {strongest.number()} (n = {strongest.n} rows).")
        else:
            parts.append(f"Strongest shortcut signal: {strongest.text} in {strongest.number()} "
                         f"(n = {strongest.n} rows).")
    elif cuts:
        parts.append("No shortcut signal differs from zero (every share's interval includes 0, RVC p ≥ 0.05).")
    if not parts:
        return f"No row-level capability or shortcut signal could be computed for {model}."
    return f"**{model}.** " + " ".join(parts) + " (95% cluster-bootstrap intervals, test split.)"
