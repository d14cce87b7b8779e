"""Group and resolution configs derived from ``all`` equal what the generator yields for them."""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.families.builder import FamiliesDataset, family_ids
from chartprobe.dataset_builders.families.derive import derived
from chartprobe.dataset_builders.release.preset import load_preset, preset_path
from datasets import Dataset, Image, load_dataset


def _raw_rows(release, config: str) -> list[dict]:
    ds = load_dataset(str(release), config, split="test").cast_column("image", Image(decode=False))
    return ds.to_list()


@pytest.mark.parametrize("config", ["timelines", "resolution"])
def test_a_derived_config_holds_the_generated_rows(release_root, config):
    """The release's (derived) rows of a config's first family are byte-identical to build_item's."""
    builder = FamiliesDataset()
    preset = load_preset(preset_path("families", "small"))
    key = family_ids(config, 1)[0]
    generated = list(builder.build_item(preset, config, "test", key))
    stored = [r for r in _raw_rows(release_root / "chartprobe-families", config) if r["family_id"] == key]
    assert len(stored) == len(generated) > 0
    for want, got in zip(generated, stored, strict=True):
        assert got["image"]["bytes"] == want["image"]["bytes"]
        assert {k: v for k, v in got.items() if k != "image"} == pytest.approx(
            {k: v for k, v in want.items() if k != "image"})


def _all_split(fids: list[str]) -> Dataset:
    roles = ["original", "reconstruction"]
    return Dataset.from_dict({"family_id": [f for f in fids for _ in roles], "role": roles * len(fids)})


def test_configs_asking_for_families_outside_all_are_generated():
    all_ds = _all_split(["a-0000", "b-0000"])
    assert derived("bars", ["a-0000", "a-0001"], all_ds, None) is None
    assert derived("resolution", ["c-0000"], all_ds, None) is None
    assert derived("all", ["a-0000"], all_ds, None) is None  # `all` is always generated
    assert derived("bars", ["a-0000"], None, None) is None  # `all` not built (yet)


def test_a_regrouped_config_keeps_its_own_family_order():
    all_ds = _all_split(["a-0000", "b-0000", "c-0000"])
    got = derived("bars", ["c-0000", "a-0000"], all_ds, None)
    assert got["family_id"] == ["c-0000", "c-0000", "a-0000", "a-0000"]
    assert got["role"] == ["original", "reconstruction"] * 2
