"""``chartprobe build --shard I/N`` and ``chartprobe merge``: one build split across machines.

    chartprobe build probes --preset full --out shards/ --shard 0/3     # on each machine, I = 0, 1, 2
    chartprobe merge shards/chartprobe-probes-shard-* --out releases/   # once, anywhere

The merged release equals the unsharded build, content hash included (``release/merge.py``).
"""

from __future__ import annotations

import argparse
import shlex
import sys

__all__ = ["add_parser", "cmd_merge", "shard_arg"]


def shard_arg(text: str) -> tuple[int, int]:
    """``--shard``: ``I/N``, a 0-based shard index and the shard count (else a usage error)."""
    from .release.shards import parse_shard

    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_merge(args: argparse.Namespace) -> int:
    from chartprobe.errors import check_output, no_new_folders

    from .core.cli_numbers import check_num_proc
    from .release.merge import merge_shards

    check_num_proc(args.num_proc)
    check_output(args.out, "--out", folder=True)
    command = "chartprobe " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    with no_new_folders(args.out):
        info = merge_shards(args.shards, args.out, overwrite=args.overwrite, num_proc=args.num_proc,
                            command=command, progress=not args.quiet)
    rows = sum(n for splits in info.num_rows.values() for n in splits.values())
    print(f"{info.path}\t{rows} rows\tsha256:{info.content_hash}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``merge`` to the ``chartprobe`` subparsers."""
    m = sub.add_parser("merge", help="assemble the shard folders of `build --shard I/N` into one release",
                       description="Assemble shards 0..N-1 of one `chartprobe build ... --shard I/N` recipe into "
                                   "the release the unsharded build makes (same rows, card and content hash).")
    m.add_argument("shards", nargs="+", metavar="SHARD_DIR",
                   help="every shard folder (chartprobe-<dataset>-shard-<I>-of-<N>), in any order")
    m.add_argument("--out", required=True, help="folder that receives chartprobe-<dataset>/")
    m.add_argument("--num-proc", type=int, default=1,
                   help="worker processes for a derived split that must be generated (never changes the content)")
    m.add_argument("--overwrite", action="store_true", help="replace an existing release folder")
    m.add_argument("--quiet", action="store_true", help="no progress bar")
    m.set_defaults(func=cmd_merge)
