"""Is a held-out question a composition of trained templates? (word break over step sequences)

Each template's op has primitive step sequences (:mod:`.steps`). Let ``T`` map every step
sequence of a *trained* template (not held out, same domain; every variant of its op) to the
trained templates that have it. **The rule**: a sequence ``s`` is a *composition of trained
templates* exactly when it is a concatenation ``t1 + t2 + ... + tk`` (``k >= 1``) of
sequences in ``T``. That covers

- ``k = 1``: ``s`` equals a trained template's sequence (S-CR-COUNT-DIFF runs the same op as
  S-R-COUNT-DIFF);
- ``k >= 2``: ``s`` splits into contiguous segments each equal to some trained template's whole
  sequence (CR-SUM-ABOVE-AVG = ``mean, filter_above`` of R-RANK-ABOVE-AVG + ``sum`` of
  R-ARITH-TOTAL);
- in particular a trained sequence with one step appended or prepended when that step is itself
  a trained template's whole sequence (``sum``, ``mean``, ``count``, ``lookup_value``...).

A step that no trained segment covers — a primitive no trained template uses, or a trained
step in an order no concatenation yields — makes ``s`` *out of template*. A template is a
composition when any variant of its op is. Segments are exact: a trained template's sequence
with its last step dropped is *not* a segment, so only whole trained skills compose.

:func:`decompose` returns the split with the fewest segments (ties: the alphabetically first
template names), so the refusal names a shortest chain of trained templates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .steps import Steps, variants_of

__all__ = ["Composition", "decompose", "template_composition", "template_sequences", "trained_sequences"]


@dataclass(frozen=True)
class Composition:
    """How a step sequence splits into trained templates' whole sequences."""

    steps: Steps
    segments: tuple[tuple[Steps, tuple[str, ...]], ...]
    """Each segment and the trained templates whose sequence it is (sorted)."""

    def templates(self) -> str:
        """``R-RANK-ABOVE-AVG + R-ARITH-TOTAL`` (a segment several templates share: ``A/B``)."""
        return " + ".join("/".join(names) for _, names in self.segments)

    def describe(self) -> str:
        """``[mean > filter_above] + [sum]``: the steps, one bracket per segment."""
        return " + ".join(f"[{' > '.join(seg)}]" for seg, _ in self.segments)


def template_sequences(template: Any) -> tuple[Steps, ...]:
    """Every step sequence ``template``'s op can have."""
    return variants_of(template.op)


def trained_sequences(templates: Iterable[Any]) -> dict[Steps, tuple[str, ...]]:
    """Step sequence -> names of the ``templates`` that have it (every variant of each op)."""
    out: dict[Steps, set[str]] = {}
    for t in templates:
        for seq in template_sequences(t):
            out.setdefault(seq, set()).add(t.name)
    return {seq: tuple(sorted(names)) for seq, names in out.items()}


def decompose(steps: Steps, trained: Mapping[Steps, tuple[str, ...]]) -> Composition | None:
    """The fewest-segment split of ``steps`` into sequences of ``trained``; None if there is none."""
    steps = tuple(steps)
    # best[i]: the best split of steps[:i] as (segment count, names key, segments)
    best: list[tuple[int, tuple[str, ...], tuple] | None] = [None] * (len(steps) + 1)
    best[0] = (0, (), ())
    for end in range(1, len(steps) + 1):
        for start in range(end):
            seg, prev = steps[start:end], best[start]
            if prev is None or seg not in trained:
                continue
            names = trained[seg]
            cand = (prev[0] + 1, (*prev[1], names[0]), (*prev[2], (seg, names)))
            if best[end] is None or cand[:2] < best[end][:2]:
                best[end] = cand
    found = best[len(steps)]
    return None if found is None or not steps else Composition(steps, found[2])


def template_composition(template: Any, trained: Mapping[Steps, tuple[str, ...]]) -> Composition | None:
    """The first variant of ``template``'s op that is a composition of ``trained`` (None: none is)."""
    for seq in template_sequences(template):
        found = decompose(seq, trained)
        if found is not None:
            return found
    return None
