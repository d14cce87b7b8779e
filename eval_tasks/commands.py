"""The evaluation subcommands of ``chartprobe``: tasks-path, eval, score, report, validate.

    chartprobe tasks-path
    chartprobe eval     <lm_eval arguments...> [--max-gen-toks N]   (adds --include_path for you)
    chartprobe score    --predictions PATH [PATH ...] --out results.json [--releases DIR] [--allow-partial]
                        [--num-proc N] [--quiet] [--judge [--judge-base-url URL] [--judge-model NAME]
                        [--judge-api-key-env NAME] [--judge-cache DIR] [--judge-concurrency N]]
    chartprobe report   RESULTS.json [RESULTS.json ...] --out DIR [--validity validity.json ...] [--study study.json ...]
                        [--compare A B] [--allow-mixed-releases] [--allow-mixed-scorers] [--num-proc N]
    chartprobe validate RELEASE [RELEASE ...] [--out DIR] [--predictions-out DIR] [--agents a,b] [--write-card]

``chartprobe/cli.py`` calls :func:`add_harness_parsers` and :func:`add_parsers` on its
subparsers. ``validate`` exits 1 when a validity check fails (argument and data errors stay 2,
as elsewhere).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chartprobe.dataset_builders.core.atomic import atomic_write_files

__all__ = ["add_harness_parsers", "add_parsers", "cmd_report", "cmd_score", "cmd_validate", "known_errors"]


def cmd_tasks_path(args: argparse.Namespace) -> int:
    from .harness.runner import tasks_path

    print(tasks_path())
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    import os

    from .harness.eval_args import check_lm_eval_args
    from .harness.eval_switches import EVAL_HELP, check_hub_reachable, take_releases
    from .harness.image_guard import check_image_capacity
    from .harness.runner import run_eval
    from .rescoring.data import ENV_VAR

    argv = list(args.lm_eval_args)
    if not argv:
        check_lm_eval_args(argv)  # a bare `chartprobe eval` is a usage error naming an example, not lm-eval's help
    if argv[0] in ("-h", "--help") or argv[:2] in (["run", "-h"], ["run", "--help"]):
        print(EVAL_HELP, flush=True)  # chartprobe's own switches first, then lm-eval's help
        return run_eval(argv)
    argv, releases_dir = take_releases(argv)
    if releases_dir is not None:
        os.environ[ENV_VAR] = str(Path(releases_dir).expanduser().resolve())
    releases = check_lm_eval_args(argv)  # refused in milliseconds, not after lm-eval's ~15 s start-up
    check_image_capacity(argv)  # a two-image task on a one-image model: refused before any request
    check_hub_reachable(releases)  # offline without local data: one line now, not minutes of retries
    return run_eval(argv)


def cmd_list_tasks(args: argparse.Namespace) -> int:
    """``chartprobe list tasks [--benchmark B]``: the task index, read from the YAMLs (no lm-eval import)."""
    from chartprobe.errors import UsageError

    from .suites._task_index import task_index

    index = task_index()
    benchmarks = sorted({t.release for t in index.values()})
    if args.benchmark and args.benchmark not in benchmarks:
        raise UsageError(f"list tasks: --benchmark {args.benchmark!r} has no tasks (known: {', '.join(benchmarks)})")
    for name, t in sorted(index.items()):
        if args.benchmark in (None, t.release):
            where = ",".join(f"{k}={v}" for k, v in t.where.items())
            print("\t".join([name, t.release, t.config, t.split, t.protocol] + ([where] if where else [])))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from chartprobe.dataset_builders.core.cli_numbers import check_num_proc

    from chartprobe.errors import check_output, no_new_folders

    from .answer_judge.options import judge_from_args, lm_eval_judge_notices
    from .rescoring.rescore import write_scored

    if not args.samples:
        from chartprobe.errors import UsageError

        raise UsageError("score: --predictions PATH [PATH ...] is required (lm-eval --log_samples files or folders)")
    check_num_proc(args.num_proc)
    judge = judge_from_args(args)
    check_output(args.out, "--out")
    _check_release_root(args.releases)
    out = Path(args.out)
    typed_over_judge: dict[str, dict[str, set]] = {}  # lm-eval judged it, we rescored typed

    def show(model: str, tasks: dict) -> None:  # each model's lines as soon as it is scored
        for task, t in tasks.items():
            nums = ", ".join(f"{k}={v:.3f}" for k, v in t["metrics"].items() if isinstance(v, float))
            label = " PARTIAL" if t["partial"] else ""
            judged = f"\tjudge={t['scorer']['model']}" if isinstance(t.get("scorer"), dict) else ""
            print(f"{model}\t{task}\tn={t['n']}\tcoverage={t['coverage']:.3f}{label}\t{nums}{judged}")
            if t.get("lm_eval_scorer") and t.get("scorer") == "typed":
                seen = typed_over_judge.setdefault(task, {"models": set(), "judges": set()})
                seen["models"].add(model)
                seen["judges"].add(t["lm_eval_scorer"])

    with no_new_folders(out.parent):  # streamed one model at a time; a failed rescore keeps the old results
        skipped = write_scored(args.samples, out, releases=args.releases, allow_partial=args.allow_partial,
                               progress=not args.quiet, num_proc=args.num_proc, on_model=show, judge=judge)
    for line in lm_eval_judge_notices(typed_over_judge):
        print(line)
    from .suites._task_index import task_index

    index = task_index()
    for task, n in skipped.items():
        why = ("a released-protocol task: lm-eval's own table is its score"
               if task in index else "not a chartprobe task")
        print(f"skipped {n} samples of {task} ({why})")
    print(f"results: {out}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from chartprobe.dataset_builders.core.cli_numbers import check_num_proc

    from chartprobe.errors import UsageError, check_output, no_new_folders

    from .report.build import build_report
    from .rescoring.results import load_results_with_provenance
    from .suites._plots import FORMATS
    from .validity.validate import read_validity

    formats = [f.strip().lower() for f in (args.formats or "png").split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise UsageError(f"--formats: unknown figure format {bad[0]!r} (choose from {','.join(FORMATS)})")
    check_output(args.out, "--out", folder=True)
    check_num_proc(args.num_proc)
    # checked before anything is written, so a corrupt input never reaches the report folder (the
    # records themselves are made where they are used)
    load_results_with_provenance(args.results, models=())
    read_validity(args.validity or ())
    from .report.study import read_study

    for path in args.study or ():
        read_study(path)
    groups = None
    if args.model_groups:
        if not args.paper_tables:
            raise UsageError("--model-groups groups the paper tables' models: give --paper-tables too")
        from .report.paper_tables import read_model_groups

        groups = read_model_groups(args.model_groups)
    with no_new_folders(args.out):
        report = build_report(args.results, args.out, args.validity or (), compare=args.compare,
                              allow_mixed_releases=args.allow_mixed_releases,
                              allow_mixed_scorers=args.allow_mixed_scorers, studies=args.study or (),
                              formats=formats, paper_tables=args.paper_tables, model_groups=groups,
                              num_proc=args.num_proc)
    for suite, ids in report["mixed_releases"].items():
        print(f"warning: suite {suite} mixes {len(ids)} releases (--allow-mixed-releases)")
    for suite, ids in report["mixed_scorers"].items():
        print(f"warning: suite {suite} mixes {len(ids)} scorers: {', '.join(ids)} (--allow-mixed-scorers)")
    for suite, entry in (report.get("compare") or {}).get("suites", {}).items():
        for metric, d in entry["metrics"].items():
            if d["diff"] is not None:
                star = " significant" if d["significant"] else ""
                print(f"compare\t{suite}\t{metric}\tB-A={d['diff']:+.3f}\tp={d['p_value']:.4f}{star}")
    print(f"report: {Path(args.out) / 'report.md'} ({len(report['plots'])} plots, "
          f"{len(report['models'])} models)")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from chartprobe.errors import check_output, no_new_folders

    from .validity.validate import check_agents, release_dataset

    for flag, path in (("--out", args.out), ("--predictions-out", args.samples_out)):
        if path:
            check_output(path, flag, folder=True)
    for release in args.release if args.write_card else ():
        check_output(Path(release) / "README.md", "--write-card")
    together = "--across-seeds" if args.across_seeds else "--pool-seeds" if args.pool_seeds else None
    if together and (args.write_card or args.samples_out or (args.across_seeds and args.pool_seeds)):
        from chartprobe.errors import UsageError

        raise UsageError(f"{together} checks the releases together: it takes no --write-card, --predictions-out "
                         "or second mode (--across-seeds, --pool-seeds)")
    from chartprobe.dataset_builders.core.cli_numbers import check_num_proc

    check_num_proc(args.num_proc)
    # Every card and agent name is checked before the first agent runs or writes anything.
    agents = check_agents(args.agents, [release_dataset(r) for r in args.release])
    # New output folders go as a whole on failure: half an agent's samples would score as a run.
    with no_new_folders(args.out, args.samples_out, whole=True):
        return _validate(args, agents)


def _validate(args: argparse.Namespace, agents: list[str] | None) -> int:
    from .validity.seed_check import seed_check
    from .validity.validate import render_markdown, validate_release, write_validity_card

    reports = []
    if args.across_seeds:  # one report over all of them: do the seeds measure the same thing?
        rep = seed_check(args.release, agents)
        reports.append(rep)
        print(f"## {rep.release}\n\n{render_markdown(rep)}")
    if args.pool_seeds:  # one release's checks over the rows of all of them
        from .validity.pooled import validate_pooled

        rep = validate_pooled(args.release, agents, args.num_proc)
        reports.append(rep)
        print(f"## {rep.release}\n\n{render_markdown(rep)}")
    for release in () if args.across_seeds or args.pool_seeds else args.release:
        rep = validate_release(release, samples_out=args.samples_out, agents=agents, num_proc=args.num_proc)
        reports.append(rep)
        text = render_markdown(rep)
        print(f"## {rep.release}\n\n{text}")
        if args.write_card:
            write_validity_card(release, rep)
    if args.out:
        out = Path(args.out)
        atomic_write_files({  # both or neither: the table and its JSON never disagree
            out / "validity.json": json.dumps([r.to_json() for r in reports], indent=1),
            out / "validity.md": "\n".join(f"## {r.release}\n\n{render_markdown(r)}" for r in reports)})
        print(f"validity table: {out / 'validity.md'}")
    failed = [f"{r.release}: {c.check} [{c.scope}]" for r in reports for c in r.failed]
    for line in failed:
        print(f"FAIL {line}")
    return 1 if failed else 0


def _check_release_root(releases: str | None) -> None:
    """Refuse a ``--releases`` folder (or ``CHARTPROBE_DATA``) that is missing or holds a broken card."""
    import os

    from chartprobe.errors import UsageError

    from .rescoring.data import ENV_VAR
    from .rescoring.predictions import read_release_card

    root = releases or os.environ.get(ENV_VAR)
    if not root:
        return  # the Hub repos at their pinned revisions
    flag = "--releases" if releases else ENV_VAR
    if not Path(root).expanduser().is_dir():
        raise UsageError(f"{flag} {root}: no such folder (a folder holding chartprobe-<name>/ releases)")
    for card in sorted(Path(root).expanduser().glob("chartprobe-*/README.md")):
        read_release_card(card.parent)  # the gold comes from these cards: refuse a broken one by name


def add_harness_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``tasks-path`` and ``eval`` (lm-evaluation-harness) to the ``chartprobe`` subparsers."""
    t = sub.add_parser("tasks-path", help="print the lm-eval include path of chartprobe's tasks")
    t.set_defaults(func=cmd_tasks_path)

    e = sub.add_parser("eval", help="run lm_eval with chartprobe's tasks on the include path",
                       prefix_chars="\0")  # pass every following argument through untouched
    e.add_argument("lm_eval_args", nargs=argparse.REMAINDER,
                   help="arguments for lm_eval; chartprobe's own --max-gen-toks N (generation budget, "
                        "default 2048 per task YAML) becomes --gen_kwargs max_gen_toks=N")
    e.set_defaults(func=cmd_eval)


