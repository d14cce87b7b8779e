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
