"""Every release opens with ``load_dataset(folder)`` alone: its card marks one config default (issue 21)."""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.dataset_builders.release.dataset import DATASETS

HEADLINE = {"probes": "bar", "legend": "snapshot", "judge": "cpa", "families": "all", "smoke": "default"}


@pytest.mark.parametrize("name", DATASETS.names())
def test_load_dataset_without_a_config_name_opens_the_headline_config(release_root, name):
    from datasets import load_dataset

    release = release_root / f"chartprobe-{name}"
    configs = read_card_metadata(release)["configs"]
    defaults = [c["config_name"] for c in configs if c.get("default")]
    assert defaults == [HEADLINE[name]], configs
    bare = load_dataset(str(release))
    named = load_dataset(str(release), HEADLINE[name])
    assert set(bare) == set(named) and all(bare[s].num_rows == named[s].num_rows for s in bare)
    assert bare[next(iter(bare))][0]["id"] == named[next(iter(named))][0]["id"]


def test_a_headline_config_left_out_of_a_preset_falls_back_to_the_first_built():
    from chartprobe.dataset_builders.release.card import default_of

    probes = DATASETS.get("probes")()
    assert default_of(probes, {"pie": {}, "hbar": {}}) == "pie"
    assert default_of(probes, {"pie": {}, "bar": {}}) == "bar"
