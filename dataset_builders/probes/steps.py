"""Primitive steps: what each probe program op makes a reader do, in order.

Every program op a probe template runs (``templates/_chart_ops.py``, ``_scene_ops.py``,
``_ood_chart_ops.py``, ``_ood_scene_ops.py``) is decomposed here into a sequence of steps from
the closed :data:`VOCABULARY`. The sequences are what :mod:`.compose` compares: a held-out
complex-reasoning (CR) question whose sequence can be cut into trained templates' sequences is
a composition of trained skills, not a transfer test.

Conventions (they decide what counts as a composition, so they are fixed here once):

- a step is a computation whose result a later step could consume: a value (``mean``), a set
  of elements (``filter_above``), one element (``argmax``) or an answer (``compare``);
- a *set* or *ranking* of elements is consumed as such (summed, counted, listed): writing its
  members' names in a list answer is the answer's form, not a step. Naming *one* picked mark is
  the grounding step ``lookup_label``; reading a named category's value is ``lookup_value``;
- the steps of an op follow the computation, not the question's wording; an op whose steps
  depend on its arguments (``largest``, an empty filter) registers one sequence per case.

Rules are registered with :func:`steps` (a fixed sequence) or :func:`steps_by_args` (a
decorator choosing among declared variants from the program's arguments); a step outside the
vocabulary, or an op registered twice, raises at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.programs import Program

__all__ = ["STEP_RULES", "VOCABULARY", "StepRule", "Steps", "steps", "steps_by_args", "steps_of",
           "variants_of"]

Steps = tuple[str, ...]

VOCABULARY: Mapping[str, str] = {
    # reading the chart or scene
    "count": "how many elements a set holds",
    "colour": "read the colour of each mark",
    "distinct": "the distinct values among those read",
    "locate": "find the mark of a named category",
    "lookup_value": "read the value of a named category",
    "lookup_label": "name the category of one picked mark",
    "at_position": "pick the mark at a reading-order position",
    "position": "the reading-order position of a picked mark",
    "bbox": "the bounding box of a picked element",
    # aggregates and arithmetic
    "sum": "add up the values of a set",
    "mean": "the arithmetic mean of the values",
    "median": "the middle value of the sorted values",
    "max": "the largest value",
    "min": "the smallest value",
    "argmax": "pick the element with the largest value",
    "argmin": "pick the element with the smallest value",
    "subtract": "the difference of two quantities",
    "divide": "the quotient of two quantities",
    "percent": "one quantity as a percentage of another",
    "scale": "multiply a quantity by a constant (half, twice)",
    "compare": "whether one quantity is greater than another",
    "equal": "whether two quantities or attributes are equal",
    # selections and rankings
    "filter_above": "keep the elements above a threshold",
    "filter_equal": "keep the elements equal to a given value",
    "exclude": "drop a picked element from the set",
    "nearest": "pick the element closest to a value",
    "sort_desc": "rank the elements from largest to smallest",
    "top_k": "keep the first k elements of a ranking",
    "bottom_k": "keep the last k elements of a ranking",
    "at_rank": "pick the element at a given rank of a ranking",
    "rank": "the rank of a picked element in a ranking",
    "pairs": "form every pair of elements with its combined value",
    "cumsum": "running totals down a ranking",
    "first_exceeding": "how many running totals it takes to pass a threshold",
    "adjacent_diffs": "differences between reading-order neighbours",
    "classify_trend": "name the sign pattern of the differences",
    # scenes
    "filter_attr": "keep the objects with given attribute values",
    "query_attr": "read an attribute of the objects",
    "resolve_ref": "pick the one object a description fits",
    "relate": "the objects in a spatial relation to a picked object",
    "extreme_spatial": "pick the object furthest in a direction",
    "majority": "the strictly most common value of an attribute",
    "histogram": "how many objects carry each value of an attribute",
}
"""The closed step vocabulary (step -> meaning)."""


@dataclass(frozen=True)
class StepRule:
    """The decomposition of one program op."""

    op: str
    variants: tuple[Steps, ...]
    """Every sequence the op can have (one unless it depends on the arguments)."""
    pick: Callable[[Mapping[str, Any]], Steps]
    """The sequence of one program, from its arguments."""


STEP_RULES: dict[str, StepRule] = {}


def _register(rule: StepRule) -> None:
    if rule.op in STEP_RULES:
        raise ValueError(f"steps of program op {rule.op!r} registered twice")
    unknown = sorted({s for seq in rule.variants for s in seq} - set(VOCABULARY))
    if unknown or not all(rule.variants):
        raise ValueError(f"steps of {rule.op!r}: unknown or missing steps {unknown}")
    STEP_RULES[rule.op] = rule


def steps(op: str, *sequence: str) -> None:
    """Register the fixed step sequence of ``op``."""
    _register(StepRule(op, (tuple(sequence),), lambda args: tuple(sequence)))


def steps_by_args(op: str, *variants: Steps) -> Callable[[Callable[..., Steps]], Callable[..., Steps]]:
    """Register ``fn(args) -> Steps`` choosing among ``variants`` from a program's arguments."""

    def decorator(fn: Callable[..., Steps]) -> Callable[..., Steps]:
        _register(StepRule(op, tuple(variants), fn))
        return fn

    return decorator


