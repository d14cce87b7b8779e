"""Releases: Hub layout, content hash independent of --num-proc, offline load_dataset, atomicity."""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.dataset_builders.release.hub import ReleaseError, build_release


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    one = build_release("smoke", tmp_path_factory.mktemp("np1"), "small", num_proc=1)
    two = build_release("smoke", tmp_path_factory.mktemp("np2"), "small", num_proc=2)
    return one, two


def test_content_hash_independent_of_num_proc(two_builds):
    one, two = two_builds
    assert one.content_hash == two.content_hash
    assert one.num_rows == two.num_rows == {"default": {"test": 20}}


def test_hub_layout_and_card(two_builds):
    one, _ = two_builds
    files = sorted(p.relative_to(one.path).as_posix() for p in one.path.rglob("*") if p.is_file())
    assert files == ["README.md", "default/test-00000-of-00001.parquet"]
    meta = read_card_metadata(one.path)
    assert meta["configs"][0]["config_name"] == "default"
    assert meta["configs"][0]["data_files"] == [{"split": "test", "path": "default/test-*.parquet"}]
    assert meta["dataset_info"][0]["splits"][0]["num_examples"] == 20
    assert meta["chartprobe"]["content_hash"] == one.content_hash
    assert meta["chartprobe"]["generator_version"]
    assert "chartprobe build smoke" in meta["chartprobe"]["command"]
    assert meta["license"]


def test_load_dataset_reads_back_same_rows_and_image_bytes(two_builds):
    import pyarrow.parquet as pq
    from datasets import Image, load_dataset

    one, _ = two_builds
    ds = load_dataset(str(one.path), "default", split="test")
    assert isinstance(ds.features["image"], Image)
    assert len(ds) == 20 and len(set(ds["id"])) == 20
    written = pq.read_table(one.path / "default/test-00000-of-00001.parquet").to_pylist()
    raw = ds.cast_column("image", Image(decode=False))
    for got, want in zip(raw, written):
        assert got["image"]["bytes"] == want["image"]["bytes"]
        assert got["question"] == want["question"] and got["answer"] == want["answer"]
    img = ds[0]["image"]
    assert img.mode == "RGB" and img.size[0] > 100


def test_existing_release_needs_overwrite(tmp_path):
    build_release("smoke", tmp_path, "small")
    with pytest.raises(ReleaseError, match="already exists"):
        build_release("smoke", tmp_path, "small")
    info = build_release("smoke", tmp_path, "small", seed=5, overwrite=True)
    assert read_card_metadata(info.path)["chartprobe"]["seed"] == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chartprobe-smoke"]


def test_crash_leaves_no_half_release(tmp_path, monkeypatch):
    builder_cls = DATASETS.get("smoke")
    original = builder_cls.build_item

    def exploding(self, preset, config, split, key):
        if key.endswith("00013"):
            raise RuntimeError("disk on fire")
        yield from original(self, preset, config, split, key)

    monkeypatch.setattr(builder_cls, "build_item", exploding)
    with pytest.raises(Exception, match="disk on fire"):
        build_release("smoke", tmp_path, "small", num_proc=1)
    assert list(tmp_path.iterdir()) == []


def test_seed_changes_content(tmp_path):
    a = build_release("smoke", tmp_path / "a", "small", seed=1)
    b = build_release("smoke", tmp_path / "b", "small", seed=2)
    assert a.content_hash != b.content_hash
