"""The papers' released prompts and message layouts, frozen, for the ``chartprobe_*_paper`` tasks.

A released prompt is a text file in ``tasks/prompts/paper/`` (copied byte for byte; its origin
and licence are in that folder's README) whose sha256 is recorded in :data:`RELEASED`, as the
released loader returns the text (ChartJudgeBench's drops the CPA file's final newline; a prompt
released as a Python string literal, Chartographer's answer-equivalence judge, is stored as the
string's value plus a final newline that is dropped again). A
layout (``*_layout.json``) lists a task's user turn as parts, in the released order:

- ``["prompt", name]``: a released prompt file; ``["text", s]``: a literal fragment;
- ``["field", column]``: the document's text column; ``["image", column]``: an image.

A layout's optional ``fill`` lists ``[placeholder, column]`` pairs replaced, in order, in its
released prompts by the document's columns, as the released code does with ``str.replace``
(Chartographer's QA prompt carries ``[QUESTION]``).

:func:`render` turns a layout into lm-eval's prompt string: text parts concatenated (the
released message lists them as separate parts, which chat templates that concatenate parts,
as Qwen2-VL's does, render to the same tokens) and each image as the model's placeholder.
With ``<image>`` placeholders and ``interleave=True`` in ``--model_args`` (``hf-multimodal``,
``chartprobe-chat-completions``) each image lands where the released code put it; without,
lm-eval puts the images first.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["LAYOUTS", "PAPER_DIR", "RELEASED", "Layout", "PaperPromptChangedError", "layout", "released_prompt",
           "render"]

PAPER_DIR = Path(__file__).resolve().parents[1] / "harness" / "tasks" / "prompts" / "paper"
RELEASED: dict[str, tuple[str, bool]] = {
    # name -> (sha256 from the released manifest.json, drop the file's final newline)
    "chartjudgebench_cpa_system_instruction":
        ("2302f7ce41f73904c573d006f0df9e747e5fb93f3dde858bc09e90d68a7cb17e", True),
    "chartjudgebench_chart_reproduction_system":
        ("edd6825266a513281e3a32063cc50e782a5b322956fae548db6a30dfbe3e3be8", False),
    "chartjudgebench_chart_editing_system":
        ("d8c6aee9ef4c33bd67c1d0c25ce4160174165834df53036cf4b8b8c4593348ed", False),
    # Chartographer has no manifest: sha256 of CHARTMUSEUM_PROMPTS["COMPARE_ANSWER"] (the string
    # value, no final newline) in src/config/task_prompts.py, computed when it was copied
    "chartographer_compare_answer":
        ("234e7c18d0f850c94c234fa35fdedf4c0c0f23f509364b2178c0137099a60455", True),
    # same file, CHARTMUSEUM_PROMPTS["QA"] (its value starts with a stray '"', kept: the released
    # models were asked with it), the families QA prompt of the released generate_predictions.py
    "chartographer_qa":
        ("0e4af9051f462a7cdeffe55c33663eaeebe63d1eb2ad69962b332a4582c462a6", True),
}
LAYOUTS: dict[str, str] = {
    # layout file -> sha256 of its bytes
    "chartjudgebench_layout": "e95d5e30adee135b471d2491db623a43c2333f2c9867b55a34f7fbfc8a5d90ae",
    "chartographer_layout": "a3160120fffb9b4b58125e95a133b609a9b28c1221520d213c66f4e68972068b",
}


class PaperPromptChangedError(RuntimeError):
    """A frozen released file does not match its recorded sha256."""


def _checked(path: Path, expected: str, text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if digest != expected:
        raise PaperPromptChangedError(f"{path.name} has sha256 {digest}, recorded {expected}: "
                                      "released prompts must stay byte-identical")
    return text


@functools.cache
def released_prompt(name: str) -> str:
    """The released prompt ``name``, as the released code uses it (checked against its sha256)."""
    if name not in RELEASED:
        raise KeyError(f"unknown released prompt {name!r} (known: {', '.join(sorted(RELEASED))})")
    sha, drop_newline = RELEASED[name]
    path = PAPER_DIR / f"{name}.txt"
    text = path.read_bytes().decode("utf-8")
    if drop_newline:
        if not text.endswith("\n"):
            raise PaperPromptChangedError(f"{path.name} lost the final newline the released loader drops")
        text = text[:-1]
    return _checked(path, sha, text)


@dataclass(frozen=True)
class Layout:
    """One task's released message: an optional system prompt (a released prompt name), user parts and
    the ``[placeholder]`` -> column replacements made in its released prompts."""

    system: str | None
    user: tuple[tuple[str, str], ...]
    fill: tuple[tuple[str, str], ...] = ()

    def images(self) -> list[str]:
        """The image columns, in the order the model sees them."""
        return [value for kind, value in self.user if kind == "image"]


@functools.cache
def _layouts(file: str) -> dict[str, Layout]:
    path = PAPER_DIR / f"{file}.json"
    text = _checked(path, LAYOUTS[file], path.read_bytes().decode("utf-8"))
    tasks = json.loads(text)["tasks"]
    return {name: Layout(t["system"], tuple((kind, value) for kind, value in t["user"]),
                         tuple((mark, column) for mark, column in t.get("fill", ()))) for name, t in tasks.items()}


def layout(file: str, task: str) -> Layout:
    """Task ``task``'s layout from released layout file ``file`` (``chartjudgebench_layout``,
    ``chartographer_layout``)."""
    layouts = _layouts(file)
    if task not in layouts:
        raise KeyError(f"{file}.json has no layout {task!r} (has: {', '.join(sorted(layouts))})")
    return layouts[task]


def _filled(name: str, lay: Layout, doc: Mapping[str, Any]) -> str:
    """Released prompt ``name`` with the layout's placeholders replaced in order (``str.replace``)."""
    text = released_prompt(name)
    for mark, column in lay.fill:
        text = text.replace(mark, str(doc[column]))
    return text


_PARTS = {  # part kind -> its text, from (value, doc, image_token, layout)
    "prompt": lambda value, doc, token, lay: _filled(value, lay, doc),
    "text": lambda value, doc, token, lay: value,
    "field": lambda value, doc, token, lay: str(doc[value]),
    "image": lambda value, doc, token, lay: token,
}


def render(lay: Layout, doc: Mapping[str, Any], image_token: str) -> dict[str, str]:
    """``{"system": ..., "prompt": ...}`` for ``doc``: the user turn with ``image_token`` per image."""
    unknown = sorted({kind for kind, _ in lay.user} - set(_PARTS))
    if unknown:  # a layout file is data we ship; an unknown kind is a bug in it, said loudly
        raise ValueError(f"unknown layout part kinds {unknown}")
    prompt = "".join(_PARTS[kind](value, doc, image_token, lay) for kind, value in lay.user)
    return {"system": released_prompt(lay.system) if lay.system else "", "prompt": prompt}
