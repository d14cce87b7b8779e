"""Phrasings of the out-of-template complex-reasoning templates (``CR-OOD-*``, ``S-CR-OOD-*``).

The probes and the in-template CR sets ask in one register: a direct, compact question
("What is the total of all the values shown in the chart?", "How many more red objects are
there than blue squares?"). A model fine-tuned on the probes learns that register along with
the skills, so a transfer set asked in it measures both at once. These phrasings are written
apart from the templates, in another register: a spoken, step-by-step instruction addressed
to the reader ("Picture...", "Start with...", "tell me..."), the way a person would pose the
task out loud. They use the view's slots (``{nouns}``, ``{bigger}``, ``{attr_word}``...) plus
this bank's own per-kind words (:data:`OOD_WORDS`).

They are held to one mechanical rule, checked by the build (:mod:`.out_of_template`): no word
4-gram shared with any trained template's phrasing, after the normalisation of
:mod:`.phrase_overlap`. Every template in this bank is registered by one file under
``templates/`` that takes its phrasings from :data:`OOD_PHRASINGS` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["OOD_PHRASINGS", "OOD_WORDS"]

OOD_WORDS: Mapping[str, Mapping[str, str]] = {
    "bar": {"route": "left to right, one after another"},
    "hbar": {"route": "top to bottom, one after another"},
    "pie": {"route": "round the pie clockwise, starting at the top"},
}
"""Slot words of this bank per chart kind (the geometry words' ``{along}`` is trained wording:
"from left to right" is itself a 4-gram of P-TREND-PATTERN)."""

OOD_PHRASINGS: Mapping[str, tuple[str, ...]] = {
    "CR-OOD-MEDIAN-LABEL": (
        ("Picture the {nouns} lined up from biggest to smallest. Which category lands exactly in "
         "the middle of that line-up?"),
        ("Sort the categories by size in your head; tell me the one whose {noun} ends up dead "
         "centre, with as many bigger ones as smaller ones."),
    ),
    "CR-OOD-HALF-COVER": (
        ("Start with the biggest category and keep adding the next biggest one. After how many "
         "categories does your running sum first get past half of everything shown?"),
        ("Taking categories greedily from the largest downwards, how few of them do you need "
         "before together they cover more than half the whole?"),
    ),
    "CR-OOD-RANGE-OVER-MEAN": (
        ("Work out the spread, meaning the biggest value minus the smallest one, then tell me "
         "that spread as a multiple of the mean value."),
        ("Take the gap between the top and bottom values and divide it by the mean value. What "
         "number comes out?"),
    ),
    "CR-OOD-ADJACENT-RISES": (
        ("Walk along the {nouns} {route}. Every time one is {bigger} than its neighbour just "
         "before it, that is a step up. How many steps up do you take?"),
        ("Moving {route}, tally each spot where a {noun} beats the previous one in {size}. "
         "What does your tally come to?"),
    ),
    "CR-OOD-SECOND-MINUS-MEDIAN": (
        ("Find the runner-up value, the second biggest one, and the median of everything shown; "
         "tell me how far the runner-up sits above the median."),
        "Take the runner-up value and knock the median off it. What is left over?",
    ),
    "S-CR-OOD-RUNNER-UP": (
        ("Rank the {attr_word}s by how many objects carry each one. Which {attr_word} comes in "
         "second place?"),
        ("Leaving aside the front-runner, tell me which {attr_word} is carried by the most "
         "objects after it."),
    ),
    "S-CR-OOD-COUNT-SPREAD": (
        ("Sort the objects into groups by {attr_word}. The fullest group beats the emptiest "
         "group by what margin?"),
        ("Tally up the objects for each {attr_word} you can see, then tell me the gap between "
         "the biggest tally and the smallest tally."),
    ),
    "S-CR-OOD-LONE-VALUES": (
        ("Some objects are one of a kind in {attr_word}: nothing else in the picture matches "
         "them. Tally those loners for me."),
        ("Look for objects whose {attr_word} no other object shares. How big is that crowd of "
         "loners?"),
    ),
}
"""Template id -> its phrasings (``str.format`` patterns)."""