def known_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of these commands that mean bad input (one error line, exit 2), not a bug."""
    from .answer_judge.equivalence import JudgeError
    from .report.paper_tables.groups import PaperTablesError
    from .rescoring.predictions import PredictionsError

    return (PredictionsError, JudgeError, PaperTablesError)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``score``, ``report`` and ``validate`` to the ``chartprobe`` subparsers."""
    s = sub.add_parser("score", help="rescore saved predictions (lm-eval --log_samples or agents)")
    s.add_argument("--predictions", dest="samples", nargs="+", metavar="PATH", default=None,
                   help="saved predictions: lm-eval --log_samples files (samples_<task>_<date>.jsonl) or folders "
                        "holding them (one folder per model); required (--samples is its deprecated spelling)")
    from chartprobe.flag_aliases import add_deprecated_alias

    add_deprecated_alias(s, "--samples", "--predictions", "samples", nargs="+", metavar="PATH")
    s.add_argument("--out", required=True, help="results JSON to write")
    s.add_argument("--releases", default=None,
                   help="folder of release folders (chartprobe-<name>/) that holds the gold; default "
                        "CHARTPROBE_DATA, else the Hub repos at their pinned revisions. The gold is never "
                        "read from the samples files")
    s.add_argument("--allow-partial", action="store_true",
                   help="score a run that covers only part of a task over what it covers, labelled partial "
                        "(default: the missing documents count as wrong)")
    s.add_argument("--num-proc", type=int, default=1, metavar="N",
                   help="score models in N worker processes (default 1); the results file is the same for any N")
    s.add_argument("--quiet", action="store_true", help="no progress bar (one step per model scored)")
    from .answer_judge.options import add_judge_arguments

    add_judge_arguments(s)
    s.set_defaults(func=cmd_score)

    r = sub.add_parser("report", help="capability profiles, comparison tables and plots from results")
    r.add_argument("results", nargs="+", help="results JSON files written by `chartprobe score`")
    r.add_argument("--out", required=True, help="report folder (report.md, report.json, *.png)")
    r.add_argument("--validity", nargs="*", help="validity.json files from `chartprobe validate --out`")
    r.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="paired comparison of two models (names as in the results): per suite and headline "
                        "metric, B - A with a 95%% bootstrap interval and a sign-flip permutation p-value over "
                        "the suite's units (family, legend base chart, judge pair/item, probe chart); "
                        "significant at p < 0.05")
    r.add_argument("--allow-mixed-releases", action="store_true",
                   help="report models of one suite scored on releases with different content hashes side by "
                        "side (default: refused, since their numbers are not comparable); the report marks them")
    r.add_argument("--allow-mixed-scorers", action="store_true",
                   help="report models of one suite scored by different scorers (the typed scorer, an LLM judge, "
                        "another judge model or prompt) side by side (default: refused); the report marks them")
    r.add_argument("--study", nargs="*", help="study.json files of `chartprobe train --seeds` (base vs Random FT vs "
                   "Bottleneck FT, mean ± sd over seeds): their tables are added to the report")
    r.add_argument("--paper-tables", action="store_true",
                   help="also write each paper's own tables in its layout, filled from these results: "
                        "paper_tables.md and paper_tables/<paper>-<n>.md and .tex (booktabs), each cell with its n")
    r.add_argument("--model-groups", metavar="FILE",
                   help="YAML or JSON mapping a group name (e.g. 'Proprietary models') to its models, in table "
                        "order: the paper tables' model groups and their averages (default: one group)")
    r.add_argument("--formats", default="png", metavar="png,pdf,svg",
                   help="figure formats, comma-separated (default: png); pdf and svg add vector copies of every "
                        "figure beside its PNG")
    r.add_argument("--num-proc", type=int, default=1, metavar="N",
                   help="make each model's profile and diagnosis in N worker processes (default 1); the report "
                        "is the same for any N")
    r.set_defaults(func=cmd_report)

    v = sub.add_parser("validate", help="run the reference agents on a release; exit 1 if a check fails")
    v.add_argument("release", nargs="+", help="release folder(s) written by `chartprobe build`")
    v.add_argument("--out", help="folder for validity.md and validity.json")
    v.add_argument("--predictions-out", dest="samples_out", metavar="DIR",
                   help="also write the agents' predictions here (lm-eval --log_samples layout), one folder per "
                        "agent (--samples-out is its deprecated spelling)")
    from chartprobe.flag_aliases import add_deprecated_alias

    add_deprecated_alias(v, "--samples-out", "--predictions-out", "samples_out", metavar="DIR")
    v.add_argument("--agents", help="comma-separated agent names (default: every applicable agent)")
    v.add_argument("--num-proc", type=int, default=1, metavar="N",
                   help="processes for the images' pixel statistics (while the release loads), the oracle's "
                        "re-derived answers (box answers redraw the chart) and the image-statistics agent's "
                        "folds; the table is the same for any N (default: 1)")
    v.add_argument("--write-card", action="store_true", help="put the table in each release's README.md")
    v.add_argument("--across-seeds", action="store_true",
                   help="the releases are one preset built with different --seed: check that their template, "
                        "chart-kind and answer-type mixes agree (chi-square, p >= 0.05; identical counts reported), that "
                        "no row repeats across seeds, and that every reference agent's intervals overlap "
                        "across seeds on every config, family-wise 95%% (eval_tasks/validity/seed_check.py)")
    v.add_argument("--pool-seeds", action="store_true",
                   help="the releases are one preset built with different --seed: validate their rows pooled as "
                        "one release (unit ids prefixed by seed), so learned agents such as image_stats have "
                        "enough rows on a small preset (eval_tasks/validity/pooled.py)")
    v.set_defaults(func=cmd_validate)
