"""``build --shard I/N`` + ``merge``: the merged release is the unsharded build, hash included."""

from __future__ import annotations

import json
import sys

import pytest
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.dataset_builders.release.hub import ReleaseError, build_release
from chartprobe.dataset_builders.release.merge import merge_shards
from chartprobe.dataset_builders.release.plan import key_range
from chartprobe.dataset_builders.release.shards import parse_shard

from chartprobe.cli import main


def _shards(name: str, root, n: int = 3, **kw):
    return [build_release(name, root, "small", shard=(i, n), **kw).path for i in range(n)]


# Merged in full: the cheapest dataset, and the one whose derived configs are made at merge time. Each
# other dataset builds its last shard alone (a third of a build instead of a whole one) and matches it
# row for row against the unsharded build's tail: the merge itself is the same code for every dataset.
MERGED_IN_FULL = ("smoke", "families")


def _table(folder, files):
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pa.concat_tables([pq.read_table(folder / f) for f in sorted(files)])


@pytest.mark.parametrize("name", [n for n in DATASETS.names() if n not in MERGED_IN_FULL])
def test_the_last_shard_built_alone_is_the_unsharded_build_s_tail(name, release_root, tmp_path):
    whole = release_root / f"chartprobe-{name}"
    shard = build_release(name, tmp_path, "small", shard=(2, 3), num_proc=2).path
    splits = json.loads((shard / "shard.json").read_text())["splits"]
    assert set(splits) == {c["config_name"] for c in read_card_metadata(whole)["configs"]}
    for config, by_split in splits.items():
        for split, entry in by_split.items():
            part = _table(shard, entry["files"])
            full = _table(whole, [p.relative_to(whole) for p in (whole / config).glob(f"{split}-*.parquet")])
            assert 0 < part.num_rows == entry["rows"] < full.num_rows, (config, split)
            assert part.equals(full.slice(full.num_rows - part.num_rows)), (config, split)


@pytest.mark.parametrize("name", MERGED_IN_FULL)
def test_three_shards_merged_equal_the_unsharded_build(name, release_root, tmp_path):
    shards = _shards(name, tmp_path / "shards", num_proc=1 if name == "smoke" else 2)
    merged = merge_shards(list(reversed(shards)), tmp_path / "out")  # any order
    unsharded = read_card_metadata(release_root / f"chartprobe-{name}")["chartprobe"]
    assert merged.content_hash == unsharded["content_hash"]
    card = read_card_metadata(merged.path)
    whole = read_card_metadata(release_root / f"chartprobe-{name}")
    assert card["configs"] == whole["configs"] and card["dataset_info"] == whole["dataset_info"]


def test_a_shard_is_its_key_range_and_its_manifest_says_so(tmp_path):
    shards = _shards("smoke", tmp_path, n=2)
    manifests = [json.loads((s / "shard.json").read_text()) for s in shards]
    assert [m["shard"] for m in manifests] == [[0, 2], [1, 2]]
    assert [m["splits"]["default"]["test"]["items"] for m in manifests] == [10, 10]
    assert [s.name for s in shards] == ["chartprobe-smoke-shard-00000-of-00002", "chartprobe-smoke-shard-00001-of-00002"]


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_key_ranges_cover_every_key_once_in_order(n):
    keys = [f"k{i}" for i in range(10)]
    assert [k for i in range(n) for k in key_range(keys, (i, n))] == keys


@pytest.mark.parametrize("text,fragment", [("3/3", "0 <= I < N"), ("-1/2", "0 <= I < N"), ("1", "must be I/N"),
                                           ("a/b", "must be I/N"), ("0/0", "0 <= I < N")])
def test_bad_shard_specs_are_refused(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_shard(text)


def test_incomplete_duplicated_or_mixed_shards_are_refused_and_write_nothing(tmp_path):
    shards = _shards("smoke", tmp_path / "a", n=3)
    other = build_release("smoke", tmp_path / "b", "small", shard=(2, 3), seed=5).path
    cases = [(shards[:2], "missing 2/3"), ([*shards, shards[0]], "given twice: 0/3"),
             ([*shards[:2], other], "another recipe")]
    for folders, fragment in cases:
        with pytest.raises(ReleaseError, match=fragment):
            merge_shards(folders, tmp_path / "out")
        assert not (tmp_path / "out").exists()


def test_merge_cli_prints_the_hash_the_build_prints(tmp_path, capsys, monkeypatch):
    for i in range(2):
        assert main(["build", "smoke", "--out", str(tmp_path / "s"), "--shard", f"{i}/2", "--quiet"]) == 0
    assert main(["build", "smoke", "--out", str(tmp_path / "whole"), "--quiet"]) == 0
    capsys.readouterr()
    args = ["merge", *map(str, sorted((tmp_path / "s").iterdir())), "--out", str(tmp_path / "m"), "--quiet"]
    monkeypatch.setattr(sys, "argv", ["chartprobe", *args])  # what the card records as the command
    assert main(args) == 0
    merged = capsys.readouterr().out.split("\t")[-1]
    whole = read_card_metadata(tmp_path / "whole" / "chartprobe-smoke")["chartprobe"]["content_hash"]
    assert merged.strip() == f"sha256:{whole}"
    assert "chartprobe merge" in read_card_metadata(tmp_path / "m" / "chartprobe-smoke")["chartprobe"]["command"]