def variants_of(op: str) -> tuple[Steps, ...]:
    """Every step sequence ``op`` can have (KeyError naming it if it has no rule)."""
    try:
        return STEP_RULES[op].variants
    except KeyError:
        raise KeyError(f"program op {op!r} has no primitive steps (probes/steps.py)") from None


def steps_of(program: Program) -> Steps:
    """The step sequence of one recorded program."""
    rule = STEP_RULES.get(program.op)
    if rule is None:
        raise KeyError(f"program op {program.op!r} has no primitive steps (probes/steps.py)")
    seq = tuple(rule.pick(program.args))
    if seq not in rule.variants:  # a rule must stay inside what it declared
        raise ValueError(f"steps of {program.op!r} picked {seq}, not one of its declared variants")
    return seq


# -- chart ops: perception ------------------------------------------------------------------------

steps("count_marks", "count")
steps("count_above_mean_visual", "mean", "filter_above", "count")
steps("max_exceeds_factor_of_min", "max", "min", "scale", "compare")
steps("trend", "adjacent_diffs", "classify_trend")
steps("compare_positions", "at_position", "at_position", "compare")
steps("count_distinct_colors", "colour", "distinct", "count")


def _extreme(args: Mapping[str, Any]) -> str:
    return "argmax" if args.get("largest", True) else "argmin"


@steps_by_args("extreme_position", ("argmax", "position"), ("argmin", "position"))
def _extreme_position(args: Mapping[str, Any]) -> Steps:
    return (_extreme(args), "position")


# -- chart ops: grounding -------------------------------------------------------------------------

steps("label_at_position", "at_position", "lookup_label")
steps("value_of", "lookup_value")
steps("position_of", "locate", "position")
steps("bbox_of", "locate", "bbox")
steps("color_of", "locate", "colour")


@steps_by_args("extreme_label", ("argmax", "lookup_label"), ("argmin", "lookup_label"))
def _extreme_label(args: Mapping[str, Any]) -> Steps:
    return (_extreme(args), "lookup_label")


# -- chart ops: simple reasoning ------------------------------------------------------------------

steps("top_k_labels", "sort_desc", "top_k")
steps("total", "sum")
steps("mean", "mean")
steps("abs_difference", "lookup_value", "lookup_value", "subtract")
steps("max_minus_mean", "max", "mean", "subtract")
steps("labels_above_mean", "mean", "filter_above")
steps("percent_of_total", "lookup_value", "sum", "percent")
steps("rank_of", "locate", "sort_desc", "rank")
steps("ratio", "lookup_value", "lookup_value", "divide")

# -- chart ops: held-out complex reasoning (the probes' phrasing) ---------------------------------

steps("max_exceeds_mean_of_others", "max", "exclude", "mean", "subtract")
steps("unique_pair_over_half", "sum", "scale", "pairs", "filter_above")
steps("sum_above_mean", "mean", "filter_above", "sum")
steps("top2_minus_bottom2", "sort_desc", "top_k", "sum", "bottom_k", "sum", "subtract")
steps("label_closest_to_mean", "mean", "nearest", "lookup_label")
steps("count_at_least_fraction_of_max", "max", "scale", "filter_above", "count")
steps("gap_second_to_smallest_share", "sort_desc", "at_rank", "min", "subtract", "sum", "percent")

# -- chart ops: out-of-template complex reasoning (templates/_ood_chart_ops.py) -------------------

steps("median_label", "sort_desc", "median", "lookup_label")
steps("count_largest_to_pass_half", "sum", "scale", "sort_desc", "cumsum", "first_exceeding")
steps("range_over_mean", "max", "min", "subtract", "mean", "divide")
steps("count_adjacent_increases", "adjacent_diffs", "filter_above", "count")
steps("second_largest_minus_median", "sort_desc", "at_rank", "median", "subtract")

# -- scene ops --------------------------------------------------------------------------------


@steps_by_args("scene_count", ("count",), ("filter_attr", "count"))
def _scene_count(args: Mapping[str, Any]) -> Steps:
    return ("filter_attr", "count") if args.get("where") else ("count",)  # {} counts every object


steps("scene_count_distinct", "query_attr", "distinct", "count")
steps("scene_extreme_attr", "extreme_spatial", "query_attr")
steps("scene_bbox", "resolve_ref", "bbox")
steps("scene_query", "resolve_ref", "query_attr")
steps("scene_relate_attr", "resolve_ref", "relate", "query_attr")
steps("scene_more", "filter_attr", "count", "filter_attr", "count", "compare")
steps("scene_majority", "majority")
steps("scene_same", "resolve_ref", "query_attr", "resolve_ref", "query_attr", "equal")
steps("scene_count_diff", "filter_attr", "count", "filter_attr", "count", "subtract")
steps("scene_equal_counts", "filter_attr", "count", "filter_attr", "count", "equal")
steps("scene_majority_within", "majority", "filter_attr", "majority")
steps("scene_count_same_as", "resolve_ref", "query_attr", "filter_attr", "exclude", "count")
steps("scene_count_related", "resolve_ref", "relate", "filter_attr", "count")
steps("scene_second_most_common", "query_attr", "histogram", "sort_desc", "at_rank")
steps("scene_count_spread", "query_attr", "histogram", "max", "min", "subtract")
steps("scene_count_singletons", "query_attr", "histogram", "filter_equal", "count")
