"""Reading the model's replies: one JSON object per call, with the keys its stage promises.

Models wrap JSON in code fences or add a sentence around it; like the released pipeline
(``diagnose_chart_issues.py`` ``_extract_json``), a reply that is not JSON as a whole is read from
its first ``{`` to its last ``}``. Anything else is a :class:`ReplyError` naming the stage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["ASSUMPTION_KEYS", "Diagnosis", "Draft", "ReplyError", "assumptions_block", "parse_assumptions",
           "parse_code", "parse_diagnosis", "parse_draft", "parse_json", "parse_verdict"]

VERDICTS = ("accept", "reject", "needs_review")
SIGNIFICANT = ("medium", "high")
"""Severities that keep the A.3 loop going; ``low`` issues are reported but do not block."""


class ReplyError(ValueError):
    """A reply that does not hold what its stage asks for."""


def parse_json(text: str, stage: str) -> dict[str, Any]:
    """The JSON object in a reply (whole, or from its first ``{`` to its last ``}``)."""
    body = (text or "").strip()
    for candidate in (body, body[body.find("{"): body.rfind("}") + 1] if "{" in body else ""):
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    raise ReplyError(f"stage {stage}: the reply is not a JSON object ({body[:80]!r})")


@dataclass(frozen=True)
class Draft:
    """A reconstruction: semantic data and the code that draws it."""

    chart_data: dict[str, Any]
    chart_code: str


def parse_draft(text: str, stage: str) -> Draft:
    """``{"chart_data": {...}, "chart_code": "..."}`` (A.2; revisions too)."""
    obj = parse_json(text, stage)
    if not isinstance(obj.get("chart_data"), dict) or not obj["chart_data"]:
        raise ReplyError(f"stage {stage}: 'chart_data' must be a non-empty JSON object")
    if not isinstance(obj.get("chart_code"), str) or not obj["chart_code"].strip():
        raise ReplyError(f"stage {stage}: 'chart_code' must be a non-empty string")
    return Draft(obj["chart_data"], obj["chart_code"])


@dataclass(frozen=True)
class Diagnosis:
    """A render's fix-worthy issues; ``significant`` decides whether the loop goes on."""

    significant: bool
    issues: tuple[dict[str, Any], ...]
    text: str


def parse_diagnosis(text: str) -> Diagnosis:
    """The released schema ``{"issues": [...]}`` (significant: any medium or high issue, or one with no
    severity) or ``{"significant_issues": bool, "diagnosis": ..., "plan": ...}``."""
    obj = parse_json(text, "diagnose")
    if isinstance(obj.get("issues"), list):
        issues = tuple(i if isinstance(i, dict) else {"summary": str(i)} for i in obj["issues"])
        significant = any(str(i.get("severity", "high")).lower() in SIGNIFICANT for i in issues)
        summary = "; ".join(str(i.get("summary", "")) for i in issues)
        return Diagnosis(significant, issues, summary)
    if isinstance(obj.get("significant_issues"), bool):
        text = " ".join(str(obj.get(k, "")) for k in ("diagnosis", "plan")).strip()
        return Diagnosis(obj["significant_issues"], ({"summary": text},) if text else (), text)
    raise ReplyError("stage diagnose: expected {'issues': [...]} or {'significant_issues': true|false, ...}")


def parse_verdict(text: str) -> tuple[str, str]:
    """(verdict, reason): accept / reject / needs_review (also ``needs review``, ``needs-review``)."""
    obj = parse_json(text, "verdict")
    verdict = str(obj.get("verdict", "")).strip().lower().replace(" ", "_").replace("-", "_")
    if verdict not in VERDICTS:
        raise ReplyError(f"stage verdict: 'verdict' must be one of {', '.join(VERDICTS)}, got {obj.get('verdict')!r}")
    return verdict, str(obj.get("reason", "")).strip()


def parse_code(text: str, stage: str) -> str:
    """``{"code": "..."}`` (A.4, A.5)."""
    obj = parse_json(text, stage)
    code = obj.get("code")
    if not isinstance(code, str) or not code.strip():
        raise ReplyError(f"stage {stage}: 'code' must be a non-empty string")
    return code


ASSUMPTION_KEYS = ("implicit_assumptions", "background_knowledge", "generation_guidance")


def parse_assumptions(text: str) -> dict[str, list[str]]:
    """The assumptions stage's three lists (the released ``_extract_json_object``: a missing or null
    key is an empty list, items are stripped strings, empty ones dropped; a non-list is an error)."""
    obj = parse_json(text, "assumptions")
    out = {}
    for key in ASSUMPTION_KEYS:
        value = obj.get(key) or []
        if not isinstance(value, list):
            raise ReplyError(f"stage assumptions: {key!r} must be a list")
        out[key] = [str(x).strip() for x in value if str(x).strip()]
    return out


def assumptions_block(notes: dict[str, list[str]]) -> str:
    """The notes as ``generate_data`` reads them: one ``- item`` line each under its key, ``- (none)``
    for an empty list (the released ``assumptions_prompt_block``)."""
    lines = ["Use all relevant items below as hard context when designing generate_data."]
    for key in ASSUMPTION_KEYS:
        lines += [f"{key}:", *(f"- {x}" for x in notes.get(key) or ["(none)"])]
    return "\n".join(lines)
