"""The dataset-card section of a release built by ``chartprobe reconstruct`` (instead of the paper's data).

It states where the originals come from and under which terms, how the families were made (model,
decoding, prompts and their hash, sandbox and its limits, rounds and variants), what each stage
cost in requests and tokens, and what happened to every source item (accepted, rejected with the
stage and reason, waiting for review). Everything comes from the manifest, so a cached re-run
writes the same card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["reconstruction_inputs"]


def _sample(source: dict[str, Any]) -> str:
    sample = source.get("sample")
    if not isinstance(sample, dict):
        return ""
    return f" (drawn at random: `--sample {sample.get('n')} --seed {sample.get('seed')}`)"


def _sent(model: dict[str, Any]) -> str:
    """How the requests went out, when the manifest records it (API, token-limit parameter, temperature, detail)."""
    ways = []
    for sent in model.get("sent") if isinstance(model.get("sent"), list) else []:
        if not isinstance(sent, dict):
            continue
        temperature = "no temperature" if sent.get("temperature") is None else f"temperature {sent['temperature']}"
        limit = f"`{sent['token_param']}`" if sent.get("token_param") else "no token limit"
        ways.append(f"{sent.get('api')} API, {limit}, {temperature}, image detail {sent.get('detail') or 'not sent'}")
    return f"; sent as: {'; '.join(ways)}" if ways else ""


def _protocol(p: Any) -> str:
    """The protocol line (manifests written before protocols existed ran what is now ``chartprobe``)."""
    if not isinstance(p, dict):
        return "- protocol: `chartprobe` (recorded before protocols were named)"
    said = {"paper": "the paper's released pipeline: an assumptions stage, text-only code stages, no source answer "
                     "shown to `generate_answer`, fixed list lengths, the released import lists, no answer gate",
            "chartprobe": "chartprobe's stricter gates: the source image on every code stage, the source answer "
                          "shown and required of the base reconstruction, numpy/pandas/matplotlib only"}
    return f"- protocol: `{p.get('name')}` ({said.get(p.get('name'), 'see the manifest')})"


def _usage_table(usage: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["| stage | requests | prompt tokens | completion tokens | cost (USD) |", "|---|---|---|---|---|"]
    total = Counter()
    for stage, u in usage.items():
        lines.append(f"| {stage} | {u['requests']} | {u['prompt_tokens']} | {u['completion_tokens']} | "
                     f"{u['cost_usd']:.4f} |")
        total.update({k: u[k] for k in ("requests", "prompt_tokens", "completion_tokens", "cost_usd")})
    lines.append(f"| **all** | {total['requests']} | {total['prompt_tokens']} | {total['completion_tokens']} | "
                 f"{total['cost_usd']:.4f} |")
    return lines


def _items_table(items: list[dict[str, Any]]) -> list[str]:
    lines = ["| item | chart | status | stage | rounds | reviewed | reason |", "|---|---|---|---|---|---|---|"]
    for it in items:
        reason = str(it.get("reason", "")).replace("|", "\\|").replace("\n", " ")[:160]
        lines.append(f"| `{it['item']}` | `{it['chart_id']}` | {it['status']} | {it['stage']} | {it['rounds']} | {it['reviewed'] or '—'} | "
                     f"{reason} |")
    return lines


def reconstruction_inputs(found: Any) -> str:
    """Markdown for a release whose released set has a reconstruction manifest."""
    m = found.manifest.data
    b, model, box = m["benchmark"], m["model"], m["sandbox"]
    counts = m["counts"]
    limits = ", ".join(f"{k} {v}" for k, v in box["limits"].items())
    weak = "" if box["isolates_files"] else (" **(weaker fallback: no file-system isolation; world-readable host "
                                             "files were visible to model-written code)**")
    lines = [
        "## Data source: reconstructed by `chartprobe reconstruct`", "",
        (f"**Reconstructed, not synthetic.** Each family's `original` is a chart of **{b['name']}** "
         f"({b['hub']}), byte for byte; its `reconstruction` and ten `variant`s were drawn by model-written code "
         "from data the model read off the original, and their answers computed by model-written QA logic "
         "executed on that data (Chartographer §3.1-3.3, A.2-A.5)."), "",
        f"- licence of the source: `{b['license']}` ({b['rights']}); per row in `data_source` (`;license=...`)",
        f"- source split `{m['source']['split']}`, {m['source']['rows']} rows read{_sample(m['source'])}",
        f"- model: `{model['name']}` ({model['backend']}), settings `{model['settings']}`{_sent(model)}",
        _protocol(m.get("protocol")),
        f"- prompts: sha256 `{m['prompts']['sha256']}` (full text in the export's manifest)",
        f"- sandbox: `{box['mechanism']}`{weak}; limits per job: {limits}",
        (f"- self-improvement: at most {m['stages']['max_rounds']} rounds; {m['stages']['variants']} variants "
         f"(seeds 0-{m['stages']['variants'] - 1})"),
        (f"- items: {counts['accepted']} accepted, {counts['rejected']} rejected, {counts['needs_review']} waiting "
         f"for review, {counts['error']} model errors"), "",
        "### Construction cost", "", *_usage_table(m["usage"]), "",
        "### Every source item", "", *_items_table(m["items"]), "",
    ]
    return "\n".join(lines)
