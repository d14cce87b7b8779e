"""A.2 + A.3: reconstruct a chart as data + code, then diagnose, plan and revise until clean.

Round ``r`` (1..5) renders the current draft in the sandbox. A draft whose code is refused by the
AST check, raises, or hits a sandbox limit goes straight to ``revise`` with that error (no
diagnosis of a picture that does not exist). A render is compared with the source by
``diagnose``; no significant issue ends the loop, converged. Still significant after round 5, or
still failing to render, the item is rejected ("no convergence"). The converged draft then gets
the model's verdict: accept, reject, or needs review (§3.1, A.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .context import Context
from .prompts import stage_text
from .replies import Draft, parse_diagnosis, parse_draft, parse_verdict
from .sandbox import Call, CodeRejected

__all__ = ["Refined", "refine", "render", "verdict"]


@dataclass
class Refined:
    """The loop's end: converged (with its render) or not, after ``rounds`` rounds."""

    converged: bool
    draft: Draft
    render: bytes | None
    rounds: int
    reason: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)


def render(ctx: Context, draft: Draft) -> tuple[bytes | None, str]:
    """(PNG, "") or (None, why it did not render): code refused, raised, or stopped by a limit."""
    try:
        job = ctx.run([Call(draft.chart_code, "make_figure", (draft.chart_data,), savepath=True)])
    except CodeRejected as exc:
        return None, f"code refused: {exc}"
    if job.status != "ok":
        return None, f"sandbox ({job.mechanism}) stopped the code: {job.status}: {job.reason}"
    result = job.results[0]
    return (result.png, "") if result.ok and result.png else (None, result.error or "make_figure wrote no PNG")


def refine(ctx: Context, source: bytes) -> Refined:
    """Reconstruct ``source`` and run the self-improvement loop (the model's replies must parse)."""
    draft = parse_draft(ctx.client.complete("reconstruct", stage_text("reconstruct", prompts=ctx.prompts), [source]), "reconstruct")
    history: list[dict[str, Any]] = []
    for r in range(1, ctx.rounds + 1):
        png, error = render(ctx, draft)
        current = {"current_chart_data": draft.chart_data, "current_code": draft.chart_code}
        if error:
            history.append({"round": r, "render_error": error})
            if r == ctx.rounds:
                return Refined(False, draft, None, r, f"no convergence: the code still fails after {r} rounds "
                                                      f"({error})", history)
            text = stage_text("revise", round_=r, prompts=ctx.prompts, **current, problems=f"The code did not render: {error}")
            draft = parse_draft(ctx.client.complete("revise", text, [source]), "revise")
            continue
        diag = parse_diagnosis(ctx.client.complete("diagnose", stage_text("diagnose", round_=r, prompts=ctx.prompts, **current),
                                                   [source, png]))
        history.append({"round": r, "significant": diag.significant, "issues": list(diag.issues)})
        if not diag.significant:
            return Refined(True, draft, png, r, "", history)
        if r == ctx.rounds:
            return Refined(False, draft, png, r, f"no convergence after {r} rounds: {diag.text[:200]}", history)
        text = stage_text("revise", round_=r, prompts=ctx.prompts, **current, problems={"issues": list(diag.issues)})
        draft = parse_draft(ctx.client.complete("revise", text, [source, png]), "revise")
    raise AssertionError("unreachable: the loop returns in its last round")


def verdict(ctx: Context, source: bytes, refined: Refined, question: str, answer: str) -> tuple[str, str]:
    """The model's classification of a converged reconstruction (which has its render) for this question."""
    assert refined.render is not None, "only a converged reconstruction gets a verdict"
    text = stage_text("verdict", prompts=ctx.prompts, question=question, answer=answer, chart_data=refined.draft.chart_data)
    return parse_verdict(ctx.client.complete("verdict", text, [source, refined.render]))
