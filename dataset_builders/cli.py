"""The ``chartprobe`` command line.

    chartprobe build  DATASET|all [--preset small|full|FILE.yaml] --out DIR [--num-proc N] [--seed S] [--overwrite]
    chartprobe render SPEC.json --out chart.png [--boxes boxes.json]
    chartprobe push   RELEASE --repo ORG/NAME --tag vX.Y.Z [--dry-run] [--private]
    chartprobe list   [charts|datasets|templates|interventions|flaws]
    chartprobe tasks-path
    chartprobe eval   <lm_eval arguments...>      (adds --include_path for you)
    chartprobe score    --samples PATH [PATH ...] --out results.json
    chartprobe report   RESULTS.json [...] --out DIR [--validity validity.json ...]
    chartprobe validate RELEASE [RELEASE ...] [--out DIR] [--samples-out DIR] [--write-card]
    chartprobe train  --model VLM [--skills P+G] [--select atomic|bottleneck|random] [--profile F]
                      [--budget N] [--volume-matched N] [--eval-tasks T]   (see chartprobe train --help)

Bad input prints one ``chartprobe: error: ...`` line on stderr and exits 2. Heavy
libraries (matplotlib, datasets, lm-eval, torch) are imported only by the commands
that need them, so ``chartprobe --help`` and ``chartprobe build`` start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

from . import __version__

__all__ = ["build_parser", "main"]


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temp file + rename (never a half file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def cmd_build(args: argparse.Namespace) -> int:
    from .hub import build_release
    from .registry import DATASETS

    names = DATASETS.names() if args.dataset == "all" else [args.dataset]
    command = "chartprobe " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    for name in names:
        info = build_release(name, args.out, args.preset, num_proc=args.num_proc, seed=args.seed,
                             overwrite=args.overwrite, command=command, progress=not args.quiet)
        rows = sum(n for splits in info.num_rows.values() for n in splits.values())
        print(f"{info.path}\t{rows} rows\tsha256:{info.content_hash}")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from .render import render
    from .spec import ChartSpec, SpecError

    try:
        text = Path(args.spec).read_text()
    except OSError as exc:
        raise SpecError("spec", f"cannot read {args.spec}: {exc.strerror}") from None
    spec = ChartSpec.from_json(text).validate()
    out = render(spec)
    _atomic_write(Path(args.out), out.png)
    if args.boxes:
        boxes = {k: list(v) for k, v in out.boxes.items()}
        _atomic_write(Path(args.boxes), json.dumps(boxes, indent=1, sort_keys=True).encode())
    print(f"{args.out}\t{out.width}x{out.height}\t{len(out.boxes)} boxes")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    from .push import plan_push, push_release

    plan = plan_push(args.release, args.repo, args.tag, private=args.private)
    print(plan.describe())
    if args.dry_run:
        print("dry run: nothing was uploaded")
        return 0
    print(push_release(plan, endpoint=args.endpoint))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from . import registry

    reg = getattr(registry, args.what.upper())
    for name in reg.names():
        print(name)
    return 0


def cmd_tasks_path(args: argparse.Namespace) -> int:
    from eval_tasks.runner import tasks_path

    print(tasks_path())
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from eval_tasks.runner import run_eval

    return run_eval(args.lm_eval_args)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser (also used to document the CLI in the README)."""
    p = argparse.ArgumentParser(prog="chartprobe", description="Diagnostic chart benchmarks for VLMs.")
    p.add_argument("--version", action="version", version=f"chartprobe {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    b = sub.add_parser("build", help="build a dataset release folder in Hub layout")
    b.add_argument("dataset", help="dataset name (see `chartprobe list datasets`) or 'all'")
    b.add_argument("--out", required=True, help="folder that receives chartprobe-<dataset>/")
    b.add_argument("--preset", default="small", help="bundled preset (small, full) or a preset YAML path")
    b.add_argument("--num-proc", type=int, default=1, help="worker processes (never changes the content)")
    b.add_argument("--seed", type=int, default=None, help="override the preset's seed")
    b.add_argument("--overwrite", action="store_true", help="replace an existing release folder")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_build)

    r = sub.add_parser("render", help="render a spec JSON file to PNG (debugging aid)")
    r.add_argument("spec", help="chart spec JSON (as stored in every row's `spec` column)")
    r.add_argument("--out", required=True, help="PNG file to write")
    r.add_argument("--boxes", help="also write element bounding boxes as JSON here")
    r.set_defaults(func=cmd_render)

    u = sub.add_parser("push", help="upload a release to the Hub and tag it")
    u.add_argument("release", help="release folder written by `chartprobe build`")
    u.add_argument("--repo", required=True, help="dataset repo id ORG/NAME")
    u.add_argument("--tag", required=True, help="version tag vX.Y.Z for the uploaded commit")
    u.add_argument("--private", action="store_true", help="create the repo as private")
    u.add_argument("--dry-run", action="store_true", help="print the plan, upload nothing")
    u.add_argument("--endpoint", default=None, help="Hub endpoint (default: HF_ENDPOINT or huggingface.co)")
    u.set_defaults(func=cmd_push)

    li = sub.add_parser("list", help="list registered plug-ins")
    li.add_argument("what", nargs="?", default="datasets",
                    choices=["charts", "datasets", "templates", "interventions", "flaws"])
    li.set_defaults(func=cmd_list)

    t = sub.add_parser("tasks-path", help="print the lm-eval include path of chartprobe's tasks")
    t.set_defaults(func=cmd_tasks_path)

    e = sub.add_parser("eval", help="run lm_eval with chartprobe's tasks on the include path",
                       prefix_chars="\0")  # pass every following argument through untouched
    e.add_argument("lm_eval_args", nargs=argparse.REMAINDER, help="arguments for lm_eval")
    e.set_defaults(func=cmd_eval)

    from training.cli import add_parser as add_train_parser  # no torch until `train` runs

    add_train_parser(sub)

    from eval_tasks.commands import add_parsers as add_eval_parsers  # score, report, validate

    add_eval_parsers(sub)
    return p


def _known_errors() -> tuple[type[BaseException], ...]:
    from eval_tasks.predictions import PredictionsError

    from .hub import ReleaseError
    from .preset import PresetError
    from .push import PushError
    from .registry import RegistryError
    from .spec import SpecError

    return (SpecError, RegistryError, ReleaseError, PresetError, PushError, PredictionsError,
            FileNotFoundError)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``chartprobe`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except _known_errors() as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"chartprobe: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("chartprobe: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
