"""Release presets: what to build, how much, and from which seed.

A preset is a YAML file ``dataset_builders/configs/<dataset>-<preset>.yaml`` (or any
path given with ``--config``)::

    dataset: smoke
    preset: small
    seed: 0
    shard_size: 4          # items per generator shard (never depends on --num-proc)
    configs:
      default:
        splits: {test: 20}
        params: {kind: bar}
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["CONFIG_DIR", "ConfigPreset", "Preset", "PresetError", "load_preset", "preset_path"]

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"


class PresetError(ValueError):
    """A preset file is missing or malformed."""


@dataclass(frozen=True)
class ConfigPreset:
    """One dataset config (Hub "subset"): its splits with item counts and builder params."""

    splits: dict[str, int]
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A whole release recipe."""

    dataset: str
    preset: str
    seed: int
    configs: dict[str, ConfigPreset]
    shard_size: int = 8

    def to_json(self) -> str:
        """Canonical JSON (recorded in the dataset card)."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    def params(self, config: str) -> dict[str, Any]:
        """Builder parameters of ``config``."""
        return self.configs[config].params


def preset_path(dataset: str, preset: str) -> Path:
    """Path of a bundled preset file."""
    return CONFIG_DIR / f"{dataset}-{preset}.yaml"


def load_preset(source: str | Path) -> Preset:
    """Load and check a preset YAML file; raise PresetError with the field named."""
    path = Path(source)
    if not path.is_file():
        raise PresetError(f"preset file not found: {path}")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise PresetError(f"{path}: invalid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise PresetError(f"{path}: expected a mapping at the top level")
    for key in ("dataset", "preset", "configs"):
        if key not in raw:
            raise PresetError(f"{path}: missing field {key!r}")
    seed = raw.get("seed", 0)
    shard_size = raw.get("shard_size", 8)
    if not isinstance(seed, int) or seed < 0:
        raise PresetError(f"{path}: seed must be a non-negative integer, got {seed!r}")
    if not isinstance(shard_size, int) or shard_size < 1:
        raise PresetError(f"{path}: shard_size must be a positive integer, got {shard_size!r}")
    if not isinstance(raw["configs"], dict) or not raw["configs"]:
        raise PresetError(f"{path}: configs must be a non-empty mapping")
    configs = {}
    for name, body in raw["configs"].items():
        splits = (body or {}).get("splits")
        if not isinstance(splits, dict) or not splits or not all(
                isinstance(n, int) and n >= 0 for n in splits.values()):
            raise PresetError(f"{path}: configs.{name}.splits must map split names to item counts")
        configs[str(name)] = ConfigPreset(splits={str(k): v for k, v in splits.items()},
                                          params=dict(body.get("params") or {}))
    return Preset(dataset=str(raw["dataset"]), preset=str(raw["preset"]), seed=seed,
                  configs=configs, shard_size=shard_size)
