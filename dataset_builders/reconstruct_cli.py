"""``chartprobe reconstruct``: real charts in. Any chart-QA source -> a ``chartprobe-families`` release
whose ``original`` rows are the source images (Chartographer §3.1-3.3, A.2-A.5).

    chartprobe reconstruct --source chartqa --split val --sample 50 --seed 0 --model gpt-5.2 --api responses \
        --work cg-work/ --out hub/
    chartprobe reconstruct --source ./my_charts --columns image=file_name,question=q,answer=a --license cc-by-4.0 \
        --base-url http://127.0.0.1:8000/v1 --model Qwen/Qwen3-VL-8B-Instruct --work w/ --out hub/

The work folder keeps the call cache (a re-run makes no call it already made), the review queue
and decisions, the export in the paper's released layout, and one line per run in ``runs.jsonl``.
When charts fail on the endpoint, one stderr line gives the endpoint's own message; what succeeded
is written and the command exits 1.
The release is built from the export by the ``--released`` importer, so every families task,
metric, agent and Space view reads it unchanged.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "cmd_reconstruct", "known_errors"]


def _sandbox(args: argparse.Namespace):
    from chartprobe.errors import UsageError

    from .families.reconstruct.sandbox import MECHANISMS, Limits, mechanisms, probe

    found = mechanisms()
    name = args.sandbox or (found[0] if found else None)
    if name is None or name not in found:
        why = "; ".join(probe(m) for m in ([name] if name else MECHANISMS))
        raise UsageError(f"--sandbox {name or ''}: no sandbox works here ({why}); install bubblewrap "
                         "(apt-get install bubblewrap)")
    if not MECHANISMS[name].isolates_files and not args.allow_weak_sandbox:
        strong = probe("bwrap") or "bwrap works here: leave out --sandbox"
        raise UsageError(f"the {name} sandbox does not hide host files from model-written code ({strong}); "
                         "install bubblewrap (apt-get install bubblewrap) or pass --allow-weak-sandbox")
    limits = Limits(cpu_s=args.cpu_seconds, wall_s=args.wall_seconds, memory_mb=args.memory_mb)
    return name, limits


def _client(args: argparse.Namespace, work: Path):
    from .families.reconstruct.client import CachedClient, OpenAIClient, TransformersClient

    if args.backend == "transformers":
        inner = TransformersClient(args.model, max_tokens=args.max_tokens, device=args.device)
    else:
        import os

        key = os.environ.get(args.api_key_env) if args.api_key_env else None
        inner = OpenAIClient(args.model, base_url=args.base_url, api_key=key,
                             temperature=None if args.no_temperature else args.temperature,
                             max_tokens=args.max_tokens, timeout=args.timeout, max_retries=args.max_retries,
                             concurrency=args.concurrency, api=args.api, token_param=args.token_param,
                             detail=args.image_detail, stop_after=args.stop_after_failures)
    return CachedClient(inner, work / "cache", price_in=args.price_in, price_out=args.price_out)


def cmd_reconstruct(args: argparse.Namespace) -> int:
    from chartprobe.errors import UsageError, check_output, no_new_folders

    from .core.cli_numbers import check_positive_finite
    from .core.targets import refuse_foreign
    from .families.reconstruct.run import reconstruct

    if args.concurrency < 1 or any(n is not None and n < 1 for n in (args.limit, args.sample)):
        raise UsageError("--concurrency, --limit and --sample must be >= 1")
    if args.max_tokens < 0 or args.stop_after_failures < 0:
        raise UsageError("--max-tokens and --stop-after-failures must be >= 0")
    if args.seed is not None and args.sample is None:
        raise UsageError("--seed draws the --sample rows: give --sample N too")
    if args.backend == "transformers" and args.api != "chat":
        raise UsageError("--api responses needs an endpoint (--backend openai)")
    check_positive_finite(args.cpu_seconds, "--cpu-seconds")  # nan/inf/0 would reach the sandbox's limits
    check_positive_finite(args.wall_seconds, "--wall-seconds")
    check_output(args.out, "--out", folder=True)
    check_output(args.work, "--work", folder=True)
    final = Path(args.out) / "chartprobe-families"
    check_output(final, "--out", folder=True)
    for name, folder in (("runs.jsonl", False), ("export", True), ("review", True), ("review/queue.jsonl", False)):
        check_output(Path(args.work) / name, "--work", folder=folder)  # what the run writes there, up front
    if final.exists() and not args.overwrite:
        raise UsageError(f"{final} already exists (pass --overwrite to replace it)")
    columns = None
    if args.columns:
        from .families.reconstruct.sources import parse_columns

        columns = parse_columns(args.columns)
    mechanism, limits = _sandbox(args)
    work = Path(args.work)
    client = _client(args, work)
    command = "chartprobe " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    start = time.monotonic()
    with no_new_folders(args.out):
        summary = reconstruct(args.source, work, args.out, client, mechanism=mechanism, limits=limits,
                              split=args.split, columns=columns, license=args.license, limit=args.limit,
                              sample=args.sample, seed=args.seed or 0, concurrency=args.concurrency,
                              overwrite=args.overwrite, command=command, progress=not args.quiet,
                              protocol=args.protocol)
    summary["seconds"] = round(time.monotonic() - start, 2)
    refuse_foreign(work / "runs.jsonl")  # appended to, not renamed: a FIFO would block, a link redirect
    with open(work / "runs.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(summary, sort_keys=True) + "\n")
    counts = summary["counts"]
    adjusted = "; ".join(summary.get("adjustments") or [])
    print(f"protocol {args.protocol}: {counts['accepted']} accepted, {counts['rejected']} rejected, {counts['needs_review']} need review "
          f"({work / 'review' / 'queue.jsonl'}), {counts['error']} errors; model calls {summary['calls']}, "
          f"from cache {summary['cached']}; sandbox {mechanism}" + (f"; endpoint: {adjusted}" if adjusted else ""))
    if summary.get("release"):
        print(f"{summary['release']}\t{summary['rows']} rows\tsha256:{summary['content_hash']}")
    if counts["error"]:  # the endpoint, checker or sandbox failed for some charts: not their verdict
        print(_error_line(summary, client.inner, Path(summary["export"])), file=sys.stderr)
        return 1
    if not summary.get("release"):
        print("chartprobe: no family was accepted, so no release was built (the export and the review queue "
              "are written)", file=sys.stderr)
    return 0


def _error_line(summary: dict[str, Any], inner: Any, export: Path) -> str:
    """One line: how many charts failed, the endpoint's own message (else the commonest reason), what was written."""
    counts = summary["counts"]
    reasons = summary.get("errors") or {}
    failures = getattr(inner, "failures", None)
    notes = []
    if failures:  # the endpoint answered with an error: its own message, as it gave it
        why, _ = failures.most_common(1)[0]
        cause, other = f"{inner.where}: {why}", len(failures) > 1 or any(inner.where not in r for r in reasons)
        if inner.not_sent:
            notes.append(f"{inner.not_sent} requests not sent after {inner.stop_after} failures in a row")
    else:
        cause, other = next(iter(reasons), "see the manifest"), len(reasons) > 1
    if other:
        notes.append("other reasons too")
    written = (f"{counts['accepted']} accepted families are in {summary['release']}" if summary.get("release")
               else "no family was accepted, so no release was built")
    return (f"chartprobe: {counts['error']} of {sum(counts.values())} charts failed: {cause}"
            + (f" ({'; '.join(notes)})" if notes else "")
            + f"; {written}; reasons per chart in {export / 'chartprobe-reconstruction.json'}; re-run the same "
            "command to retry them (every reply already received comes from the cache)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``reconstruct`` to the ``chartprobe`` subparsers."""
    from .families.reconstruct.client import APIS, DETAILS, TOKEN_PARAMS
    from .families.reconstruct.protocol import DEFAULT_PROTOCOL, PROTOCOLS
    from .families.reconstruct.sources import SOURCE_PRESETS

    r = sub.add_parser("reconstruct", help="real charts in: a chart-QA source -> counterfactual families (Chartographer)",
                       description="Reconstruct each source chart as data + plotting code with a VLM, refine it, "
                                   "generate ten counterfactual variants with executable QA logic (model-written "
                                   "code runs in a sandbox), and build a chartprobe-families release whose original "
                                   "rows are the source images.")
    r.add_argument("--source", required=True, help=f"a preset ({', '.join(SOURCE_PRESETS)}), a Hub dataset id, a "
                                                   "folder with metadata.jsonl, or parquet file(s)")
    r.add_argument("--split", help="source split (presets: the paper's: ChartQA val, CharXiv validation, ChartMuseum dev)")
    r.add_argument("--columns", help="image=COL,question=COL,answer=COL for sources that are not presets")
    r.add_argument("--license", help="the source's licence (SPDX id), recorded per row and in the card")
    rows = r.add_mutually_exclusive_group()
    rows.add_argument("--limit", type=int, help="only the first N (kept) source rows, in source order")
    rows.add_argument("--sample", type=int, metavar="N",
                      help="N (kept) source rows drawn at random, as the paper sampled (reproducible with --seed)")
    r.add_argument("--seed", type=int, help="random seed for --sample (default 0)")
    r.add_argument("--protocol", choices=tuple(PROTOCOLS), default=DEFAULT_PROTOCOL,
                   help="paper (default): the released pipeline's stages and contracts (an assumptions stage, "
                        "text-only code stages, no source answer shown to generate_answer, fixed list lengths, the "
                        "released import lists: seaborn, cartopy, scipy, scikit-learn, statsmodels; no answer gate); "
                        "chartprobe: our stricter gates (source image on every code stage, base answer must equal "
                        "the source answer, numpy/pandas/matplotlib only)")
    r.add_argument("--work", required=True, help="work folder: cache/, review/, export/, runs.jsonl (reused by re-runs)")
    r.add_argument("--out", required=True, help="folder that receives chartprobe-families/")
    r.add_argument("--overwrite", action="store_true", help="replace an existing release folder")
    m = r.add_argument_group("model (construction calls)")
    m.add_argument("--model", required=True, help="model name at the endpoint, or a local checkpoint (--backend transformers)")
    m.add_argument("--backend", choices=("openai", "transformers"), default="openai",
                   help="an OpenAI-compatible endpoint (default) or a local transformers VLM")
    m.add_argument("--base-url", help="OpenAI-compatible base URL (default: api.openai.com), e.g. http://127.0.0.1:8000/v1")
    m.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    m.add_argument("--api", choices=APIS, default="chat",
                   help="chat: Chat Completions (any OpenAI-compatible server); responses: the Responses API, as the "
                        "paper's released scripts call GPT-5.2 (store=False, images at detail high)")
    temp = m.add_mutually_exclusive_group()
    temp.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (the paper: 0)")
    temp.add_argument("--no-temperature", action="store_true",
                      help="send no temperature (the model's default); a model that refuses a non-default one "
                           "(HTTP 400 naming 'temperature') is also sent none for the rest of the run")
    m.add_argument("--max-tokens", type=int, default=8192,
                   help="completion limit per call (0: send none, as the released scripts)")
    m.add_argument("--token-param", choices=TOKEN_PARAMS, default="auto",
                   help="how chat requests spell the limit; auto: max_completion_tokens for o-series and gpt-5* "
                        "model names, else max_tokens; an HTTP 400 naming the one sent switches to the other for "
                        "the rest of the run (the Responses API always reads max_output_tokens)")
    m.add_argument("--image-detail", choices=DETAILS, default="high",
                   help="detail of every image part (the paper: high); none: the field is not sent")
    m.add_argument("--stop-after-failures", type=int, default=3, metavar="N",
                   help="after N failed requests in a row send no more (the remaining charts fail at once); 0: never")
    m.add_argument("--timeout", type=float, default=300.0, help="seconds per request before it is retried")
    m.add_argument("--max-retries", type=int, default=5,
                   help="retries with exponential backoff per request (connection errors, 408/409/429, 5xx; "
                        "other 4xx fail at once)")
    m.add_argument("--concurrency", type=int, default=4, help="charts (and requests) in flight at once")
    m.add_argument("--price-in", type=float, default=0.0, help="USD per million prompt tokens (cost accounting)")
    m.add_argument("--price-out", type=float, default=0.0, help="USD per million completion tokens")
    m.add_argument("--device", default="cpu", help="--backend transformers: torch device")
    s = r.add_argument_group("sandbox (model-written code)")
    s.add_argument("--sandbox", choices=("bwrap", "unshare"), help="mechanism (default: the best available, bwrap)")
    s.add_argument("--allow-weak-sandbox", action="store_true",
                   help="run with the unshare+rlimit fallback, which does not hide host files")
    s.add_argument("--cpu-seconds", type=float, default=20.0, help="CPU time per sandboxed job")
    s.add_argument("--wall-seconds", type=float, default=40.0, help="wall time per sandboxed job")
    s.add_argument("--memory-mb", type=int, default=4096,
                   help="memory for a whole sandboxed job (its address space split over its 3 tasks; the paper "
                        "protocol's libraries, scipy to cartopy, take about 600 MB of a task's to import)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_reconstruct)


def known_errors() -> tuple[type[BaseException], ...]:
    """This command's bad-input errors (one error line, exit 2)."""
    from .families.reconstruct.client import ModelError
    from .families.reconstruct.manifest import ManifestError
    from .families.reconstruct.review import ReviewError
    from .families.reconstruct.sources import SourceError

    return (SourceError, ManifestError, ReviewError, ModelError)
