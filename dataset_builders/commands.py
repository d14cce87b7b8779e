"""The dataset-builder commands of ``chartprobe``: ``build``, ``render``, ``push`` and ``list``.

    chartprobe build  DATASET|all [--preset small|full|FILE.yaml] --out DIR [--num-proc N] [--seed S] [--overwrite]
                      [--shard I/N]    # one key range per machine; `chartprobe merge` (merge_cli.py) joins them
                      [--tables DIR]   # legend only: ChartBench data tables as the chart data
                      [--released DIR] # judge, families: import the paper's released data (RELEASED_IMPORTERS)
    chartprobe render SPEC.json --out chart.png [--boxes boxes.json]
    chartprobe push   RELEASE --repo ORG/NAME --tag vX.Y.Z [--dry-run] [--private]
    chartprobe list   [charts|datasets|templates|interventions|flaws]

``chartprobe/cli.py`` composes these with the evaluation and training commands. Heavy
libraries (matplotlib, datasets) are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .core.atomic import atomic_write  # re-exported: the one atomic write, shared by every command
from .core.specs import ENGINES
from .merge_cli import shard_arg

__all__ = ["LISTABLE", "RELEASED_IMPORTERS", "add_parsers", "atomic_write", "known_errors", "listable"]


LISTABLE = ("charts", "datasets", "templates", "interventions", "flaws")
"""What ``chartprobe list`` accepts (the keys of :func:`listable`, spelled out so ``--help``
imports no registry)."""


def _seed_arg(text: str) -> int:
    """``--seed``: a non-negative integer that fits the rows' int64 ``seed`` column (else usage error)."""
    from .release.preset import MAX_SEED

    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}") from None
    if seed < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {seed}")
    if seed > MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SEED} (an int64 column), got {seed}")
    return seed


_HOOK_INSTALLED = False
_BUILDING_WITH_WORKERS = False
"""True only while ``cmd_build`` runs a multi-process build: the fork hook acts only then."""


