"""Human review (A.3): the queue of needs-review items and the decisions the next run reads.

``review/queue.jsonl`` lists, one JSON per line, every item the model marked needs_review and no
person has decided yet: item id, question, source answer, the model's reason and diagnoses, and
the source image beside the final render (``review/images/<item>-source.png`` / ``-render.png``).
The Space's review tab (or any editor) appends decisions to ``review/decisions.jsonl``:
``{"item": ID, "decision": "approve"|"reject", "note": "...", "reviewer": "..."}``; the last line
for an item wins. The next ``chartprobe reconstruct`` run over the same work folder reads them:
approved items go on to counterfactual generation, rejected ones are recorded with the note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.atomic import atomic_write_files
from ...core.targets import refuse_foreign

__all__ = ["DECISIONS", "QUEUE", "Decision", "ReviewError", "read_decisions", "read_queue", "record_decision",
           "write_queue"]

QUEUE = "queue.jsonl"
DECISIONS = "decisions.jsonl"
CHOICES = ("approve", "reject")


class ReviewError(ValueError):
    """A malformed decisions file (one line: file, line, problem)."""


@dataclass(frozen=True)
class Decision:
    """A person's decision on one needs-review item."""

    item: str
    decision: str
    note: str = ""
    reviewer: str = ""


def read_decisions(folder: str | Path) -> dict[str, Decision]:
    """Every item's latest decision (empty when there is no decisions file)."""
    path = Path(folder) / DECISIONS
    if not path.is_file():
        return {}
    out: dict[str, Decision] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReviewError(f"{path}:{n}: invalid JSON ({exc.msg})") from None
        if not isinstance(raw, dict) or not isinstance(raw.get("item"), str) or raw.get("decision") not in CHOICES:
            raise ReviewError(f"{path}:{n}: expected {{\"item\": ID, \"decision\": \"approve\"|\"reject\", \"note\": ...}}")
        out[raw["item"]] = Decision(raw["item"], raw["decision"], str(raw.get("note", "")), str(raw.get("reviewer", "")))
    return out


def record_decision(folder: str | Path, item: str, decision: str, note: str = "", reviewer: str = "") -> Decision:
    """Append one decision (what the Space's approve / reject buttons call)."""
    if decision not in CHOICES:
        raise ReviewError(f"decision must be one of {', '.join(CHOICES)}, got {decision!r}")
    queued = {e["item"] for e in read_queue(folder)}
    if item not in queued:
        raise ReviewError(f"{item!r} is not in {Path(folder) / QUEUE}")
    found = Decision(item, decision, note.strip(), reviewer.strip())
    Path(folder).mkdir(parents=True, exist_ok=True)
    refuse_foreign(Path(folder) / DECISIONS)  # appended to: a FIFO would block, a link would redirect
    with open(Path(folder) / DECISIONS, "a", encoding="utf-8") as f:
        f.write(json.dumps(found.__dict__, ensure_ascii=False) + "\n")
    return found


def read_queue(folder: str | Path) -> list[dict[str, Any]]:
    """The queued items (empty when none were queued)."""
    path = Path(folder) / QUEUE
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_queue(folder: str | Path, entries: list[tuple[dict[str, Any], bytes, bytes]]) -> None:
    """Rewrite the queue: (entry, source PNG, render PNG) per item still waiting, in source order."""
    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    files: dict[Path, bytes | str] = {}
    lines = []
    for entry, source, render in entries:
        for name, data in (("source", source), ("render", render)):
            files[folder / "images" / f"{entry['item']}-{name}.png"] = data
        lines.append(json.dumps({**entry, "source_image": f"images/{entry['item']}-source.png",
                                 "render_image": f"images/{entry['item']}-render.png"}, ensure_ascii=False))
    files[folder / QUEUE] = "".join(line + "\n" for line in lines)  # last: the images it names are in place
    atomic_write_files(files)  # never through a link or over a FIFO planted in the work folder
