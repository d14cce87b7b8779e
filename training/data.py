"""From a chartprobe-probes release to the selected, formatted train/validation datasets.

Only the probe configs (``bar``, ``hbar``, ``pie``, ``shapes``) and their ``train`` /
``validation`` splits are ever opened: the ``cr_*`` configs and every ``test`` split are
evaluation data and cannot be named here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .select import (
    Selection,
    SelectionError,
    check_no_complex,
    parse_skills,
    select_rows,
    validation_budget,
)

RELEASE = "probes"
TRAIN_SPLITS = ("train", "validation")
META_COLUMNS = ("id", "chart_id", "skill", "template_id", "chart_kind", "domain", "held_out", "tier",
                "answer_type")


def resolve_data(data: str | None) -> dict[str, Any]:
    """``datasets.load_dataset`` arguments for ``--data`` (see ``TrainConfig.data``)."""
    if data is None:
        from chartprobe.eval_tasks.data import resolve_release

        return resolve_release(RELEASE)  # $CHARTPROBE_DATA or the pinned Hub revision
    path = Path(data).expanduser()
    for folder in (path, path / "chartprobe-probes"):
        if (folder / "README.md").is_file():
            return {"path": str(folder)}
    if path.exists() or data.startswith((".", "/", "~")):
        raise FileNotFoundError(f"--data {data}: no chartprobe-probes release (README.md) there or in "
                                f"{path / 'chartprobe-probes'}")
    repo, _, revision = data.partition("@")
    return {"path": repo, **({"revision": revision} if revision else {})}


def load_splits(data: str | None, domains: Iterable[str]) -> dict[str, Any]:
    """``{"train": Dataset, "validation": Dataset}`` over the given probe configs."""
    import datasets
    from chartprobe.dataset_builders.release.labels import as_text

    domains = list(domains)
    bad = [d for d in domains if d.startswith("cr_")]
    if bad or not domains:
        raise SelectionError(f"domains {domains}: choose probe configs (bar, hbar, pie, shapes); "
                             "cr_* configs hold held-out complex reasoning and are never trained on")
    args = resolve_data(data)
    parts: dict[str, list[Any]] = {s: [] for s in TRAIN_SPLITS}
    for domain in domains:
        for split in TRAIN_SPLITS:
            parts[split].append(as_text(datasets.load_dataset(name=domain, split=split, **args)))
    return {s: datasets.concatenate_datasets(v) for s, v in parts.items()}


def metadata(ds) -> list[dict[str, Any]]:
    """Row metadata (no image, spec or program): what selection works on."""
    cols = [c for c in META_COLUMNS if c in ds.column_names]
    return ds.select_columns(cols).to_list()


def subset(ds, ids: Iterable[str]):
    """Rows of ``ds`` whose id is in ``ids``; the images are never decoded."""
    keep = set(ids)
    out = ds.filter(lambda i: i in keep, input_columns=["id"])
    if out.num_rows != len(keep):
        raise SelectionError(f"selected {len(keep)} ids but found {out.num_rows} rows")
    check_no_complex(metadata(out))  # the guard again, on what is actually trained on
    return out


def select_splits(cfg, splits: dict[str, Any], accuracy: dict[str, float] | None) -> dict[str, Selection]:
    """Apply the configured selection to train, and the matching 90/10 share to validation."""
    skills = parse_skills(cfg.skills)
    common = {"accuracy": accuracy, "region": cfg.region, "ratio": cfg.bottleneck_ratio, "k": cfg.bottleneck_k,
              "seed": cfg.seed}
    train = select_rows(metadata(splits["train"]), cfg.select, skills, budget=cfg.budget,
                        volume_matched=cfg.volume_matched, **common)
    val_rows = metadata(splits["validation"])
    n_val = sum(r["skill"] in skills for r in val_rows)
    total = cfg.budget if cfg.budget is not None else cfg.volume_matched
    if cfg.select == "atomic" and cfg.volume_matched is None:
        val = select_rows(val_rows, "atomic", skills, **common)
    elif n_val == 0:  # nothing to validate on (the loss report is skipped)
        val = Selection(cfg.select, list(skills), cfg.region, [], {})
    else:
        n = min(validation_budget(total), n_val)
        val = select_rows(val_rows, cfg.select, skills, **common,
                          **({"volume_matched": n} if cfg.select == "atomic" else {"budget": n}))
    return {"train": train, "validation": val}
