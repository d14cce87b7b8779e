"""``chartprobe export``: chartprobe tasks in another harness's dataset format.

    chartprobe export vlmevalkit RELEASE --config C --out DIR [--split test] [--quiet]

``vlmevalkit`` writes one VLMEvalKit TSV per chartprobe task of config ``C`` and the dataset
class file whose ``evaluate()`` scores with chartprobe (:mod:`chartprobe.eval_tasks.harness.vlmevalkit`).
``chartprobe/cli.py`` calls :func:`add_parsers` and composes :func:`known_errors`.
"""

from __future__ import annotations

import argparse

__all__ = ["add_parsers", "cmd_export_vlmevalkit", "known_errors"]


def cmd_export_vlmevalkit(args: argparse.Namespace) -> int:
    from chartprobe.errors import check_output, no_new_folders

    from .vlmevalkit.export import export_vlmevalkit

    check_output(args.out, "--out", folder=True)
    with no_new_folders(args.out):  # a failed export leaves no folder it created (and no file)
        done = export_vlmevalkit(args.release, args.config, args.out, split=args.split, progress=not args.quiet)
    for task, path in done.tsvs.items():
        print(f"{task}\t{done.rows[task]} rows\t{path}")
    for task in done.empty:
        print(f"{task}\tno documents in this release: no TSV")
    print(f"dataset class: {done.class_file}")
    print(f"run: LMUData={done.class_file.parent} python {done.class_file} --data {' '.join(done.tsvs)} "
          "--model <VLMEvalKit model>")
    return 0


def known_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of ``export`` that mean bad input (one error line, exit 2), not a bug."""
    from ..rescoring.predictions import PredictionsError
    from .vlmevalkit.export import ExportError

    return (ExportError, PredictionsError)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``export`` (with its ``vlmevalkit`` target) to the ``chartprobe`` subparsers."""
    e = sub.add_parser("export", help="write chartprobe tasks as another harness's datasets (VLMEvalKit)")
    targets = e.add_subparsers(dest="target", required=True, metavar="TARGET")
    v = targets.add_parser("vlmevalkit", help="VLMEvalKit TSVs (one per task) and a dataset class scored by chartprobe")
    v.add_argument("release", help="release folder written by `chartprobe build`")
    v.add_argument("--config", required=True, help="the release config to export (one TSV per chartprobe task of it)")
    v.add_argument("--split", default="test", help="the split the tasks read (default: test)")
    v.add_argument("--out", required=True, help="folder for the TSVs and chartprobe_vlmevalkit.py")
    v.add_argument("--quiet", action="store_true", help="no progress bar")
    # chartprobe/cli.py adds --debug to `export`; the target's own arguments need it too
    v.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="show the full traceback of any error (for bug reports)")
    v.set_defaults(func=cmd_export_vlmevalkit)
