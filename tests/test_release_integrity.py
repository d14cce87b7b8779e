"""Release integrity where data is read (issue #46, point 6 and acceptance 5): ``score``,
``validate`` and ``train`` recompute the release's content hash (or take it from the keyed digest
cache) and refuse, in one line naming both hashes, a release whose answers were rewritten with the
card's hash left stale; a card hash of 64 zeros; a stray or duplicated shard; conflicting duplicate
samples lines for one document."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from chartprobe.dataset_builders.release import integrity
from chartprobe.dataset_builders.release.card import read_card_metadata
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows

from chartprobe.cli import main

SHARD = "default/test-00000-of-00001.parquet"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A fresh small smoke release (20 rows, ~3 s), not the shared session one: these tests edit copies."""
    from chartprobe.dataset_builders.release.hub import build_release

    return build_release("smoke", tmp_path_factory.mktemp("built"), "small", num_proc=1).path


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Each test its own digest cache (on disk and in memory), so no verdict leaks between tests."""
    monkeypatch.setenv(integrity.CACHE_ENV, str(tmp_path / "digests"))
    monkeypatch.setattr(integrity, "_MEMORY", {})


@pytest.fixture
def release(built, tmp_path) -> Path:
    dest = tmp_path / "releases" / built.name
    shutil.copytree(built, dest)
    return dest


def _hash(release: Path) -> str:
    return read_card_metadata(release)["chartprobe"]["content_hash"]


def _rewrite_answers(release: Path) -> None:
    """Every answer replaced, the card (and its content hash) left as the build wrote it."""
    path = release / SHARD
    table = pq.read_table(path)
    i = table.column_names.index("answer")
    table = table.set_column(i, table.schema.field(i), pa.array(["forged"] * table.num_rows, table.schema.field(i).type))
    pq.write_table(table, path)


def _zero_hash(release: Path) -> None:
    readme = release / "README.md"
    readme.write_text(readme.read_text().replace(_hash(release), "0" * 64))


def _extra_shard(release: Path) -> None:
    """The duplicated-shard case of the issue: the split now holds 40 rows, its card says 20."""
    shard = release / SHARD
    shutil.copy(shard, release / "default/test-00001-of-00002.parquet")
    shard.rename(release / "default/test-00000-of-00002.parquet")


def _stray_copy(release: Path) -> None:
    shutil.copy(release / SHARD, release / "default/test-copy.parquet")


TAMPERED = {"answers-rewritten": _rewrite_answers, "zero-hash": _zero_hash, "extra-shard": _extra_shard,
            "stray-copy": _stray_copy}
MESSAGE = {"answers-rewritten": "the data changed after the build", "zero-hash": "content hash is zeros",
           "extra-shard": "holds 40 rows, the card says 20", "stray-copy": "test-copy.parquet is not a shard"}


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error: "), err
    return err[0]


def _samples(tmp_path: Path, release: Path, lines=None) -> Path:
    rows = load_release_rows(release)[("default", "test")] if lines is None else None
    folder = tmp_path / "runs" / "m"
    folder.mkdir(parents=True, exist_ok=True)
    lines = lines if lines is not None else [
        {"doc_id": i, "doc": r, "resps": [[r["answer"]]], "filtered_resps": [r["answer"]]} for i, r in enumerate(rows)]
    (folder / "samples_chartprobe_smoke_2026-03-01T00-00-00.000001.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines))
    return tmp_path / "runs"


@pytest.mark.parametrize("tamper", TAMPERED)
def test_score_refuses_a_tampered_release(release, tmp_path, capsys, tamper):
    runs = _samples(tmp_path, release)  # made on the genuine release
    genuine = _hash(release)
    TAMPERED[tamper](release)
    out = tmp_path / "results.json"
    assert main(["score", "--predictions", str(runs), "--releases", str(release.parent), "--out", str(out)]) == 2
    line = _one_line(capsys)
    assert MESSAGE[tamper] in line and not out.exists(), line
    if tamper == "answers-rewritten":  # both hashes, whole
        hashes = re.findall(r"[0-9a-f]{64}", line)
        assert genuine in hashes and len(set(hashes)) == 2, line


@pytest.mark.parametrize("tamper", TAMPERED)
def test_validate_refuses_a_tampered_release(release, tmp_path, capsys, tamper):
    TAMPERED[tamper](release)
    assert main(["validate", str(release), "--out", str(tmp_path / "v")]) == 2
    assert MESSAGE[tamper] in _one_line(capsys)
    assert not (tmp_path / "v").exists()


def _as_probes(release: Path) -> None:
    """Relabel the smoke release as a (tiny) probes release with bar train/validation splits, so
    ``train``'s argument checks pass and only the data decides; its card hash is recomputed."""
    from chartprobe.dataset_builders.release.digest import content_hash
    from chartprobe.dataset_builders.release.verify import _open_splits

    (release / "bar").mkdir()
    for split in ("train", "validation"):
        shutil.copy(release / SHARD, release / f"bar/{split}-00000-of-00001.parquet")
    shutil.rmtree(release / "default")
    meta = read_card_metadata(release)
    meta["configs"] = [{"config_name": "bar", "data_files": [
        {"split": s, "path": f"bar/{s}-*.parquet"} for s in ("train", "validation")]}]
    info = meta["dataset_info"][0]
    info["config_name"] = "bar"
    info["splits"] = [{**info["splits"][0], "name": s} for s in ("train", "validation")]
    meta["chartprobe"]["dataset"] = "probes"
    files = [f"bar/{s}-00000-of-00001.parquet" for s in ("train", "validation")]
    meta["chartprobe"]["content_hash"] = content_hash(_open_splits(release, meta, files))
    import yaml

    (release / "README.md").write_text(f"---\n{yaml.safe_dump(meta, sort_keys=False)}---\n")


