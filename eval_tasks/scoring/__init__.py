"""Answer scoring: extract the final answer, normalise it by answer type, match it against the gold.

The bottom room of the evaluation side (it imports only ``dataset_builders.core``): the typed scorer
(:mod:`.typed`), its matchers and parsers, majority voting, the sample types every samples reader
shares, and the papers' frozen prompts."""

# The typed scorer's API where it was before the rooms (``from chartprobe.eval_tasks.scoring import
# score_answer`` keeps working): the one public surface users import from this package.
from .typed import (
    ABSTAIN_ANSWER,
    ABSTAIN_NORMALIZED,
    ANSWER_TYPES,
    Score,
    extract_answer,
    is_abstention,
    normalize,
    score_answer,
    score_doc,
    scoring_rule,
)

__all__ = ["ABSTAIN_ANSWER", "ABSTAIN_NORMALIZED", "ANSWER_TYPES", "Score", "extract_answer", "is_abstention",
           "normalize", "score_answer", "score_doc", "scoring_rule"]
