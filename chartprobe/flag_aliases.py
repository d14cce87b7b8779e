"""Old flag spellings kept for one release: they still work and print one deprecation line.

Issue 41 gave each concept one name across commands (``--releases DIR`` for a folder of releases,
``--predictions`` for saved model outputs, ``--model`` only for what lm-eval or TRL call a model);
the spellings they replace map here onto the new flag's ``dest``. CHANGELOG.md lists the mapping.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_deprecated_alias"]


class _Deprecated(argparse.Action):
    """Store like the new flag, after one ``chartprobe: warning:`` line naming it."""

    def __init__(self, option_strings, dest, new: str = "", **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"chartprobe: warning: {option_string} is deprecated and will be removed in the next release; "
              f"use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_deprecated_alias(parser: argparse.ArgumentParser, old: str, new: str, dest: str, **kwargs: Any) -> None:
    """Accept ``old`` as a hidden, warned spelling of ``new`` (same ``dest``; ``kwargs`` as the new flag's)."""
    parser.add_argument(old, dest=dest, action=_Deprecated, new=new, default=argparse.SUPPRESS,
                        help=argparse.SUPPRESS, **kwargs)
