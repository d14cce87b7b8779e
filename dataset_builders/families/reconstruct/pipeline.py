"""One ``chartprobe reconstruct`` run: every source chart through the paper's stages, in threads.

Per item (a source row): reconstruct + refine (A.2, A.3) -> verdict -> human review when asked
-> counterfactual data and QA modules (A.4, A.5) -> a family of the original, the base
reconstruction and ten variants. Items run concurrently (``concurrency`` threads: model calls
wait on the endpoint, sandboxed code runs in its own processes). Every outcome is recorded; the
export (:mod:`.export`) holds the accepted families, the review queue the waiting ones.
Replies come from the content cache when present, so a re-run makes no call for what it has.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .client import ModelError
from .context import CodeFailed, Context, Outcome
from .counterfactual import Family, FamilyRefused, counterfactuals
from .refine import refine, verdict
from .replies import ReplyError
from .review import Decision, read_decisions, write_queue
from .sources import SourceRow

__all__ = ["RunResult", "item_id", "outcome_records", "run_items"]


def item_id(key_split: str, row: SourceRow) -> str:
    """The item's id: the family id the importer gives its rows (``<split>-q<row index>``)."""
    return f"{key_split}-q{row.index:06d}"


@dataclass
class RunResult:
    """Every item's outcome (source order) and the accepted families."""

    outcomes: list[Outcome]
    accepted: list[tuple[SourceRow, Family]]

    def counts(self) -> dict[str, int]:
        out = {"accepted": 0, "rejected": 0, "needs_review": 0, "error": 0}
        for o in self.outcomes:
            out[o.status] += 1
        return out


def _one(ctx: Context, row: SourceRow, item: str, decision: Decision | None
         ) -> tuple[Outcome, Family | None, tuple[dict[str, Any], bytes, bytes] | None]:
    out = Outcome(item, row.chart_id, "rejected", stage="refine")  # the stage in progress, as the run goes
    try:
        refined = refine(ctx, row.image)
        out.rounds, out.history, out.stage = refined.rounds, refined.history, "refine"
        if not refined.converged:
            out.reason = refined.reason
            return out, None, None
        out.verdict, why = verdict(ctx, row.image, refined, row.question, row.answer)
        out.stage, out.reason = "verdict", why
        if out.verdict == "reject":
            return out, None, None
        if out.verdict == "needs_review":
            if decision is None:
                out.status, out.stage = "needs_review", "review"
                entry = {"item": item, "chart_id": row.chart_id, "question": row.question, "answer": row.answer,
                         "reason": why, "rounds": refined.rounds, "history": refined.history,
                         "chart_data": refined.draft.chart_data}
                return out, None, (entry, row.image, refined.render or b"")
            out.reviewed, out.stage = decision.decision, "review"
            if decision.decision == "reject":
                out.reason = f"rejected in review: {decision.note or 'no note'}"
                return out, None, None
        family = counterfactuals(ctx, row.image, refined, row.question, row.answer)
    except FamilyRefused as exc:
        out.stage, out.reason = exc.stage, str(exc)
        return out, None, None
    except ReplyError as exc:
        out.stage, out.reason = "reply", str(exc)
        return out, None, None
    except ModelError as exc:  # the endpoint failed: not the chart's fault; a re-run tries again
        out.status, out.stage, out.reason = "error", "model", str(exc)
        return out, None, None
    except CodeFailed as exc:  # the checker or sandbox raised on this chart's code: this chart's error only
        out.status, out.stage, out.reason = "error", exc.stage or out.stage, str(exc)
        return out, None, None
    out.status, out.stage = "accepted", "generate_answer"
    out.reason = "; ".join(r for r in (out.reason, family.note) if r)
    return out, family, None


def run_items(ctx: Context, rows: list[SourceRow], key_split: str, review_dir: Path, *, concurrency: int = 4,
              progress: bool = False) -> RunResult:
    """Run every row; write the review queue; return the outcomes in source order."""
    from tqdm.auto import tqdm

    decisions = read_decisions(review_dir)
    ids = [item_id(key_split, r) for r in rows]
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool, \
            tqdm(total=len(rows), desc="reconstruct", unit="chart", disable=not progress) as bar:
        futures = [pool.submit(_one, ctx, r, i, decisions.get(i)) for r, i in zip(rows, ids, strict=True)]
        for _ in as_completed(futures):
            bar.update(1)
        done = [f.result() for f in futures]  # source order, whatever order they finished in
    write_queue(review_dir, [q for _, _, q in done if q is not None])
    accepted = [(r, fam) for r, (_, fam, _) in zip(rows, done, strict=True) if fam is not None]
    return RunResult([o for o, _, _ in done], accepted)


def outcome_records(result: RunResult) -> list[dict[str, Any]]:
    """The outcomes as the manifest stores them."""
    return [asdict(o) for o in result.outcomes]
