"""``load_config``: one ``load_dataset`` per release config and content hash in a process."""

from __future__ import annotations

import shutil

import datasets
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.rescoring.provenance import release_hash


def test_a_config_is_read_once_per_content_hash_and_anew_after_a_rebuild(smoke_release, tmp_path, monkeypatch):
    calls = []
    real = datasets.load_dataset
    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: calls.append(k) or real(*a, **k))
    folder = tmp_path / "chartprobe-smoke"
    shutil.copytree(smoke_release, folder)
    source = {"path": str(folder)}
    digest = release_hash("smoke", source)
    first = data.load_config(source, "default", digest)
    second = data.load_config(source, "default", digest)
    assert len(calls) == 1 and first is not second and first["test"] is second["test"]
    assert first["test"].to_list() == real(name="default", **source)["test"].to_list()
    calls.clear()
    card = folder / "README.md"  # a rebuild in place: a new content hash, the same rows here
    card.write_text(card.read_text().replace(digest, "f" * 64))
    assert release_hash("smoke", source) == "f" * 64
    data.load_config(source, "default", "f" * 64)
    assert len(calls) == 1


def test_a_card_without_a_hash_is_read_every_time(smoke_release, tmp_path, monkeypatch):
    calls = []
    real = datasets.load_dataset
    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: calls.append(k) or real(*a, **k))
    source = {"path": str(smoke_release)}
    for _ in range(2):
        data.load_config(source, "default", "")
    assert len(calls) == 2 and all(k["download_mode"] == "force_redownload" for k in calls)


def test_training_reads_a_local_release_once_and_a_hub_repo_by_split(release_root, monkeypatch):
    from chartprobe.training import data as training_data

    calls = []
    real = datasets.load_dataset
    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: calls.append(k) or real(*a, **k))
    data._load_memo.cache_clear()
    folder = str(release_root / "chartprobe-probes")
    first = training_data.load_splits(folder, ["bar"])
    second = training_data.load_splits(folder, ["bar"])
    assert len(calls) == 1 and "split" not in calls[0]  # every split of bar, once, then the memo
    assert first["train"].to_list() == second["train"].to_list() and len(first["validation"]) > 0

    calls.clear()  # a Hub repo: no card read for a hash, the splits trained on, as before
    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: calls.append(k) or real(folder, k["name"],
                                                                                          split=k["split"]))
    from chartprobe.eval_tasks.rescoring import provenance

    def no_card(*_):
        raise AssertionError("a Hub repo's card was read for a content hash")

    monkeypatch.setattr(provenance, "release_hash", no_card)
    hub = training_data.load_splits("chartprobe/chartprobe-probes@v0.1.0", ["bar"])
    assert [(k["path"], k["revision"], k["split"]) for k in calls] == [
        ("chartprobe/chartprobe-probes", "v0.1.0", "train"), ("chartprobe/chartprobe-probes", "v0.1.0", "validation")]
    assert len(hub["train"]) == len(first["train"])