def _ignore_ctrl_c_in_workers() -> None:
    if _BUILDING_WITH_WORKERS:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Processes forked inside the block (the pool's workers) ignore SIGINT.

    Ctrl-C reaches the whole process group: pool workers each printed a KeyboardInterrupt
    traceback. Now only the parent sees it; the pool's exit terminates the workers. The hook
    is scoped to the block: a process that calls ``main`` and later forks (a test runner, a
    notebook starting subprocesses) must not hand an ignored Ctrl-C to those children.
    """
    global _HOOK_INSTALLED, _BUILDING_WITH_WORKERS
    if not _HOOK_INSTALLED and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_ignore_ctrl_c_in_workers)
        _HOOK_INSTALLED = True
    _BUILDING_WITH_WORKERS = True
    try:
        yield
    finally:
        _BUILDING_WITH_WORKERS = False


RELEASED_IMPORTERS: dict[str, tuple[str, str]] = {
    "judge": ("judge.released", "ChartJudgeBench: Lijian9/ChartJudgeBench"),
    "families": ("families.released", "Chartographer: 1fanj/Chartographer"),
}
"""``--released DIR``: dataset -> (the module under ``dataset_builders`` that imports its paper's
released data, what that data is). The module's ``released_params(DIR)`` reads and checks the
folder and returns the params every config carries; an optional ``released_preset(params)`` is the
recipe a build uses when no ``--preset`` is given (families: configs that exist only for released
data)."""
DEFAULT_PRESET = "small"


def _importer(name: str) -> Any:
    import importlib

    return importlib.import_module(f"{__package__}.{RELEASED_IMPORTERS[name][0]}")


def _check_build(args: argparse.Namespace, names: list[str]) -> None:
    """Refuse a build that would fail part-way, before the first dataset is built."""
    from chartprobe.errors import UsageError, check_output

    from .core.cli_numbers import check_num_proc
    from .release.dataset import DATASETS

    check_num_proc(args.num_proc)
    if len(names) > 1 and str(args.preset).endswith((".yaml", ".yml")):
        raise UsageError("--preset FILE is one dataset's recipe; `build all` takes a bundled preset name")
    check_output(args.out, "--out", folder=True)
    for name in names:  # `all` must not stop at the third dataset and leave two new releases
        final = Path(args.out) / _target(DATASETS.get(name)().repo_name, args.shard)
        check_output(final, "--out", folder=True)  # a FIFO or link named like the release: never ours
        if final.exists() and not args.overwrite:
            raise UsageError(f"{final} already exists (pass --overwrite to replace it)")


def _target(repo_name: str, shard: tuple[int, int] | None) -> str:
    from .release.shards import shard_name

    return repo_name if shard is None else shard_name(repo_name, shard)


def cmd_build(args: argparse.Namespace) -> int:
    from chartprobe.errors import no_new_folders

    from .release.dataset import DATASETS
    from .release.hub import build_release

    names = DATASETS.names() if args.dataset == "all" else [args.dataset]
    _check_build(args, names)
    params = _tables_params(args.tables, names)  # read and cross-checked before anything is built
    released = _released_params(args.released, names)  # likewise: every released row mapped and checked
    params = {**(params or {}), **released} if released else params
    preset = args.preset or _released_preset(released, names) or DEFAULT_PRESET
    command = "chartprobe " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    workers = _workers_ignore_ctrl_c() if args.num_proc > 1 else contextlib.nullcontext()
    with no_new_folders(args.out), workers:
        for name in names:
            info = build_release(name, args.out, preset, num_proc=args.num_proc, seed=args.seed,
                                 overwrite=args.overwrite, command=command, progress=not args.quiet,
                                 params=params, shard=args.shard)
            rows = sum(n for splits in info.num_rows.values() for n in splits.values())
            print(f"{info.path}\t{rows} rows\tsha256:{info.content_hash}")
    return 0


def _tables_params(tables: str | None, names: list[str]) -> dict[str, str] | None:
    """``--tables DIR``: legend's ChartBench data tables, as the params every config carries."""
    if tables is None:
        return None
    from chartprobe.errors import UsageError

    if names != ["legend"]:
        raise UsageError("--tables: only `chartprobe build legend` draws from data tables (ChartBench)")
    from .legend.sources import tables_params

    return tables_params(tables)


def _released_params(released: str | None, names: list[str]) -> dict[str, str] | None:
    """``--released DIR``: the dataset's released data (:data:`RELEASED_IMPORTERS`), as the params
    every config carries."""
    if released is None:
        return None
    from chartprobe.errors import UsageError

    if len(names) != 1 or names[0] not in RELEASED_IMPORTERS:
        known = " or ".join(f"`chartprobe build {n}` ({RELEASED_IMPORTERS[n][1].split(':')[0]})"
                            for n in RELEASED_IMPORTERS)
        raise UsageError(f"--released: only {known} import released data")
    return _importer(names[0]).released_params(released)


def _released_preset(params: dict[str, str] | None, names: list[str]) -> Any:
    """The importer's own recipe for a ``--released`` build without ``--preset`` (None: it has none)."""
    if not params:
        return None
    recipe = getattr(_importer(names[0]), "released_preset", None)
    return None if recipe is None else recipe(params)


def cmd_render(args: argparse.Namespace) -> int:
    from chartprobe.errors import check_output, no_new_folders

    from .core.atomic import atomic_write_files
    from .core.fields import SpecError
    from .core.specs import load_spec, render_spec

    for flag, path in (("--out", args.out), ("--boxes", args.boxes)):
        if path:
            check_output(path, flag)  # before rendering: a bad --boxes must not leave a new PNG
    try:
        text = Path(args.spec).read_bytes().decode("utf-8")
    except OSError as exc:
        raise SpecError("spec", f"cannot read {args.spec}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SpecError("spec", f"{args.spec} is not UTF-8 text ({exc.reason})") from None
    try:
        spec = load_spec(text)
    except RecursionError:  # json's decoder recurses per nesting level
        raise SpecError("spec", f"{args.spec} is nested too deeply to be a spec") from None
    out = render_spec(spec, engine=args.engine)  # any spec kind: dispatched on its version tag
    files: dict[Path, bytes] = {Path(args.out): out.png}
    if args.boxes:
        boxes = {k: list(v) for k, v in out.boxes.items()}
        files[Path(args.boxes)] = json.dumps(boxes, indent=1, sort_keys=True).encode()
    with no_new_folders(*(p.parent for p in files)):
        atomic_write_files(files)  # both or neither
    print(f"{args.out}\t{out.width}x{out.height}\t{len(out.boxes)} boxes")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    from .release.push import plan_push, push_release

    plan = plan_push(args.release, args.repo, args.tag, private=args.private)
    print(plan.describe())
    if args.dry_run:
        print("dry run: nothing was uploaded")
        return 0
    print(push_release(plan, endpoint=args.endpoint))
    return 0


def listable() -> dict[str, Any]:
    """The registries ``chartprobe list`` shows, by the word the user types."""
    from .core.charts import CHARTS
    from .judge.flaws import FLAWS
    from .legend.interventions import INTERVENTIONS
    from .probes.templates import TEMPLATES
    from .release.dataset import DATASETS

    return {"charts": CHARTS, "datasets": DATASETS, "templates": TEMPLATES,
            "interventions": INTERVENTIONS, "flaws": FLAWS}


def cmd_list(args: argparse.Namespace) -> int:
    for name in listable()[args.what].names():
        print(name)
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``build``, ``render``, ``push`` and ``list`` to the ``chartprobe`` subparsers."""
    b = sub.add_parser("build", help="build a dataset release folder in Hub layout")
    b.add_argument("dataset", help="dataset name (see `chartprobe list datasets`) or 'all'")
    b.add_argument("--out", required=True, help="folder that receives chartprobe-<dataset>/")
    b.add_argument("--preset", default=None,
                   help=f"bundled preset (small, full) or a preset YAML path (default {DEFAULT_PRESET}; with "
                        "--released, families uses the released recipe: all, one config per source benchmark, "
                        "resolution)")
    b.add_argument("--num-proc", type=int, default=1, help="worker processes (never changes the content)")
    b.add_argument("--seed", type=_seed_arg, default=None, help="override the preset's seed (0 .. 2**63-1)")
    b.add_argument("--overwrite", action="store_true", help="replace an existing release folder")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.add_argument("--shard", metavar="I/N", type=shard_arg, default=None,
                   help="build only the I-th of N key ranges of every split into chartprobe-<dataset>-shard-I-of-N/ "
                        "(0-based; one per machine, e.g. a Slurm array index); `chartprobe merge` assembles them")
    b.add_argument("--tables", metavar="DIR", default=None,
                   help="legend only: draw the charts' data from ChartBench data tables in DIR (its released "
                        "layout: QA/<QA_type>/<chart_type>/<image_type>/meta.json indexing data/.../<n>.txt, each "
                        "read as CSV and cross-checked against ChartBench's true statements); the table set's "
                        "sha256 goes into the recipe and every row; `vega_datasets` instead of DIR: the real tables "
                        "bundled with vega_datasets (docs/real-tables.md)")
    b.add_argument("--released", metavar="DIR", default=None,
                   help="judge, families: import the paper's released data from DIR (a local copy of its Hub "
                        "dataset: `huggingface-cli download REPO --repo-type dataset --local-dir DIR`) instead of "
                        "generating items. judge: Lijian9/ChartJudgeBench (CPA/, ChartReproduction/, ChartEditing/ "
                        "train-*.parquet) -> cpa, crj_reproduction, crj_editing; families: 1fanj/Chartographer "
                        "(<split>.jsonl + images/, originals restored under originals/) -> all, chartqa, charxiv, "
                        "chartmuseum, resolution. Split test; labels as released; the data's sha256 goes into "
                        "the recipe")
    b.set_defaults(func=cmd_build)

    r = sub.add_parser("render", help="render a spec JSON file (any spec kind) to PNG")
    r.add_argument("spec", help="spec JSON of any kind (chart or shape scene), as stored in a row's "
                                "`spec` column (judge rows: `spec_better`, `spec_candidate`...)")
    r.add_argument("--out", required=True, help="PNG file to write")
    r.add_argument("--boxes", help="also write element bounding boxes as JSON here")
    r.add_argument("--engine", choices=ENGINES, default=None,
                   help="drawing engine (default: the spec kind's own, as in releases: matplotlib for "
                        "charts, pillow for shape scenes); vega draws the same spec with Vega "
                        "(needs the vega extra)")
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
                    choices=LISTABLE)
    li.set_defaults(func=cmd_list)


def known_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of these commands that mean bad input (one error line, exit 2), not a bug."""
    from .core.registry import RegistryError
    from .core.spec import SpecError
    from .families.released_rows import ReleasedFamiliesError
    from .judge.released_rows import ReleasedError
    from .legend.tables import TablesError
    from .release.hub import ReleaseError
    from .release.lock import ReleaseBusy
    from .release.preset import PresetError
    from .release.push import PushError

    return (SpecError, RegistryError, ReleaseError, ReleaseBusy, PresetError, PushError, TablesError,
            ReleasedError, ReleasedFamiliesError)  # OSError: chartprobe/errors.py
