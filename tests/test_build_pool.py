"""The build engine: one item-fed pool per build, and each distinct image stored once on disk."""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.release import pool as pool_mod
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.dataset_builders.release.hub import ReleaseError, build_release


@pytest.mark.parametrize("name", DATASETS.names())
def test_every_distinct_image_is_stored_once_and_reads_back_unchanged(release_root, name):
    import hashlib

    import pyarrow.parquet as pq
    from datasets import Image, load_dataset

    folder = release_root / f"chartprobe-{name}"
    for path in sorted(folder.glob("*/*.parquet")):
        meta = pq.ParquetFile(path).metadata
        table = pq.read_table(path)
        if "image" not in table.column_names or not len(table):
            continue
        images = [cell["bytes"] for cell in table.column("image").to_pylist()]
        distinct = {hashlib.sha256(b).digest(): len(b) for b in images}
        column = next(i for i in range(meta.num_columns)
                      if meta.row_group(0).column(i).path_in_schema == "image.bytes")
        stored = sum(meta.row_group(g).column(column).total_compressed_size for g in range(meta.num_row_groups))
        assert any("DICTIONARY" in e for e in meta.row_group(0).column(column).encodings)
        # the dictionary holds each distinct PNG once (plus small per-row indices)
        assert stored < sum(distinct.values()) + 16 * len(images) + 4096, (path, stored, sum(distinct.values()))
        config, split = path.parent.name, path.name.split("-")[0]
        ds = load_dataset(str(folder), config, split=split)
        assert isinstance(ds.features["image"], Image)
        if path.name.endswith("-00000-of-00001.parquet"):  # the split is this one file
            back = ds.cast_column("image", Image(decode=False))["image"]
            assert [c["bytes"] for c in back] == images


def _broken_build_item(self, preset, config, split, key):
    raise ZeroDivisionError("the chart has no data")
    yield


@pytest.mark.parametrize("num_proc", [1, 2])
def test_a_builder_error_is_one_line_naming_the_item(tmp_path, monkeypatch, num_proc):
    builder = type(DATASETS.get("smoke")())
    monkeypatch.setattr(builder, "build_item", _broken_build_item)  # forked workers inherit it
    # a worker of this run that drew with Vega earlier would use a fork server (bare: no patch); the smoke
    # builder never draws with Vega, so forking is safe here and keeps the patch
    monkeypatch.setattr(pool_mod, "_start_method", lambda: "fork")
    with pytest.raises(ReleaseError, match=r"building smoke default/test item '.+': "
                                           r"ZeroDivisionError: the chart has no data"):
        build_release("smoke", tmp_path, "small", num_proc=num_proc)
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_one_pool_serves_every_config_and_split_of_a_build(tmp_path, monkeypatch):
    starts = []
    real = pool_mod.item_pool

    def counted(dataset, preset, num_proc):
        starts.append((dataset, num_proc))
        return real(dataset, preset, num_proc)

    monkeypatch.setattr(pool_mod, "item_pool", counted)
    info = build_release("probes", tmp_path, "small", num_proc=2)
    assert starts == [("probes", 2)]
    assert sum(len(s) for s in info.num_rows.values()) > 10  # 10 configs, 18 splits, one pool


def test_items_are_handed_out_one_at_a_time_and_come_back_in_order(monkeypatch, tmp_path):
    """``imap`` with chunk size 1 over every item of every split, by a pool made once."""
    calls = []

    class FakePool:
        def __init__(self, n, initializer, initargs):
            initializer(*initargs)

        def imap(self, fn, tasks, chunksize):
            tasks = list(tasks)
            calls.append((chunksize, tasks))
            return map(fn, tasks)

        def terminate(self):
            calls.append("terminated")

        def join(self):
            pass

    class FakeContext:
        Pool = FakePool

    # the start method is beside the point here: a worker that drew with Vega earlier would ask for a fork server
    monkeypatch.setattr(pool_mod, "_start_method", lambda: "fork")
    monkeypatch.setattr(pool_mod.multiprocessing, "get_context", lambda method: FakeContext)
    info = build_release("smoke", tmp_path, "small", num_proc=2)
    (chunksize, tasks), end = calls
    assert chunksize == 1 and end == "terminated"
    builder = DATASETS.get("smoke")()
    from chartprobe.dataset_builders.release.preset import load_preset, preset_path

    preset = load_preset(preset_path("smoke", "small"))
    assert tasks == [("default", "test", k) for k in builder.item_keys(preset, "default", "test")]
    assert info.num_rows == {"default": {"test": 20}}
