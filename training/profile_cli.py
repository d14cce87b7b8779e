"""``chartprobe profile``: a capability profile (per-region accuracy, n and 95% interval) from a run.

    chartprobe profile out/eval --out out/profile.json              # lm-eval --output_path folder
    chartprobe profile out/results.json --model NAME --out p.json   # a chartprobe score results file
    chartprobe profile lm_eval_results.json --out p.json           # lm-eval results JSON alone (coarse)

The JSON (``chartprobe-profile/v2``, see :mod:`chartprobe.training.profile`) is what
``chartprobe train --select bottleneck --profile FILE`` reads; ``--profile`` also takes any of the
three sources directly. The command prints what it profiled, on which splits, and which tasks it
skipped and why. Profile on the validation split (``--tasks chartprobe_val``) when the tuned model
will be scored on the test split.
"""

from __future__ import annotations

import argparse
import json

from chartprobe.errors import check_output, run_command

__all__ = ["add_parser"]


def _known() -> tuple[type[BaseException], ...]:
    from chartprobe.eval_tasks.rescoring.predictions import PredictionsError

    from .profile import ProfileError

    return (ProfileError, PredictionsError)


def _run(args: argparse.Namespace) -> int:
    from chartprobe.dataset_builders.core.atomic import atomic_write_files

    from .profile_sources import describe, load_profile

    out = check_output(args.out, "--out")
    profile = load_profile(args.source, args.model)
    atomic_write_files({out: json.dumps(profile, indent=1) + "\n"})
    for line in describe(profile):
        print(line)
    print(f"wrote {out}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Write the profile; 0 on success, 2 with one error line on a source that cannot be profiled."""
    return run_command(_run, args, _known)


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``profile`` on the ``chartprobe`` sub-command parser."""
    p = subparsers.add_parser("profile", help="capability profile (per-region accuracy + 95%% CI) of an lm-eval run "
                              "or a results file, for --select bottleneck",
                              description=__doc__.split("\n\n")[0].replace("``", ""))
    p.add_argument("source", help="lm-eval --output_path folder (with --log_samples), lm-eval results JSON, or "
                   "a chartprobe score results file")
    p.add_argument("--out", required=True, help="profile JSON to write (chartprobe-profile/v2)")
    p.add_argument("--model", help="model name in a results file holding several")
    p.set_defaults(func=run)
    return p
