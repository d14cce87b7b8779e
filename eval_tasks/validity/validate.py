"""``chartprobe validate``: run every applicable reference agent on a release and check validity.

For each config/split of a release, every agent that applies to the release's suite
answers the rows (the blind agent is fit on the config's other splits), its predictions
are scored with the suite's scorer, and the suite's checks turn the runs into the validity
table. The table is written as markdown and JSON, optionally into the release's dataset
card (a ``## Validity`` section, replaced on re-runs), and any failed check makes the
command exit non-zero. With ``samples_out`` the agents' test-split predictions are also
written in lm-eval ``--log_samples`` layout, one model folder per agent.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chartprobe.errors import UsageError

from ..rescoring.doc_order import order_documents
from ..rescoring.predictions import (
    PredictionsError,
    date_id,
    load_release_rows,
    read_json,
    read_release_card,
    write_samples,
)
from ..suites import suite_for_release
from ..suites._base import AgentRun, Check, RunSet
from ..suites._task_index import task_index
from .agents import AGENTS
from .agents._base import Agent

__all__ = ["ValidityReport", "check_agents", "read_validity", "release_dataset", "render_markdown", "run_agents",
           "validate_release"]


@dataclasses.dataclass
class ValidityReport:
    """The validity table of one release."""

    release: str
    dataset: str
    checks: list[Check]
    skipped: list[Check] = dataclasses.field(default_factory=list)
    """Checks left out because an agent they judge did not run (``--agents``)."""
    not_run: list[str] = dataclasses.field(default_factory=list)
    """Applicable agents left out by ``--agents``: their own checks were never computed."""

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status == "fail"]

    def to_json(self) -> dict[str, Any]:
        return {"release": self.release, "dataset": self.dataset, "passed": not self.failed,
                "checks": [dataclasses.asdict(c) for c in self.checks],
                "skipped": [{"check": c.check, "scope": c.scope, "agent": c.agent} for c in self.skipped],
                "agents_not_run": self.not_run}


def agents_judged(check: Check) -> set[str]:
    """The registered agents a check's ``agent`` field names (``"oracle"``, ``"blind vs majority"``)."""
    names = set(AGENTS.names())
    return {word for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", check.agent) if word in names}


def split_by_agents(checks: Sequence[Check], ran: Sequence[str] | None) -> tuple[list[Check], list[Check]]:
    """``(evaluated, skipped)``: with ``ran`` given, a check that judges an agent outside it is skipped.

    Without this, ``--agents oracle`` failed on "legend-order accuracy 0.000": the check read the
    legend-order agent's missing run as a score of nothing. Checks that name no agent (data checks
    such as the majority answer share) are always evaluated.
    """
    if ran is None:
        return list(checks), []
    evaluated, skipped = [], []
    for c in checks:
        (evaluated if agents_judged(c) <= set(ran) else skipped).append(c)
    return evaluated, skipped


def _applicable(suite: Any, agents: Sequence[str] | None) -> list[tuple[str, Any]]:
    chosen = [(n, c()) for n, c in AGENTS.items() if agents is None or n in agents]
    return [(n, a) for n, a in chosen if a.applies_to_suite(suite)]


def chosen_agents(suite: Any, agents: Sequence[str] | None = None) -> list[tuple[str, Any]]:
    """(name, agent) of every registered agent named in ``agents`` (default all) that applies to ``suite``."""
    chosen = _applicable(suite, agents)
    for name, a in chosen:
        if a.missing():  # check_agents refused a named one already; the default set runs without it
            print(f"validate: agent {name} not run, it needs {', '.join(a.missing())}", file=sys.stderr)
    return [(n, a) for n, a in chosen if not a.missing()]


def pixel_hook(dataset: str, agents: Sequence[str] | None = None, num_proc: int = 1) -> Any:
    """The loader hook computing pixel statistics for the rows some chosen agent reads them of, or
    None when none does (then loading stays header-only, as for ``chartprobe score``); with
    ``num_proc`` > 1 the images are described in that many worker processes while the rows load."""
    from chartprobe.dataset_builders.core.image_statistics import PixelReader
    from chartprobe.dataset_builders.core.pixel_pool import PooledPixelReader

    suite = suite_for_release(dataset)
    readers = [a for _, a in _applicable(suite, agents)  # silent: run_agents says which agent is not run
               if not a.missing() and type(a).needs_pixels is not Agent.needs_pixels]
    if not readers:
        return None

    def wanted(row: Any) -> bool:
        return any(a.needs_pixels(suite, row) for a in readers)

    return PooledPixelReader(wanted, num_proc) if num_proc > 1 else PixelReader(wanted)


def load_for_agents(release: str | Path, dataset: str, agents: Sequence[str] | None = None, num_proc: int = 1,
                    **kwargs: Any) -> dict[tuple[str, str], list[dict]]:
    """:func:`load_release_rows` with the pixel statistics the chosen agents read (``num_proc``:
    processes describing the images)."""
    return load_release_rows(release, pixels=pixel_hook(dataset, agents, num_proc), **kwargs)


def run_agents(dataset: str, rows: dict[tuple[str, str], list[dict]], agents: Sequence[str] | None = None,
               num_proc: int = 1) -> RunSet:
    """Every applicable agent on every config/split of ``rows``, scored by the suite (``num_proc``:
    processes an agent may use, :attr:`~.agents._base.Agent.num_proc`)."""
    suite = suite_for_release(dataset)
    runs = RunSet(dataset, {(c, s): suite.documents(c, rs) for (c, s), rs in rows.items()})
    from tqdm.auto import tqdm

    chosen = chosen_agents(suite, agents)
    for _, agent in chosen:
        agent.num_proc = num_proc
    # stderr bar, one step per agent x config/split; tqdm hides it when stderr is not a terminal
    bar = tqdm(total=len(chosen) * len(runs.rows), unit="run", desc=f"validate {dataset}", disable=None, leave=False)
    for name, agent in chosen:
        try:
            for (config, split), split_rows in sorted(runs.rows.items()):  # documents, not raw rows
                preds = agent.predict(suite, split_rows, runs.fit_rows(config, split))
                scores = agent.scores(suite, split_rows)
                kept = [i for i, p in enumerate(preds) if p is not None]
                if len(preds) != len(split_rows) or (scores is not None and len(scores) != len(split_rows)):
                    raise ValueError(f"agent {name}: {len(preds)} predictions for {len(split_rows)} rows")
                runs.runs[(name, config, split)] = AgentRun(
                    name, config, split, [split_rows[i] for i in kept], [preds[i] for i in kept],
                    [suite.score(split_rows[i], preds[i]) for i in kept],
                    None if scores is None else [scores[i] for i in kept])
                bar.update()
        finally:
            agent.close()
    bar.close()
    return runs


def write_agent_samples(runs: RunSet, folder: Path, stamp: str | None = None) -> list[Path]:
    """The agents' predictions on every lm-eval task of the release, in ``--log_samples`` layout.

    Task order (:mod:`.doc_order`): a sample's ``doc_id`` is its document's position in the task,
    as lm-eval and ``chartprobe score`` number it, even where an agent skips documents.
    """
    stamp = stamp or date_id()
    written = []
    for task in task_index().values():
        if task.release != runs.release or not task.rescored:  # *_paper tasks: same rows, released rules
            continue
        suite = suite_for_release(runs.release)
        docs = order_documents(suite, [d for d in runs.rows.get((task.config, task.split), [])
                                       if task.selects(task.config, task.split, d)])
        position = {suite.doc_key(d): i for i, d in enumerate(docs)}  # lm-eval's doc_id, as the gold has it
        for (agent, config, split), run in sorted(runs.runs.items()):
            picked = sorted(((position[suite.doc_key(r)], r, p) for r, p in zip(run.rows, run.predictions)
                             if task.selects(config, split, r)), key=lambda t: t[0])
            if picked:
                written.append(write_samples(folder / agent, task.task, [r for _, r, _ in picked],
                                             [p for _, _, p in picked], stamp, [i for i, _, _ in picked]))
    return written


def release_dataset(release: str | Path) -> str:
    """The dataset a release folder holds, from its card; refused when no suite scores it."""
    from ..suites import SUITES

    dataset = read_release_card(release)["chartprobe"]["dataset"]
    if dataset not in SUITES.names():
        raise PredictionsError(f"{release}/README.md: dataset {dataset!r} has no validity suite "
                               f"(known: {', '.join(SUITES.names())})")
    return dataset


def check_agents(text: str | None, datasets: Sequence[str]) -> list[str] | None:
    """``--agents a,b`` as names, refused unless every one is registered and applies to a release.

    A name that silently matched nothing used to run no agent at all, and the missing oracle
    run then read as an oracle FAIL.
    """
    if text is None:
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise UsageError("--agents: no agent names given (see the agents in eval_tasks/validity/agents/)")
    unknown = [n for n in names if n not in AGENTS.names()]
    if unknown:
        raise UsageError(f"--agents: unknown agent {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(AGENTS.names())})")
    for name in names:
        if AGENTS.get(name).missing():
            raise UsageError(f"--agents: {name!r} needs {', '.join(AGENTS.get(name).missing())}")
    suites = [suite_for_release(d) for d in dict.fromkeys(datasets)]
    for name in names:
        if not any(AGENTS.get(name)().applies_to_suite(s) for s in suites):
            raise UsageError(f"--agents: {name!r} does not apply to {', '.join(dict.fromkeys(datasets))}")
    return names


def validate_release(release: str | Path, *, samples_out: str | Path | None = None,
                     agents: Sequence[str] | None = None, num_proc: int = 1) -> ValidityReport:
    """Run the agents on ``release`` (a release folder) and return its validity report."""
    release = Path(release)
    dataset = release_dataset(release)
    return report_for_rows(release.name, dataset, load_for_agents(release, dataset, agents, num_proc),
                           samples_out=samples_out, agents=agents, num_proc=num_proc)


def report_for_rows(name: str, dataset: str, rows: dict[tuple[str, str], list[dict]], *,
                    samples_out: str | Path | None = None, agents: Sequence[str] | None = None,
                    num_proc: int = 1) -> ValidityReport:
    """The validity report of ``rows`` (config/split -> rows, as :func:`load_for_agents` reads them)."""
    suite = suite_for_release(dataset)
    runs = run_agents(dataset, rows, agents, num_proc)
    if samples_out is not None:
        write_agent_samples(runs, Path(samples_out))
    not_run = [] if agents is None else [n for n, cls in AGENTS.items()
                                         if n not in agents and cls().applies_to_suite(suite)]
    return ValidityReport(name, dataset, *split_by_agents(suite.checks(runs), agents), not_run=not_run)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _tested(check: Check) -> str:
    """The number the threshold is applied to: the value itself, or the bound the row names."""
    if not check.op:
        return "–"
    return "= value" if check.statistic == "value" else _fmt(check.tested)


def render_markdown(report: ValidityReport, *, include_na: bool = False) -> str:
    """The validity table as markdown (checks with nothing to check are left out by default)."""
    verdict = "all checks pass" if not report.failed else f"**{len(report.failed)} check(s) FAIL**"
    lines = [f"Reference agents on `{report.release}`: {verdict}.", "",
             "| check | scope | agent | value | tested | threshold | n | status |", "|---|---|---|---|---|---|---|---|"]
    for c in report.checks:
        if c.status == "n/a" and not include_na:
            continue
        shown = f"**{c.status}**" if c.status == "fail" else c.status
        lines.append(f"| {c.check} | `{c.scope}` | {c.agent} | {_fmt(c.value)} | {_tested(c)} | {c.threshold} "
                     f"| {c.n} | {shown} |")
    if report.not_run:
        lines += ["", f"Agents not run (--agents), their checks skipped: {', '.join(report.not_run)}."]
    if report.skipped:
        names = sorted({f"{c.check} ({c.agent})" for c in report.skipped})
        lines += ["", f"Skipped {len(report.skipped)} check(s) whose agents did not run (--agents): "
                  + "; ".join(names) + "."]
    return "\n".join(lines) + "\n"


CARD_INTRO = ("Every number below comes from `chartprobe validate`: reference agents (an oracle that "
              "recomputes answers from the spec, a question-only blind agent, shortcut agents, a seeded "
              "random guesser) answer every config and split, and each metric must catch the shortcut it "
              "was designed to catch. Thresholds: oracle 100%; blind at most 5 points above the majority "
              "rate; abstaining never scores on answerable items; no categorical template's majority answer "
              "above 1.5x uniform (one-sided 95% Wilson bound); image-side and answer-set shortcut agents "
              "(position prior, file metadata, anti-stale, answer-everything, text reader) at most 5 points "
              "above chance; benchmark-specific checks as listed. `tested` is the number each threshold is "
              "applied to: the value, or its one-sided 95% lower bound where the threshold says so.")


def write_validity_card(release: str | Path, report: ValidityReport) -> Path:
    """Insert or replace the ``## Validity`` section of the release's dataset card."""
    from chartprobe.dataset_builders.release.card import write_card_section

    return write_card_section(release, "Validity", f"{CARD_INTRO}\n\n{render_markdown(report)}")


def read_validity(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    """The reports of ``validity.json`` files (``chartprobe validate --out``), their shape checked."""

    fields = {f.name for f in dataclasses.fields(Check)}
    # Files written before checks recorded what they test lack the later, defaulted fields.
    required = {f.name for f in dataclasses.fields(Check) if f.default is dataclasses.MISSING}
    docs: list[dict[str, Any]] = []
    for path in paths:
        doc = read_json(path)
        for rep in doc if isinstance(doc, list) else [doc]:
            ok = (isinstance(rep, dict) and isinstance(rep.get("release"), str) and isinstance(rep.get("dataset"), str)
                  and isinstance(rep.get("checks"), list)
                  and all(isinstance(c, dict) and required <= set(c) <= fields for c in rep["checks"]))
            if not ok:
                raise PredictionsError(f"{path} is not a validity.json of `chartprobe validate --out` "
                                       f"(reports with release, dataset and checks of {sorted(fields)})")
            docs.append(rep)
    return docs
