"""Release presets: what to build, how much, and from which seed.

A preset is a YAML file ``dataset_builders/configs/<dataset>-<preset>.yaml`` (or any
path given with ``--preset``)::

    dataset: smoke
    preset: small
    seed: 0
    shard_size: 4          # read for older presets; items now go to workers one at a time
    configs:
      default:
        splits: {test: 20}
        params: {kind: bar}

:func:`load_preset` checks the whole file before anything is built or written, and refuses
with one :class:`PresetError` line naming the file and the field: unknown keys (with the
closest known one), wrong types (``true`` is not a count), config and split names that are
not one safe path component, empty splits, counts above the limits below, params the
builder does not declare (``DatasetBuilder.param_types``) and configs it does not know.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .recipe import (  # the dataclasses and limits live in recipe.py; re-exported here
    _PER_RELEASE,
    _PER_SPLIT,
    MAX_CONFIGS,
    MAX_ITEMS_PER_RELEASE,
    MAX_ITEMS_PER_SPLIT,
    MAX_PRESET_BYTES,
    MAX_SEED,
    MAX_SPLITS,
    ConfigPreset,
    Preset,
)
from .schema import (
    CONFIG_NAME,
    SPLIT_NAME,
    FieldError,
    PresetError,
    check_int,
    check_keys,
    check_mapping,
    check_name,
    check_value,
    did_you_mean,
)

__all__ = ["CONFIG_DIR", "MAX_CONFIGS", "MAX_ITEMS_PER_RELEASE", "MAX_ITEMS_PER_SPLIT", "MAX_PRESET_BYTES",
           "MAX_SEED", "MAX_SPLITS", "ConfigPreset", "Preset", "PresetError", "check_against_builder",
           "load_preset", "preset_from_dict", "preset_path"]

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"

TOP_KEYS = ("dataset", "preset", "seed", "shard_size", "configs")
CONFIG_KEYS = ("splits", "params")


def preset_path(dataset: str, preset: str) -> Path:
    """Path of a bundled preset file."""
    return CONFIG_DIR / f"{dataset}-{preset}.yaml"


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice in one mapping (YAML silently keeps the last,
    so a pasted config would quietly replace another)."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # `<<:` merges are meant to override
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
        except TypeError:  # unhashable: construct_mapping below reports it
            continue
        if duplicate:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_preset(source: str | Path) -> Preset:
    """Load and check a preset YAML file; raise one-line PresetError naming file and field."""
    path = Path(source)
    if not path.is_file():
        raise PresetError(f"preset file not found: {path}")
    try:
        if path.stat().st_size > MAX_PRESET_BYTES:
            raise PresetError(f"{path}: larger than {MAX_PRESET_BYTES} bytes (MAX_PRESET_BYTES)")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PresetError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise PresetError(f"{path}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    try:
        raw = yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass: plain data only
    except yaml.YAMLError as exc:
        raise PresetError(f"{path}: invalid YAML: {_yaml_problem(exc)}") from None
    try:
        preset = preset_from_dict(raw)
        check_against_builder(preset)
    except FieldError as exc:
        raise PresetError(f"{path}: {exc}") from None
    return preset


def _yaml_problem(exc: Exception) -> str:
    """A YAML error as one line: ``line 7, column 3: duplicate key 'default'``."""
    mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
    text = f"line {mark.line + 1}, column {mark.column + 1}: {problem}" if mark and problem else str(exc)
    return " ".join(text.split())


def preset_from_dict(raw: Any) -> Preset:
    """The schema: a parsed preset document -> :class:`Preset`; raise FieldError on the first bad field."""
    if not isinstance(raw, dict):
        got = "an empty file" if raw is None else type(raw).__name__
        raise FieldError("", f"expected a mapping at the top level, got {got}")
    check_mapping(raw, "", empty=True)  # an empty mapping: the missing keys are named below
    check_keys(raw, TOP_KEYS, "", required=("dataset", "preset", "configs"))
    if not isinstance(raw["dataset"], str) or not raw["dataset"]:
        raise FieldError("dataset", f"must be a dataset name, got {raw['dataset']!r}")
    check_name(raw["preset"], "preset")
    seed = check_int(raw.get("seed", 0), "seed", 0, MAX_SEED, "MAX_SEED")
    shard_size = check_int(raw.get("shard_size", 8), "shard_size", 1, MAX_ITEMS_PER_SPLIT, _PER_SPLIT)
    bodies = check_mapping(raw["configs"], "configs")
    if len(bodies) > MAX_CONFIGS:
        raise FieldError("configs", f"{len(bodies)} configs; at most {MAX_CONFIGS} (MAX_CONFIGS)")
    configs: dict[str, ConfigPreset] = {}
    folded: dict[str, str] = {}
    total = 0
    for name, body in bodies.items():
        where = f"configs.{name}"
        check_name(name, where, CONFIG_NAME)
        if name.lower() in folded:  # one folder on case-insensitive file systems
            raise FieldError(where, f"differs from config {folded[name.lower()]!r} only in case")
        folded[name.lower()] = name
        check_mapping(body, where)
        check_keys(body, CONFIG_KEYS, where, required=("splits",))
        splits = check_mapping(body["splits"], f"{where}.splits")
        if len(splits) > MAX_SPLITS:
            raise FieldError(f"{where}.splits", f"{len(splits)} splits; at most {MAX_SPLITS} (MAX_SPLITS)")
        for split, count in splits.items():
            check_name(split, f"{where}.splits.{split}", SPLIT_NAME)
            total += check_int(count, f"{where}.splits.{split}", 1, MAX_ITEMS_PER_SPLIT, _PER_SPLIT)
        params = body.get("params")
        params = {} if params is None else check_mapping(params, f"{where}.params", empty=True)
        configs[name] = ConfigPreset(splits=dict(splits), params=dict(params))
    if total > MAX_ITEMS_PER_RELEASE:
        raise FieldError("configs", f"{total} items in all; at most {MAX_ITEMS_PER_RELEASE} ({_PER_RELEASE})")
    return Preset(dataset=raw["dataset"], preset=raw["preset"], seed=seed, configs=configs,
                  shard_size=shard_size)


def check_against_builder(preset: Preset) -> None:
    """Check a preset against its dataset's builder; raise FieldError on the first mismatch.

    The dataset must be registered; each config's params must be the ones the builder declares
    in ``param_types`` (``{config or "*": {key: type}}``, "*" for every config not named; a
    builder without it takes no params), of the declared types; each config must be one the
    builder knows (``features``/``item_keys`` raise ValueError otherwise); and no split may
    expand to more than MAX_ITEMS_PER_SPLIT items. Item keys are cheap strings, not rows.
    """
    from .dataset import DATASETS  # here, not at the top: dataset.py imports this module

    if preset.dataset not in DATASETS:
        names = DATASETS.names()
        raise FieldError("dataset", f"unknown dataset {preset.dataset!r}{did_you_mean(preset.dataset, names)}; "
                         f"choose from: {', '.join(names)}")
    builder = DATASETS.get(preset.dataset)()
    declared = getattr(builder, "param_types", {})
    total = 0
    for name, config in preset.configs.items():
        where = f"configs.{name}"
        types = declared.get(name, declared.get("*", {}))
        check_keys(config.params, types, f"{where}.params")
        for key, value in config.params.items():
            check_value(value, types[key], f"{where}.params.{key}", MAX_ITEMS_PER_SPLIT, _PER_SPLIT)
        try:
            builder.features(name)
            counts = {split: len(builder.item_keys(preset, name, split)) for split in config.splits}
        except KeyError as exc:  # a param the builder requires (judge cpa: pairs) is missing
            raise FieldError(f"{where}.params", f"missing required key {exc}") from None
        except ValueError as exc:
            raise FieldError(where, " ".join(str(exc).split())) from None
        for split, n in counts.items():
            if n > MAX_ITEMS_PER_SPLIT:
                raise FieldError(f"{where}.splits.{split}",
                                 f"expands to {n} items; at most {MAX_ITEMS_PER_SPLIT} ({_PER_SPLIT})")
            total += n
    if total > MAX_ITEMS_PER_RELEASE:
        raise FieldError("configs", f"expands to {total} items in all; at most {MAX_ITEMS_PER_RELEASE} "
                         f"({_PER_RELEASE})")
