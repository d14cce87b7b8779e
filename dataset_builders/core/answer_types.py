"""The closed vocabulary of the ``answer_type`` column and how each type is scored.

Every row of every release types its gold answer with one of :data:`ANSWER_TYPES`;
``programs.format_answer`` writes the canonical gold string per type and the evaluation face's
matchers (``eval_tasks/scoring/matchers.py``, one per type) score predictions by the rule stated here.
Dataset cards quote :data:`SCORING_RULES`, so the builders never import the scorer; a test
holds each matcher's docstring to its line here.
"""

from __future__ import annotations

__all__ = ["ANSWER_TYPES", "SCORING_RULES"]

SCORING_RULES: dict[str, str] = {
    "number": "Within the row's tolerance (half a tick step, exact when printed), default ±5% relative; scaled or bare values may match.",
    "integer": 'Exact integer equality ("12" == "12.0" == "twelve", "977,633" == "977633").',
    "count": 'Exact integer equality ("12" == "12.0" == "twelve", "977,633" == "977633").',
    "year": "Last 4-digit year (1000-2999); exact string equality, never tolerant.",
    "label": "Exact equality of label_key (case/space/punctuation-insensitive, aliases, inflections).",
    "list": "Score = recall of gold items (order-free); correct = prediction set equals gold set.",
    "bool": 'yes/true/y vs no/false/n as whole words, negation-aware ("not true" is no); both is unparsable.',
    "bbox": "Score = IoU (continuous); correct iff IoU >= 0.5.",
    "choice": 'Letters A-H ("(A)", "Option A", "A.") -> "A"; accept/reject words -> "accept"/"reject".',
    "abstain": 'Correct iff the prediction is in the abstention family (the gold is "I don\'t know").',
    "text": "Score = RapidFuzz ``fuzz.ratio`` of norm_text forms / 100; correct iff >= 0.5.",
}
"""One line per answer type: how a prediction is matched against the gold."""

ANSWER_TYPES: tuple[str, ...] = tuple(SCORING_RULES)
