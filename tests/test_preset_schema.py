"""The strict preset schema: every bad preset is refused with one line naming file and field,
before anything is written; every bundled preset loads."""

from __future__ import annotations

import argparse
import dataclasses
import typing
from pathlib import Path

import pytest
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.dataset_builders.release.preset import (
    CONFIG_DIR,
    MAX_ITEMS_PER_RELEASE,
    MAX_ITEMS_PER_SPLIT,
    ConfigPreset,
    Preset,
    PresetError,
    load_preset,
)
from chartprobe.dataset_builders.release.schema import OneOf

SMOKE = "dataset: smoke\npreset: small\nseed: 0\nshard_size: 4\nconfigs:\n"
BUNDLED = sorted(CONFIG_DIR.glob("*.yaml"))


def _write(tmp_path: Path, text: str, name: str = "x") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def _refusal(path: Path) -> str:
    with pytest.raises(PresetError) as err:
        load_preset(path)
    message = str(err.value)
    assert "\n" not in message, message
    assert message.startswith(f"{path}: "), message
    return message[len(f"{path}: "):]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_preset_loads(path):
    preset = load_preset(path)
    assert path.stem == f"{preset.dataset}-{preset.preset}"
    assert all(n >= 1 for c in preset.configs.values() for n in c.splits.values())


