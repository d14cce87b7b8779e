"""Small HTML builders for the views: tables, image cards, correct/wrong marks, message boxes.

Every text that comes from a release or an uploaded file goes through :func:`esc`; only
:class:`Markup` (HTML built here) passes unescaped, so an uploaded prediction can never
inject markup into the page.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["CSS", "Markup", "badge", "card", "error_box", "esc", "grid", "info_box", "mark", "marks", "pre", "table"]

CSS = """
.cp-table {border-collapse: collapse; width: 100%; font-size: 0.9em}
.cp-table th, .cp-table td {border: 1px solid #d0d7de; padding: 4px 6px; text-align: left; vertical-align: top}
.cp-table th {background: #f3f4f6}
.cp-grid {display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 10px}
.cp-grid.cp-two {grid-template-columns: repeat(2, minmax(280px, 1fr))}
.cp-card {border: 2px solid #d0d7de; border-radius: 6px; padding: 6px; font-size: 0.85em; background: #fff}
.cp-card img {width: 100%; height: auto; display: block; margin-bottom: 4px}
.cp-card.cp-changed {border-color: #d97706; background: #fffbeb}
.cp-card.cp-base {border-color: #2563eb; background: #eff6ff}
.cp-card h4 {margin: 0 0 4px 0; font-size: 1em}
.cp-badge {display: inline-block; padding: 0 6px; border-radius: 8px; background: #e5e7eb; margin-right: 4px}
.cp-badge.cp-changed {background: #fde68a}
.cp-mark {display: inline-block; padding: 0 6px; border-radius: 8px; margin: 1px 4px 1px 0; white-space: nowrap}
.cp-ok {background: #bbf7d0; color: #14532d}
.cp-bad {background: #fecaca; color: #7f1d1d}
.cp-part {background: #fde68a; color: #78350f}
.cp-none {background: #e5e7eb; color: #374151}
.cp-error {border: 2px solid #dc2626; background: #fef2f2; color: #7f1d1d; padding: 8px 12px; border-radius: 6px}
.cp-info {border: 1px solid #93c5fd; background: #eff6ff; color: #1e3a8a; padding: 8px 12px; border-radius: 6px}
.cp-pre {white-space: pre-wrap; font-family: monospace; font-size: 0.8em; background: #f9fafb; padding: 6px}
"""
"""Stylesheet passed to ``launch(css=...)``."""


class Markup(str):
    """HTML that is already safe (built by this module)."""


def esc(value: Any) -> Markup:
    """``value`` as escaped HTML text (Markup passes through)."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape("" if value is None else str(value)))


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], css_class: str = "cp-table") -> Markup:
    """An HTML table; plain cells are escaped, Markup cells are inserted as they are."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return Markup(f'<table class="{css_class}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def mark(model: str, score: float | None, answer: str, short: bool = False) -> Markup:
    """A coloured correct / wrong / partial badge with the model's answer.

    ``score`` is the item accuracy in [0, 1] (1 correct, 0 wrong, between: partial credit
    such as list recall); None means the model has no prediction for this row.
    """
    if score is None:
        cls, sym = "cp-none", "–"
    elif score >= 1.0 - 1e-9:
        cls, sym = "cp-ok", "✓"
    elif score <= 1e-9:
        cls, sym = "cp-bad", "✗"
    else:
        cls, sym = "cp-part", f"◐ {score:.2f}"
    text = answer if len(answer) <= 80 else answer[:77] + "…"
    who = "" if short else f"{model}: "
    return Markup(f'<span class="cp-mark {cls}" title="{esc(model)}">{sym} {esc(who)}{esc(text)}</span>')


def marks(per_model: Mapping[str, tuple[float | None, str]], short: bool = False) -> Markup:
    """Badges of every model for one item (empty when no predictions are loaded)."""
    return Markup("".join(mark(m, s, a, short) for m, (s, a) in per_model.items()))


def card(image_uri: str | None, title: str, lines: Iterable[Any], css_class: str = "") -> Markup:
    """An image card: thumbnail, bold title, then one line per entry."""
    img = f'<img src="{esc(image_uri)}" alt="{esc(title)}">' if image_uri else ""
    body = "".join(f"<div>{esc(line)}</div>" for line in lines)
    return Markup(f'<div class="cp-card {css_class}">{img}<h4>{esc(title)}</h4>{body}</div>')


def grid(cards: Iterable[Markup], two: bool = False) -> Markup:
    """Cards in a responsive grid (``two``: exactly two columns, for side-by-side pairs)."""
    return Markup(f'<div class="cp-grid{" cp-two" if two else ""}">{"".join(cards)}</div>')


def badge(text: str, css_class: str = "") -> Markup:
    """A small grey (or ``css_class``) label."""
    return Markup(f'<span class="cp-badge {css_class}">{esc(text)}</span>')


def error_box(message: str) -> Markup:
    """A red box with a readable error message."""
    return Markup(f'<div class="cp-error"><b>Error:</b> {esc(message)}</div>')


def info_box(message: str) -> Markup:
    """A blue box for a neutral notice (nothing matches the filters, release absent...)."""
    return Markup(f'<div class="cp-info">{esc(message)}</div>')


def pre(text: str) -> Markup:
    """Preformatted text (stored evidence JSON, specs)."""
    return Markup(f'<div class="cp-pre">{esc(text)}</div>')
