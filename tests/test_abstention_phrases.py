"""The refusal phrase bank of ``answer_parsing.is_abstention`` (issue #22): refusals phrased in many
ways are abstentions; answers that mention the legend or say "not" are not."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.scoring.parsing import _ABSTAIN_PHRASES, is_abstention
from chartprobe.eval_tasks.scoring.typed import ABSTAIN_ANSWER, score_answer

REFUSALS = [
    "I don't know",
    "I don't know.",
    "I do not know the answer.",
    "The legend does not show this entry.",
    "This series is not shown in the legend",
    "There is no such entry in the legend",
    "The chart does not contain that information",
    "It's not possible to determine from the chart",
    "I'm not able to tell",
    "cannot be determined",
    "None — the legend has no such item",
    "The legend doesn't include the target series.",
    "The legend does not list an entry for Gamma.",
    "Gamma isn't in the legend.",
    "That label does not appear in the legend.",
    "The entry for Gamma is hidden.",
    "The legend entry is missing, so I can't tell.",
    "Not enough information to answer.",
    "There is insufficient data in the chart.",
    "The chart lacks the necessary information.",
    "Information not available.",
    "There is no information about Gamma in the chart.",
    "Unknown",
    "N/A",
    "Not shown",
    "Not specified.",
    "The question is unanswerable from this chart.",
    "It is unclear which line is Gamma.",
    "There's no way to tell which series that is.",
    "I cannot determine which wedge is Delta.",
    "I am unable to identify the series.",
    "Impossible to say without the full legend.",
    "The value cannot be read from the chart.",
    "Without the legend entry it cannot be inferred.",
    "The legend doesn't let us determine the value.",
    "I would need the full legend to answer.",
    "The target's entry is masked, therefore it cannot be determined.",
    "Gamma is not listed in the legend, so I won't guess.",
    "The answer is: I don't know",
    "Sorry, I can't answer that.",
    "I'm not sure.",
    "The key has no entry for that series.",
]

ANSWERS = [
    "The legend shows Revenue in blue",
    "Not 12 but 15",
    "No",
    "not true",
    "The series not in red is Cost",
    "42",
    "Beta (the legend lists it second)",
    "Yes",
    "None",
    "Cost",
    "Revenue, Cost",
    '["red", "circle"]',
    "2019",
    "-3.5",
    "The legend lists three entries.",
    "The legend is in the upper right corner.",
    "Alpha is not the largest; Beta is.",
    "It is not Alpha, it is Beta.",
    "The legend does not list Delta first; it lists Alpha first.",
    "Gamma is not in the legend, so it must be Alpha.",
    "Cost is not listed in the legend, therefore the red line is Cost.",
    "The answer is not 5, it is 7.",
    "The chart does not show a decline; the value rises to 30.",
    "No, the lines do not cross.",
    "Beta is not shown on the chart as a bar but as a line.",
    "The blue series is Revenue, which is not the smallest.",
    "The legend entry for Beta is orange.",
    "Beta, which the legend places last",
    "The label is Gamma.",
    "Not red but blue",
    "It is not possible for Beta to exceed Alpha here; Alpha is larger.",
    "The dashed line is not Gamma; it is Delta.",
    "So the answer is 12.",
    "The key shows four entries: North, South, East and West.",
    "Delta is the series with no markers.",
]


def test_enough_phrasings_of_each_kind():
    assert len(set(REFUSALS)) >= 30 and len(set(ANSWERS)) >= 30


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_abstentions(text):
    assert is_abstention(text), text
    score = score_answer(text, ABSTAIN_ANSWER, "abstain")
    assert score.correct and score.abstained


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_are_not_abstentions(text):
    assert not is_abstention(text), text
    assert not score_answer(text, ABSTAIN_ANSWER, "abstain").correct


def test_every_phrase_of_the_bank_is_used():
    """Each named regex of the bank detects at least one of the refusals above."""
    import re

    from chartprobe.eval_tasks.scoring.parsing import norm_text

    unused = [name for name, pattern in _ABSTAIN_PHRASES
              if not any(re.search(pattern, norm_text(t)) for t in REFUSALS)]
    assert not unused, unused


def test_long_inputs_stay_fast():
    import time

    text = "the legend does not " * 2_000 + "not in the " * 2_000
    start = time.perf_counter()
    is_abstention(text)
    assert time.perf_counter() - start < 0.5