BAD = {
    # name-safety: a config or split name is one path component of the release folder
    "config_escape": (SMOKE + "  ../cfgescape: {splits: {test: 2}}\n", "configs.../cfgescape: '../cfgescape' is not a safe name"),
    "split_escape": (SMOKE + "  default: {splits: {../../escape: 2}}\n", "configs.default.splits.../../escape: "),
    "config_slash": (SMOKE + "  a/b: {splits: {test: 2}}\n", "configs.a/b: 'a/b' is not a safe name"),
    "config_dotdot": (SMOKE + "  a..b: {splits: {test: 2}}\n", "configs.a..b: 'a..b' is not a safe name"),
    "config_hidden": (SMOKE + "  .git: {splits: {test: 2}}\n", "configs..git: '.git' is not a safe name"),
    "split_dash": (SMOKE + "  default: {splits: {my-split: 2}}\n", "configs.default.splits.my-split: "),
    "config_int": (SMOKE + "  1: {splits: {test: 2}}\n", "configs: keys must be strings, got 1"),
    "case_clash": (SMOKE + "  Default: {splits: {test: 2}}\n  default: {splits: {test: 2}}\n",
                   "configs.default: differs from config 'Default' only in case"),
    "preset_name": ("dataset: smoke\npreset: ../up\nconfigs:\n  default: {splits: {test: 2}}\n",
                    "preset: '../up' is not a safe name"),
    # section types
    "config_list": (SMOKE + "  default: [1, 2]\n", "configs.default: must be a mapping, got list"),
    "params_str": (SMOKE + "  default: {splits: {test: 2}, params: bar}\n",
                   "configs.default.params: must be a mapping, got str 'bar'"),
    "splits_list": (SMOKE + "  default: {splits: [test]}\n", "configs.default.splits: must be a mapping"),
    "configs_empty": ("dataset: smoke\npreset: small\nconfigs: {}\n", "configs: must not be empty"),
    "top_list": ("- 1\n", "expected a mapping at the top level, got list"),
    "empty_file": ("", "expected a mapping at the top level, got an empty file"),
    # booleans are not counts, seeds or sizes
    "true_count": (SMOKE + "  default: {splits: {test: true}}\n",
                   "configs.default.splits.test: must be a positive integer, got true"),
    "true_seed": ("dataset: smoke\npreset: small\nseed: true\nconfigs:\n  default: {splits: {test: 2}}\n",
                  "seed: must be a non-negative integer, got true"),
    "negative_seed": ("dataset: smoke\npreset: small\nseed: -1\nconfigs:\n  default: {splits: {test: 2}}\n",
                      "seed: must be a non-negative integer, got -1"),
    "float_shard": ("dataset: smoke\npreset: small\nshard_size: 2.5\nconfigs:\n  default: {splits: {test: 2}}\n",
                    "shard_size: must be a positive integer, got 2.5"),
    # unknown keys, with the closest known one
    "typo_top": ("dataset: smoke\npreset: small\nsede: 5\nconfigs:\n  default: {splits: {test: 2}}\n",
                 "sede: unknown key (did you mean 'seed'?)"),
    "typo_config": (SMOKE + "  default: {split: {test: 2}}\n", "configs.default.split: unknown key (did you mean 'splits'?)"),
    "typo_param": (SMOKE + "  default: {splits: {test: 2}, params: {knd: bar}}\n",
                   "configs.default.params.knd: unknown key (did you mean 'kind'?); allowed: kind"),
    "missing_splits": (SMOKE + "  default: {params: {kind: bar}}\n", "configs.default.splits: missing required key"),
    "missing_dataset": ("preset: small\nconfigs:\n  default: {splits: {test: 2}}\n", "dataset: missing required key"),
    "param_type": (SMOKE + "  default: {splits: {test: 2}, params: {kind: 5}}\n",
                   "configs.default.params.kind: 5 is not one of area, bar"),
    "probes_param_type": (("dataset: probes\npreset: x\nconfigs:\n  bar: {splits: {test: 2}, "
                          "params: {probes_per_skill: '3'}}\n"),
                          "configs.bar.params.probes_per_skill: must be a non-negative integer, got '3'"),
    "families_param": ("dataset: families\npreset: x\nconfigs:\n  all: {splits: {test: 2}, params: {n: 1}}\n",
                       "configs.all.params.n: unknown key; allowed: released, released_sha256"),  # --released
    "legend_list_item": (("dataset: legend\npreset: x\nconfigs:\n  snapshot: {splits: {test: 2}, "
                         "params: {num_series: [3, true]}}\n"),
                         "configs.snapshot.params.num_series[1]: must be a non-negative integer, got true"),
    "legend_knob": (("dataset: legend\npreset: x\nconfigs:\n  snapshot: {splits: {test: 2}, "
                    "params: {chains_per_chart: two}}\n"),
                    "configs.snapshot.params.chains_per_chart: must be a non-negative integer, got 'two'"),
    "smoke_kind": (SMOKE + "  default: {splits: {test: 2}, params: {kind: sunburst}}\n",
                   "configs.default.params.kind: 'sunburst' is not one of area, bar"),
    "legend_study": ("dataset: legend\npreset: x\nconfigs:\n  s: {splits: {test: 2}, params: {study: colour}}\n",
                     "configs.s.params.study: 'colour' is not one of snapshot, "),
    "legend_kind": ("dataset: legend\npreset: x\nconfigs:\n  s: {splits: {test: 2}, params: {chart_kinds: [lin]}}\n",
                    "configs.s.params.chart_kinds[0]: 'lin' is not one of"),
    # what the builder knows
    "unknown_dataset": ("dataset: smok\npreset: small\nconfigs:\n  default: {splits: {test: 2}}\n",
                        "dataset: unknown dataset 'smok' (did you mean 'smoke'?)"),
    "unknown_judge_config": ("dataset: judge\npreset: x\nconfigs:\n  cpaa: {splits: {test: 2}}\n",
                             "configs.cpaa: unknown judge config 'cpaa'"),
    "unknown_probes_config": ("dataset: probes\npreset: x\nconfigs:\n  barr: {splits: {test: 2}}\n",
                              "configs.barr: unknown probes config 'barr'"),
    "unknown_families_config": ("dataset: families\npreset: x\nconfigs:\n  al: {splits: {test: 2}}\n",
                                "configs.al: unknown families config 'al'"),
    "judge_missing_pairs": ("dataset: judge\npreset: x\nconfigs:\n  cpa: {splits: {test: 2}}\n",
                            "configs.cpa.params: missing required key 'pairs'"),
    "judge_unknown_criterion": (("dataset: judge\npreset: x\nconfigs:\n  cpa: {splits: {test: 2}, "
                                "params: {pairs: {axis_scalin: 2}}}\n"), "configs.cpa: unknown CPA criteria"),
    # bounded work
    "empty_split": (SMOKE + "  default: {splits: {test: 0}}\n",
                    "configs.default.splits.test: must be a positive integer, got 0"),
    "huge_split": (SMOKE + "  default: {splits: {test: 1000000000}}\n",
                   f"configs.default.splits.test: must be at most {MAX_ITEMS_PER_SPLIT} (MAX_ITEMS_PER_SPLIT)"),
    "huge_param": (("dataset: judge\npreset: x\nconfigs:\n  cpa: {splits: {test: 2}, "
                   "params: {pairs: {aspect_ratio: 1000000000}}}\n"),
                   "configs.cpa.params.pairs.aspect_ratio: must be at most"),
    "pairs_expand": (("dataset: judge\npreset: x\nconfigs:\n  cpa: {splits: {test: 2}, params: {pairs: "
                     f"{{aspect_ratio: {MAX_ITEMS_PER_SPLIT}, axis_scaling: {MAX_ITEMS_PER_SPLIT}}}}}}}\n"),
                     f"configs.cpa.splits.test: expands to {2 * MAX_ITEMS_PER_SPLIT} items"),
    "huge_release": (SMOKE + "".join(f"  c{i}: {{splits: {{test: {MAX_ITEMS_PER_SPLIT}}}}}\n"
                                     for i in range(MAX_ITEMS_PER_RELEASE // MAX_ITEMS_PER_SPLIT + 1)),
                     "(MAX_ITEMS_PER_RELEASE)"),
    "too_many_splits": (SMOKE + "  default: {splits: {" + ", ".join(f"s{i}: 1" for i in range(17)) + "}}\n",
                        "configs.default.splits: 17 splits; at most 16"),
    # YAML itself
    "duplicate_key": (SMOKE + "  default: {splits: {test: 2}}\n  default: {splits: {test: 3}}\n",
                      "invalid YAML: line 7, column 3: duplicate key 'default'"),
    "broken_yaml": (SMOKE + "  default: {splits: {test: 2}\n", "invalid YAML: line "),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_presets_are_refused_with_the_field_named(tmp_path, case):
    text, expected = BAD[case]
    assert expected in _refusal(_write(tmp_path, text))


def test_refused_preset_writes_nothing(tmp_path):
    from chartprobe.dataset_builders.release.hub import build_release

    out = tmp_path / "out"
    for case in ("config_escape", "split_escape", "empty_split"):
        with pytest.raises(PresetError):
            build_release("smoke", out, _write(tmp_path, BAD[case][0], case))
    assert not out.exists() or not any(out.iterdir())  # not even a temp folder


@pytest.mark.parametrize("seed", [-1, True, 2**63])
def test_seed_override_is_checked_too(tmp_path, seed):
    from chartprobe.dataset_builders.release.hub import build_release

    with pytest.raises(PresetError, match="seed: must be"):
        build_release("smoke", tmp_path / "out", "small", seed=seed)
    assert not (tmp_path / "out" / "chartprobe-smoke").exists()


@pytest.mark.parametrize(("value", "message"), [("-1", "must be a non-negative integer, got -1"),
                                                ("x", "must be a non-negative integer, got 'x'"),
                                                (str(2**63), "must be at most")])
def test_cli_seed_is_a_usage_error(capsys, value, message):
    from chartprobe.dataset_builders.commands import add_parsers

    parser = argparse.ArgumentParser(prog="chartprobe")
    add_parsers(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["build", "smoke", "--out", "o", "--seed", value])
    assert exit_.value.code == 2
    assert f"argument --seed: {message}" in capsys.readouterr().err
    assert parser.parse_args(["build", "smoke", "--out", "o", "--seed", "7"]).seed == 7


def test_presets_made_in_code_are_checked():
    with pytest.raises(PresetError, match="shard_size: must be a positive integer, got 0"):
        Preset("smoke", "x", 0, {"default": ConfigPreset({"test": 1})}, shard_size=0)


_VOCABULARY = (int, float, str, bool)


def _declared_type_ok(tp) -> bool:
    origin = typing.get_origin(tp)
    if origin is list:
        return all(_declared_type_ok(a) for a in typing.get_args(tp))
    if origin is dict:
        key, value = typing.get_args(tp)
        return key is str and _declared_type_ok(value)
    if isinstance(tp, OneOf):
        return bool(tp.names()) and all(isinstance(n, str) for n in tp.names())
    return tp in _VOCABULARY


@pytest.mark.parametrize("name", DATASETS.names())
def test_every_builder_declares_its_params(name):
    declared = DATASETS.get(name).param_types
    assert isinstance(declared, dict) and declared
    for config, types in declared.items():
        assert isinstance(config, str) and isinstance(types, dict)
        assert all(_declared_type_ok(tp) for tp in types.values()), (config, types)


def test_legend_declares_every_dimension_of_its_space():
    from chartprobe.dataset_builders.legend.builder import SNAPSHOT_DEFAULTS, LegendDataset
    from chartprobe.dataset_builders.legend.space import LegendSpace

    dims = {f.name for f in dataclasses.fields(LegendSpace)} - {"extra"}
    # ``tables`` is a LegendSpace field (the --tables pool); ``tables_sha256`` only identifies it
    assert set(LegendDataset.param_types["*"]) == dims | set(SNAPSHOT_DEFAULTS) | {"study", "tables_sha256"}
