"""The one error type of the Space's file handling, and reading a JSON file into it.

Its own module so that the readers (``samples``, ``lmeval``) and ``predictions``, which uses
them, all import it from here and never each other in a circle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["PredictionsError", "read_json_file"]


class PredictionsError(ValueError):
    """A predictions file the Space cannot use; the message is shown in the page."""


def read_json_file(path: Path) -> Any:
    """A JSON file's content; anything unreadable is one PredictionsError naming the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise PredictionsError(f"{path.name}: not valid JSON ({exc})") from None
