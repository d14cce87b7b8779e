"""A.4 + A.5: seed-controlled counterfactual data, and the executable QA logic that answers it.

The model writes three one-function modules for an accepted reconstruction:
``generate_data(data_template, seed)``, ``adapt_question(data)`` and ``generate_answer(data)``.
Each is AST-checked and executed in the sandbox on the reconstructed data before anything is
used (A.5). The family is refused, with the reason recorded, when a module is refused or raises,
when a variant's data leaves the template's schema, or when a variant does not render; under a
protocol with an answer gate (``chartprobe``) also when ``generate_answer`` on the base
reconstruction disagrees with the source answer (under ``paper`` the difference is recorded in
:attr:`Family.note`). The protocol (:mod:`.protocol`) decides what each stage is sent: the
assumptions stage first, images or not, the chart code and adapter module, the source answer.
Seeds ``0..N-1`` give the variants; the base reconstruction keeps the reconstructed data (§3.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import answer_text, same_answer, schema_problem
from .context import CodeFailed, Context
from .prompts import stage_text
from .refine import Refined
from .replies import assumptions_block, parse_assumptions, parse_code
from .sandbox import Call, CodeRejected

__all__ = ["Family", "FamilyRefused", "Variant", "counterfactuals"]


class FamilyRefused(Exception):
    """The generated modules failed a check (``stage``: which one; the message: why)."""

    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(reason)
        self.stage = stage


@dataclass(frozen=True)
class Variant:
    """One family member made from data: its seed (-1: the base reconstruction), data, QA and image."""

    seed: int
    data: dict
    question: str
    answer: str
    image: bytes


@dataclass(frozen=True)
class Family:
    """The base reconstruction and its seed variants, with the modules that made them."""

    base: Variant
    variants: tuple[Variant, ...]
    modules: dict
    note: str = ""
    """What the outcome records of an accepted family (the base answer's difference from the source's)."""


def _modules(ctx: Context, source: bytes, refined: Refined, question: str, answer: str) -> dict[str, str]:
    """The three modules, asked in order (``generate_answer`` may read the adapter module)."""
    p, data, code = ctx.protocol, refined.draft.chart_data, refined.draft.chart_code
    images = [source] if p.code_images else []

    def ask(stage: str, **parts) -> str:
        return ctx.client.complete(stage, stage_text(stage, prompts=ctx.prompts, **parts), images)

    context: dict[str, str] = {}
    if p.assumptions:
        notes = parse_assumptions(ask("assumptions", chart_code=code, chart_data=data))
        context["assumptions_and_background"] = assumptions_block(notes)
    out = {"generate_data": parse_code(ask("generate_data", data_template=data, make_figure_code=code, **context),
                                       "generate_data")}
    shown = {"chart_code": code} if p.code_context else {}
    out["adapt_question"] = parse_code(ask("adapt_question", question=question, chart_data=data, **shown),
                                       "adapt_question")
    if p.code_context:
        shown["question_adapter_module"] = out["adapt_question"]
    given = {"original_answer": answer} if p.answer_shown else {}
    out["generate_answer"] = parse_code(ask("generate_answer", question=question, **given, chart_data=data, **shown),
                                        "generate_answer")
    return out


def _job(ctx: Context, calls: list[Call], stage: str) -> list:
    try:
        job = ctx.run(calls)
    except CodeRejected as exc:
        raise FamilyRefused(stage, f"code refused: {exc}") from None
    except CodeFailed as exc:
        exc.stage = stage  # the pipeline records it as this stage's failure
        raise
    if job.status != "ok":
        raise FamilyRefused(stage, f"sandbox ({job.mechanism}) stopped the code: {job.status}: {job.reason}")
    return list(job.results)


def _value(result, stage: str, what: str):
    if not result.ok:
        raise FamilyRefused(stage, f"{what} raised: {result.error}")
    return result.value


def counterfactuals(ctx: Context, source: bytes, refined: Refined, question: str, answer: str) -> Family:
    """The family of an accepted reconstruction, or :class:`FamilyRefused`."""
    modules = _modules(ctx, source, refined, question, answer)
    base = refined.draft.chart_data
    seeds = range(ctx.variants)
    generated = _job(ctx, [Call(modules["generate_data"], "generate_data", (base, s)) for s in seeds],
                     "generate_data")
    datas = []
    for s, result in zip(seeds, generated, strict=True):
        data = _value(result, "generate_data", f"generate_data(seed={s})")
        problem = schema_problem(base, data, fixed_lengths=ctx.protocol.fixed_lengths)
        if problem:
            raise FamilyRefused("generate_data", f"seed {s} leaves the template's schema: {problem}")
        datas.append(data)
    calls = []
    for data in (base, *datas):
        calls += [Call(modules["adapt_question"], "adapt_question", (data,)),
                  Call(modules["generate_answer"], "generate_answer", (data,))]
    calls += [Call(refined.draft.chart_code, "make_figure", (data,), savepath=True) for data in datas]
    results = _job(ctx, calls, "generate_answer")
    n_qa = 2 * (len(datas) + 1)  # (question, answer) per member, base first; then one render per variant
    qa, renders = results[:n_qa], results[n_qa:]
    members = []
    for i, data in enumerate((base, *datas)):
        q = _value(qa[2 * i], "adapt_question", "adapt_question")
        a = answer_text(_value(qa[2 * i + 1], "generate_answer", "generate_answer"))
        if not isinstance(q, str) or not q.strip() or not a:
            raise FamilyRefused("adapt_question", f"member {i}: empty question or answer")
        members.append((data, q.strip(), a))
    note = ""
    if not same_answer(answer, members[0][2]):
        differs = f"generate_answer on the base reconstruction gives {members[0][2]!r}, the source answer is {answer!r}"
        if ctx.protocol.answer_gate:
            raise FamilyRefused("generate_answer", differs)
        note = f"{differs} (kept: the {ctx.protocol.name} protocol has no answer gate)"
    variants = []
    for s, (data, q, a), shot in zip(seeds, members[1:], renders, strict=True):
        _value(shot, "render", f"make_figure(seed {s})")
        if not shot.png:
            raise FamilyRefused("render", f"make_figure wrote no PNG for seed {s}")
        variants.append(Variant(s, data, q, a, shot.png))
    base_member = Variant(-1, base, members[0][1], members[0][2], refined.render)
    return Family(base_member, tuple(variants), modules, note)