@pytest.mark.parametrize("tamper", ["answers-rewritten", "zero-hash", "extra-shard"])
def test_train_refuses_a_tampered_release_before_loading_a_model(release, tmp_path, capsys, tamper):
    _as_probes(release)
    shard = release / "bar/train-00000-of-00001.parquet"
    if tamper == "answers-rewritten":
        table = pq.read_table(shard)
        i = table.column_names.index("answer")
        pq.write_table(table.set_column(i, table.schema.field(i), pa.array(["x"] * table.num_rows)), shard)
    elif tamper == "zero-hash":
        _zero_hash(release)
    else:
        shutil.copy(shard, release / "bar/train-00001-of-00002.parquet")
        shard.rename(release / "bar/train-00000-of-00002.parquet")
    (tmp_path / "model").mkdir()  # an empty folder: a model load would fail differently
    rc = main(["train", "--model", str(tmp_path / "model"), "--data", str(release), "--out", str(tmp_path / "run")])
    assert rc == 2
    line = _one_line(capsys)
    assert str(release) in line and {"answers-rewritten": "changed after the build", "zero-hash": "content hash is zeros",
                                     "extra-shard": "holds 40 rows"}[tamper] in line, line
    assert not (tmp_path / "run").exists()


def test_the_relabelled_release_passes_so_train_refusals_are_the_data(release):
    _as_probes(release)
    meta = read_card_metadata(release)
    assert integrity.check_release_integrity(release, meta) == meta["chartprobe"]["content_hash"]


def test_a_verified_digest_is_cached_and_any_rewrite_forces_a_recompute(release, monkeypatch):
    from chartprobe.dataset_builders.release import digest

    calls = []
    real = digest.content_hash
    monkeypatch.setattr(digest, "content_hash", lambda r: calls.append(1) or real(r))
    meta = read_card_metadata(release)
    assert integrity.check_release_integrity(release, meta) == _hash(release)
    integrity._MEMORY.clear()  # a second process: the on-disk cache answers
    assert integrity.check_release_integrity(release, meta) == _hash(release)
    assert len(calls) == 1
    table = pq.read_table(release / SHARD)  # the same bytes written again: new ctime, so re-hashed
    pq.write_table(table, release / SHARD)
    assert integrity.check_release_integrity(release, meta) == _hash(release) and len(calls) == 2
    _rewrite_answers(release)
    with pytest.raises(integrity.IntegrityError, match="changed after the build"):
        integrity.check_release_integrity(release, meta)


def test_conflicting_duplicate_samples_lines_are_refused_identical_ones_deduplicated(release, tmp_path, capsys):
    rows = load_release_rows(release)[("default", "test")]
    line = {"doc_id": 0, "doc": rows[0], "resps": [[rows[0]["answer"]]], "filtered_resps": [rows[0]["answer"]]}
    runs = _samples(tmp_path, release, [line, line])
    out = tmp_path / "r.json"
    args = ["score", "--predictions", str(runs), "--releases", str(release.parent), "--allow-partial"]
    assert main([*args, "--out", str(out)]) == 0  # an identical repeat: one record
    records = json.loads(out.read_text())["models"]["m"]["records"]["smoke"]  # columns
    assert records["id"] == [rows[0]["id"]] and records["correct"] == [True]
    other = {**line, "doc_id": 1, "resps": [["no"]], "filtered_resps": ["no"]}
    runs = _samples(tmp_path, release, [line, other])
    capsys.readouterr()
    assert main([*args, "--out", str(tmp_path / "r2.json")]) == 2
    message = _one_line(capsys)
    assert "two different answers" in message and "'no'" in message, message
    assert not (tmp_path / "r2.json").exists()
