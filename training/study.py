"""The fine-tuning studies: LegendBench §5.3 (base vs Random FT vs Bottleneck FT) and ChartProbe §4
(base vs one fine-tune per skill set: P, G, SR, P+G, P+G+SR).

``chartprobe train --data legend --budget N --seeds 42,43,44 --eval-tasks chartprobe_legend,chartqa`` runs:

1. the base model on the *validation* split (``--profile-tasks``, default the training configs'
   ``chartprobe_*_val`` tasks) -> ``profile_base_validation.json``, the capability profile that
   guides bottleneck selection (a profile that holds test rows is refused: the study reports on
   the test split); ``--profile FILE`` reuses one instead;
2. the base model on ``--eval-tasks`` (the held-out test tasks plus any transfer task, e.g.
   lm-eval's ``chartqa``) -> ``eval/base`` (``--base-eval`` reuses one);
3. per seed, Random-LB FT and Bottleneck-LB FT at the same budget (same model, same settings,
   ``--select random`` / ``bottleneck``), each trained into ``<mode>-seed<seed>/`` and evaluated
   on the same tasks;
With ``--skill-sets P,G,SR,P+G,P+G+SR`` the settings are ChartProbe's five configurations instead
of step 3's two: per seed, one ``--select atomic`` fine-tune per skill set (all train rows of its
skills, or ``--volume-matched N`` of them), no selection profile (step 1 is skipped).

4. ``study.json`` and ``study.md`` (``chartprobe report --study study.json`` adds them to a report):
   per capability region (the benchmark's headline dimension,
   its mean, ChartProbe's CR fuzzy and every transfer metric) the base value and mean ± sd over
   seeds of each fine-tuned setting, and the crossed table (ChartProbe's per-domain x skill of
   its Table 1; LegendBench's capability x chart family) for each setting.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

from chartprobe.dataset_builders.core.atomic import atomic_write_files
from chartprobe.eval_tasks.report.study import LABELS, STUDY_FORMAT, format_study

from .config import ConfigError, TrainConfig
from .loop import LoopConfig, eval_env, lm_eval_argv, run_lm_eval
from .regions import RegionSet


def parse_seeds(text: str) -> list[int]:
    """``"42,43,44"`` -> ``[42, 43, 44]``; a clear error for anything else."""
    try:
        seeds = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"--seeds {text}: give comma-separated integers, e.g. 42,43,44") from None
    if not seeds or any(s < 0 for s in seeds) or len(set(seeds)) != len(seeds):
        raise ConfigError(f"--seeds {text}: give distinct non-negative integers, e.g. 42,43,44")
    return seeds


def _stat(values: Sequence[float]) -> dict[str, Any]:
    return {"mean": fmean(values), "sd": stdev(values) if len(values) > 1 else 0.0, "n_seeds": len(values)}


def parse_skill_sets(text: str) -> list[str]:
    """``"P,G,SR,P+G,P+G+SR"`` -> the skill sets, each checked as ``--skills`` is."""
    from .select import SelectionError, parse_skills

    sets = [x.strip() for x in text.split(",") if x.strip()]
    if not sets or len(set(sets)) != len(sets):
        raise ConfigError(f"--skill-sets {text}: give distinct skill sets, e.g. P,G,SR,P+G,P+G+SR")
    for one in sets:
        try:
            parse_skills(one)
        except SelectionError as exc:
            raise ConfigError(f"--skill-sets {text}: {exc}") from None
    return sets


def settings(cfg: TrainConfig, loop: LoopConfig, budget: int | None, profile: str | None
             ) -> list[tuple[str, str, dict[str, Any]]]:
    """(key, label, TrainConfig changes) of each fine-tuned setting, in table order."""
    if loop.skill_sets:
        return [(s, s, {"select": "atomic", "skills": s, "budget": None, "volume_matched": cfg.volume_matched,
                        "profile": None}) for s in parse_skill_sets(loop.skill_sets)]
    return [(mode, LABELS[mode], {"select": mode, "budget": budget, "volume_matched": None,
                                  "profile": profile if mode == "bottleneck" else None})
            for mode in ("random", "bottleneck")]


def _rows(profile: Mapping[str, Any], rs: RegionSet) -> dict[str, float]:
    """The numbers one evaluation contributes to the capability table, by row name."""
    sec = profile["benchmarks"][rs.name]
    out = {f"{rs.default_dimension}={v}": c["accuracy"] for v, c in sec["regions"].get(rs.default_dimension, {}).items()}
    out["all rows"] = sec["mean"]["accuracy"]
    out.update(rs.study_rows(sec))  # the paper's headline metrics (LegendBench: QA / Chain Acc, CR, AF1)
    out.update({f"CR {d} (fuzzy)": c["fuzzy"] for d, c in sec.get("complex", {}).items() if c.get("fuzzy") is not None})
    out.update({f"{task} {metric} (lm-eval)": value for task, metrics in profile.get("lm_eval_tasks", {}).items()
                for metric, value in metrics.items() if isinstance(value, (int, float))})
    return out


def study_tables(profiles: Mapping[str, Sequence[Mapping[str, Any]]], rs: RegionSet) -> dict[str, Any]:
    """Mean ± sd over seeds per setting (``profiles``' keys, in order): the capability table and the crossed table."""
    capability: dict[str, dict[str, Any]] = {}
    for setting in profiles:
        per_run = [_rows(p, rs) for p in profiles.get(setting, [])]
        for name in sorted({k for r in per_run for k in r}):
            values = [r[name] for r in per_run if name in r]
            if values:
                capability.setdefault(name, {})[setting] = _stat(values)
    crossed: dict[str, dict[str, Any]] = {}
    for setting in profiles:
        cells: dict[str, list[float]] = {}
        for p in profiles.get(setting, []):
            for v, c in p["benchmarks"][rs.name]["regions"].get(rs.table_dimension, {}).items():
                cells.setdefault(v, []).append(c["accuracy"])
        crossed[setting] = {v: _stat(x) for v, x in sorted(cells.items())}
    return {"capability": capability, "crossed": crossed, "crossed_dimension": rs.table_dimension,
            "crossed_title": rs.table_title}


def _base_profile(cfg: TrainConfig, loop: LoopConfig, rs: RegionSet, configs: list[str], env: dict[str, str]) -> Path:
    """The selection profile: ``--profile`` as given, else the base model on the validation split."""
    from .profile import ProfileError, section
    from .profile_sources import load_profile

    out = Path(cfg.out)
    if cfg.profile:
        profile, path = load_profile(cfg.profile, cfg.profile_model), Path(cfg.profile)
    else:
        folder = out / "eval" / "base_validation"
        run_lm_eval(lm_eval_argv(cfg.model, loop.profile_tasks or rs.validation_tasks(configs), folder, loop), env,
                    in_process=loop.eval_in_process)
        profile, path = load_profile(folder), out / "profile_base_validation.json"
        atomic_write_files({path: json.dumps(profile, indent=1)})
    splits = section(profile, rs.name).get("splits", {})
    if "test" in splits:
        raise ProfileError(f"the study's selection profile ({path}) holds {splits['test']} test rows: the study "
                           "reports on the test split, so profile on validation (--profile-tasks chartprobe_*_val)")
    return path


def run_study(cfg: TrainConfig, loop: LoopConfig) -> dict[str, Any]:
    """Run the whole study (see the module docstring); return what ``study.json`` holds."""
    from .data import resolve_source, training_configs
    from .profile import section
    from .profile_sources import load_profile
    from .sft import train

    seeds = parse_seeds(loop.seeds or "")
    budget = cfg.budget or cfg.volume_matched
    if not budget and not loop.skill_sets:
        raise ConfigError("--seeds runs Random FT and Bottleneck FT at the same budget: give --budget N")
    rs = resolve_source(cfg.data).regions
    out, env = Path(cfg.out), eval_env(cfg.data)
    tasks = loop.eval_tasks or rs.test_tasks
    profile_path = None if loop.skill_sets else _base_profile(cfg, loop, rs, training_configs(cfg), env)
    plan = settings(cfg, loop, budget, str(profile_path) if profile_path else None)
    base_dir = Path(loop.base_eval) if loop.base_eval else out / "eval" / "base"
    if not loop.base_eval:
        run_lm_eval(lm_eval_argv(cfg.model, tasks, base_dir, loop), env, in_process=loop.eval_in_process)
    profiles: dict[str, list[dict[str, Any]]] = {"base": [load_profile(base_dir)], **{k: [] for k, _, _ in plan}}
    runs: dict[str, list[str]] = {"base": [str(base_dir)], **{k: [] for k, _, _ in plan}}
    for seed in seeds:
        for key, _, changes in plan:
            run_out = out / f"{key}-seed{seed}"
            train(replace(cfg, seed=seed, out=str(run_out), **changes))
            run_lm_eval(lm_eval_argv(cfg.model, tasks, run_out / "eval" / "tuned", loop, adapter=run_out), env,
                        in_process=loop.eval_in_process)
            profiles[key].append(load_profile(run_out / "eval" / "tuned"))
            runs[key].append(str(run_out))
    splits = section(load_profile(profile_path, cfg.profile_model), rs.name).get("splits", {}) if profile_path else {}
    study = {"format": STUDY_FORMAT, "benchmark": rs.name, "model": cfg.model, "seeds": seeds,
             "budget": None if loop.skill_sets and not cfg.volume_matched else budget, "tasks": tasks,
             "limit": loop.eval_limit, "profile": str(profile_path) if profile_path else None,
             "profile_splits": splits, "design": "skill_sets" if loop.skill_sets else "selection",
             "settings": [["base", LABELS["base"]]] + [[k, label] for k, label, _ in plan], "runs": runs,
             "tables": study_tables(profiles, rs)}
    atomic_write_files({out / "study.json": json.dumps(study, indent=1), out / "study.md": format_study(study)})
    print(format_study(study))
    return study
