"""From a chartprobe-probes or chartprobe-legend release to the selected, formatted train/validation sets.

``--data`` names the benchmark (``probes``, ``legend``: its release from ``$CHARTPROBE_DATA`` or
the pinned Hub revision) or a location (a release folder, a folder holding
``chartprobe-probes/``, or a Hub dataset id); a release folder's card says which benchmark it
is. Only the training configs' ``train`` / ``validation`` splits are ever opened: ChartProbe's
``cr_*`` configs and every ``test`` split are evaluation data and cannot be named here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .regions import REGION_SETS, RegionSet, get_region_set
from .select import (
    Selection,
    SelectionError,
    check_no_complex,
    parse_skills,
    select_rows,
    validation_budget,
)

TRAIN_SPLITS = ("train", "validation")
META_COLUMNS = ("id", "chart_id", "skill", "template_id", "template", "chart_kind", "domain", "held_out", "tier",
                "answer_type", "capability", "chain_role", "expected", "channels")
"""Row columns selection may read (the image, specs and programs are never loaded)."""


@dataclass(frozen=True)
class DataSource:
    """The benchmark trained on and the ``datasets.load_dataset`` arguments of its release."""

    benchmark: str
    args: dict[str, Any]

    @property
    def regions(self) -> RegionSet:
        return get_region_set(self.benchmark)


def _benchmark_of_folder(folder: Path) -> str:
    from chartprobe.eval_tasks.rescoring.predictions import read_release_card

    dataset = read_release_card(folder)["chartprobe"]["dataset"]
    owners = {cls.release: name for name, cls in _sets().items()}
    if dataset not in owners:
        raise SelectionError(f"--data {folder}: a chartprobe-{dataset} release; training reads "
                             f"{', '.join(f'chartprobe-{r}' for r in sorted(owners))}")
    return owners[dataset]


def _sets() -> dict[str, type[RegionSet]]:
    get_region_set("probes")  # registers the built-in sets
    return dict(REGION_SETS)


def resolve_source(data: str | None) -> DataSource:
    """The benchmark and release arguments for ``--data`` (see ``TrainConfig.data``)."""
    from chartprobe.eval_tasks.rescoring.data import resolve_release

    if data is None or data in _sets():
        bench = data or "probes"
        return DataSource(bench, resolve_release(get_region_set(bench).release))
    path = Path(data).expanduser()
    if (path / "README.md").is_file():
        return DataSource(_benchmark_of_folder(path), {"path": str(path)})
    if (path / "chartprobe-probes" / "README.md").is_file():
        return DataSource("probes", {"path": str(path / "chartprobe-probes")})
    if path.exists() or data.startswith((".", "/", "~")):
        raise FileNotFoundError(f"--data {data}: no chartprobe release (README.md) there or in "
                                f"{path / 'chartprobe-probes'}")
    repo, _, revision = data.partition("@")
    bench = "legend" if "legend" in repo.rsplit("/", 1)[-1] else "probes"
    return DataSource(bench, {"path": repo, **({"revision": revision} if revision else {})})


def resolve_data(data: str | None) -> dict[str, Any]:
    """``datasets.load_dataset`` arguments for ``--data``."""
    return resolve_source(data).args


def training_configs(cfg) -> list[str]:
    """The configs trained from: ``--domains``, else the benchmark's default (probes ``bar``,
    legend ``snapshot``)."""
    return list(cfg.domains) if cfg.domains else list(resolve_source(cfg.data).regions.default_configs)


def load_splits(data: str | None, domains: Iterable[str]) -> dict[str, Any]:
    """``{"train": Dataset, "validation": Dataset}`` over the given training configs."""
    import datasets
    from chartprobe.dataset_builders.release.labels import as_text
    from chartprobe.eval_tasks.rescoring.data import load_config
    from chartprobe.eval_tasks.rescoring.provenance import release_hash

    domains = list(domains)
    bad = [d for d in domains if d.startswith("cr_")]
    if bad or not domains:
        raise SelectionError(f"domains {domains}: choose training configs (probes: bar, hbar, pie, shapes; "
                             "legend: snapshot); cr_* configs hold held-out complex reasoning and are never trained on")
    args = resolve_source(data).args
    local = Path(args["path"]).is_dir()
    # a local release: every split read once per process, its cached copy keyed by the content hash (a
    # release rebuilt in place is read anew); a Hub repo: the splits trained on, as datasets caches them
    digest = release_hash(args["path"], args) if local else ""

    def split_of(domain: str, split: str) -> Any:
        if local:
            return load_config(args, domain, digest)[split]
        return datasets.load_dataset(name=domain, split=split, **args)

    parts: dict[str, list[Any]] = {s: [] for s in TRAIN_SPLITS}
    for domain in domains:
        for split in TRAIN_SPLITS:
            parts[split].append(as_text(split_of(domain, split)))
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


def _regioned(rows: list[dict[str, Any]], rs: RegionSet, dimension: str) -> list[dict[str, Any]]:
    """Rows with their region under ``dimension`` (rows outside every region of it are left out)."""
    key = rs.dimension(dimension).key
    out = []
    for r in rows:
        value = key(r)
        if value is not None:
            out.append({**r, dimension: value})
    return out


def select_splits(cfg, splits: dict[str, Any], profile: dict[str, Any] | None) -> dict[str, Selection]:
    """Apply the configured selection to train, and the matching 90/10 share to validation."""
    from .profile import region_cells, section

    rs = resolve_source(cfg.data).regions
    region = cfg.region or rs.default_dimension
    stratum = rs.stratum_column or region
    train_rows = _regioned(metadata(splits["train"]), rs, region)
    val_rows = _regioned(metadata(splits["validation"]), rs, region)
    skills = (parse_skills(cfg.skills) if rs.stratum_column
              else tuple(sorted({str(r[stratum]) for r in train_rows})))
    cells = mean = None
    if profile is not None:
        cells = region_cells(profile, rs.name, region)
        mean = float(section(profile, rs.name)["mean"]["accuracy"])
    common = {"accuracy": cells, "region": region, "ratio": cfg.bottleneck_ratio, "k": cfg.bottleneck_k,
              "seed": cfg.seed, "mean": mean, "stratum": stratum, "template": rs.template_column}
    train = select_rows(train_rows, cfg.select, skills, budget=cfg.budget, volume_matched=cfg.volume_matched,
                        **common)
    train.details["benchmark"] = rs.name
    if profile is not None:
        train.details["profile_splits"] = section(profile, rs.name).get("splits", {})
    n_val = sum(r[stratum] in skills for r in val_rows)
    total = cfg.budget if cfg.budget is not None else cfg.volume_matched
    if cfg.select == "atomic" and cfg.volume_matched is None:
        val = select_rows(val_rows, "atomic", skills, **common)
    elif n_val == 0:  # nothing to validate on (the loss report is skipped)
        val = Selection(cfg.select, list(skills), region, [], {})
    else:
        n = min(validation_budget(total), n_val)
        val = select_rows(val_rows, cfg.select, skills, **common,
                          **({"volume_matched": n} if cfg.select == "atomic" else {"budget": n}))
    return {"train": train, "validation": val}
