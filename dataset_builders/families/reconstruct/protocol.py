"""How a ``chartprobe reconstruct`` run makes its families: the paper's released pipeline, or ours.

``paper`` (the default) follows github compling-wat/Chartographer @ 1f02025c stage by stage:

- an assumptions stage (``extract_generation_assumptions.py``) after the verdict: the chart code
  and data in, implicit assumptions, background knowledge and generation guidance out, handed to
  ``generate_data`` as required context (``generate_data_modules.py``);
- the code-writing stages (assumptions, ``generate_data``, ``adapt_question``,
  ``generate_answer``) are text only: no image is sent with them;
- ``adapt_question`` and ``generate_answer`` see the chart code too, and ``generate_answer`` the
  question-adapter module; it is never shown the source answer (``generate_answer_modules.py``);
- a variant's data keeps every list's length (the ``generate_data`` prompt: "keys, nesting, list
  lengths, and value types");
- the released import lists: chart code may use seaborn, cartopy, scipy and scikit-learn besides
  numpy, pandas and matplotlib (``mpl_toolkits`` included); ``generate_data`` numpy, pandas,
  scipy, scikit-learn and statsmodels. The released answer and adapter prompts name no list; they
  get the data libraries. Either way only our standard-library subset passes (no ``os``,
  ``subprocess``, files or network: the released scripts ran the code unsandboxed, we do not);
- no gate on the answer: the modules must run on the reconstructed data and return a non-empty
  answer (A.5); when ``generate_answer`` on the base reconstruction differs from the source
  answer, the family is kept and the difference is recorded in its outcome.

``chartprobe`` is the stricter protocol this project ran first: the source image goes with every
code stage, ``generate_answer`` is shown the source answer and the family is refused when the base
answer differs from it (numbers within 0.1%, text case-folded), list lengths may change, and
imports are numpy, pandas and matplotlib only. Its prompts are unchanged, so caches made before
protocols existed are still hits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .sandbox.check import ALLOWED_IMPORTS

__all__ = ["DEFAULT_PROTOCOL", "PROTOCOLS", "Protocol", "protocol"]

_LIBRARIES = frozenset({"numpy", "pandas", "matplotlib"})
STDLIB = ALLOWED_IMPORTS - _LIBRARIES
"""The standard modules every protocol allows (numbers, dates, text; nothing that reaches the system)."""
_DATA = frozenset({"numpy", "pandas", "scipy", "sklearn", "statsmodels"})

PAPER_IMPORTS: dict[str, frozenset[str]] = {
    "make_figure": STDLIB | _LIBRARIES | {"mpl_toolkits", "seaborn", "cartopy", "scipy", "sklearn"},
    "generate_data": STDLIB | _DATA,
    "adapt_question": STDLIB | _DATA,
    "generate_answer": STDLIB | _DATA,
}
"""The released prompts' ``ALLOWED LIBRARIES`` per function (``chart_to_code.py``, ``generate_data_modules.py``)."""


@dataclass(frozen=True)
class Protocol:
    """One way of making families from an accepted reconstruction (see the module docstring)."""

    name: str
    summary: str
    assumptions: bool
    """Run the assumptions stage and hand its notes to ``generate_data``."""
    code_images: bool
    """Send the source image with the code-writing stages."""
    code_context: bool
    """``adapt_question`` and ``generate_answer`` see the chart code (and the adapter module)."""
    answer_shown: bool
    """``generate_answer`` is shown the source answer."""
    fixed_lengths: bool
    """A variant's lists keep the template's lengths."""
    answer_gate: bool
    """Refuse a family whose base answer differs from the source answer."""
    imports: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Allowed imports per model-written function; a function not named gets :data:`ALLOWED_IMPORTS`."""

    def allowed(self, function: str) -> frozenset[str]:
        """The modules code defining ``function`` may import under this protocol."""
        return self.imports.get(function, ALLOWED_IMPORTS)

    def prompts(self) -> dict[str, str]:
        """Every stage's prompt under this protocol (recorded in the manifest with its SHA-256)."""
        from .prompts import protocol_prompts

        return protocol_prompts(self)

    def settings(self) -> dict[str, Any]:
        """What the manifest and the card record of the protocol."""
        return {"name": self.name, "assumptions": self.assumptions, "code_images": self.code_images,
                "code_context": self.code_context, "answer_shown": self.answer_shown,
                "fixed_lengths": self.fixed_lengths, "answer_gate": self.answer_gate,
                "imports": {k: sorted(v) for k, v in sorted(self.imports.items())}}


PROTOCOLS: dict[str, Protocol] = {}


def _register(p: Protocol) -> Protocol:
    PROTOCOLS[p.name] = p
    return p


_register(Protocol("paper", "the paper's released pipeline (compling-wat/Chartographer @ 1f02025c)",
                   assumptions=True, code_images=False, code_context=True, answer_shown=False,
                   fixed_lengths=True, answer_gate=False, imports=PAPER_IMPORTS))
_register(Protocol("chartprobe", "chartprobe's stricter gates: source image on every code stage, the source "
                                 "answer shown and required of the base reconstruction, variable list lengths, "
                                 "numpy/pandas/matplotlib only",
                   assumptions=False, code_images=True, code_context=False, answer_shown=True,
                   fixed_lengths=False, answer_gate=True))

DEFAULT_PROTOCOL = "paper"


def protocol(name: str) -> Protocol:
    """The protocol called ``name`` (ValueError naming the known ones otherwise)."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise ValueError(f"unknown protocol {name!r} (known: {', '.join(PROTOCOLS)})") from None
