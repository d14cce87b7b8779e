"""``chartprobe restore-originals DIR``: the original charts a Chartographer release leaves out, from a
local copy of each source benchmark, checked row by row (:mod:`.families.restore_originals`).

    chartprobe restore-originals cg/                                   # presets from the Hub cache
    chartprobe restore-originals cg/ --source chartqa_val=./chartqa-val-parquet/ \
        --source charxiv_validation=./charxiv/ --source chartmuseum_dev=./chartmuseum/
    chartprobe build families --released cg/ --out hub/
"""

from __future__ import annotations

import argparse

__all__ = ["add_parser", "cmd_restore", "known_errors"]


def cmd_restore(args: argparse.Namespace) -> int:
    from .families.reconstruct.sources import parse_columns
    from .families.restore_originals import parse_sources, restore_originals

    columns = parse_columns(args.columns, ("image", "question")) if args.columns else None
    done = restore_originals(args.released, parse_sources(args.source), columns=columns, progress=not args.quiet)
    written = ", ".join(f"{split} {n}" for split, n in sorted(done.written.items())) or "none"
    print(f"originals written: {written}; already there: {done.present}; in {done.folder}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``restore-originals`` to the ``chartprobe`` subparsers."""
    r = sub.add_parser("restore-originals", help="put a Chartographer release's original charts back, from the "
                                                 "source benchmarks, each row's question checked",
                       description="For every released original row without its image, read row "
                                   "source_row_index of its source split (counted after the source's row filter, "
                                   "as the released exporter counts), check that row's question is the released "
                                   "one, and write the chart to DIR/originals/<split>/<index>.png, where "
                                   "`chartprobe build families --released DIR` reads it. A mismatch writes nothing.")
    r.add_argument("released", metavar="DIR", help="the released export (huggingface-cli download 1fanj/Chartographer)")
    r.add_argument("--source", action="append", metavar="SPLIT=SOURCE",
                   help="where a released split's rows are: a Hub id (read from the local cache) or a local copy (a "
                        "folder with metadata.jsonl, or parquet files); default for chartqa_*, charxiv_*, "
                        "chartmuseum_*: the paper's Hub dataset and split; repeat per split")
    r.add_argument("--columns", help="image=COL,question=COL when the source does not use the preset's columns")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_restore)


def known_errors() -> tuple[type[BaseException], ...]:
    """This command's bad-input errors (one error line, exit 2)."""
    from .families.reconstruct.sources import SourceError
    from .families.released_rows import ReleasedFamiliesError

    return (SourceError, ReleasedFamiliesError)
