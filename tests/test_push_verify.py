"""``push`` verifies a release before anything is uploaded (issue #20, acceptance 5), the card's
byte counts do not depend on ``--num-proc``, and the judge client keeps its API key out of repr.

``push --dry-run`` refuses, with one line each: a truncated parquet, a stray file (``.env``),
a symlink, an edited shard (content hash differs from the card's) and a missing shard. The
real push commits exactly the verified files (contract test on the loopback hub).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chartprobe.cli import main

ARGS = ["--repo", "me/chartprobe-smoke", "--tag", "v0.1.0", "--dry-run"]
SHARD = "default/test-00000-of-00001.parquet"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from chartprobe.dataset_builders.release.hub import build_release

    return build_release("smoke", tmp_path_factory.mktemp("verify"), "small").path


@pytest.fixture
def release(built, tmp_path) -> Path:
    """A fresh copy of the built release, for one test to damage."""
    return Path(shutil.copytree(built, tmp_path / built.name))


def _dry_run_error(release: Path, capsys) -> str:
    assert main(["push", str(release), *ARGS]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err  # one line, no traceback
    assert "create dataset repo" not in captured.out  # no plan printed
    return lines[0]


def test_dry_run_accepts_the_release_as_built(release, capsys):
    assert main(["push", str(release), *ARGS]) == 0
    out = capsys.readouterr().out
    assert f"  {SHARD}" in out and "  README.md" in out and "upload 2 files" in out


def test_dry_run_refuses_a_truncated_parquet(release, capsys):
    shard = release / SHARD
    shard.write_bytes(shard.read_bytes()[:-200])
    line = _dry_run_error(release, capsys)
    assert f"{SHARD} is not a readable parquet file" in line and "rebuild the release" in line


def test_dry_run_refuses_a_stray_file(release, capsys):
    (release / ".env").write_text("HF_TOKEN=hf_SECRETSECRET\n")
    line = _dry_run_error(release, capsys)
    assert ".env is not a file a build writes" in line and "SECRET" not in line


def test_dry_run_refuses_stray_files_in_config_folders_and_symlinks(release, capsys, tmp_path):
    (release / "default" / "notes.txt").write_text("x")
    (release / "default" / "extra-00000-of-00001.parquet").write_bytes((release / SHARD).read_bytes())
    line = _dry_run_error(release, capsys)
    assert "default/extra-00000-of-00001.parquet (and 1 more) is not a file a build writes" in line
    (release / "default" / "notes.txt").unlink()
    (release / "default" / "extra-00000-of-00001.parquet").unlink()
    (tmp_path / "secret.txt").write_text("x")
    (release / "images").mkdir()
    (release / "images" / "plot.png").symlink_to(tmp_path / "secret.txt")
    assert "images/plot.png is a symlink" in _dry_run_error(release, capsys)


def test_dry_run_refuses_edited_rows_and_missing_shards(release, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    shard = release / SHARD
    table = pq.read_table(shard)
    answers = table.column("answer").to_pylist()
    edited = table.set_column(table.schema.get_field_index("answer"), table.schema.field("answer"),
                              pa.array([answers[0] + "0", *answers[1:]]))  # one answer changed, file valid
    pq.write_table(edited, shard)
    line = _dry_run_error(release, capsys)
    assert "the content hash of its parquet files is" in line and "the card says" in line
    shard.rename(release / "default" / "test-00001-of-00002.parquet")
    line = _dry_run_error(release, capsys)
    assert "default/test has shards ['default/test-00001-of-00002.parquet']" in line


def test_card_links_are_allowed_and_urls_are_not_files(release, capsys):
    """A builder's card_files are what the card links to (families: images/family_example.png)."""
    from chartprobe.dataset_builders.release.card import read_card_metadata
    from chartprobe.dataset_builders.release.verify import allowed_files

    card = release / "README.md"
    card.write_text(card.read_text() + "\n![grid](images/grid.png) [code](https://x.org/a.png) [up](../x.png)\n")
    (release / "images").mkdir()
    (release / "images" / "grid.png").write_bytes(b"png")
    assert allowed_files(release, read_card_metadata(release), card.read_text()) == [
        "README.md", SHARD, "images/grid.png"]
    (release / "x.png").write_bytes(b"png")  # linked only as ../x.png: outside, so not allowed
    assert "x.png is not a file a build writes" in _dry_run_error(release, capsys)


def test_push_commits_only_the_verified_files(release, capsys, monkeypatch):
    from fake_hub import fake_hub

    monkeypatch.setenv("HF_TOKEN", "hf_SECRETSECRETSECRET")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with fake_hub() as (endpoint, calls):
        assert main(["push", str(release), "--repo", "me/chartprobe-smoke", "--tag", "v0.1.0",
                     "--endpoint", endpoint]) == 0
    commit = next(c for c in calls if c["path"] == "/api/datasets/me/chartprobe-smoke/commit/main")
    sent = {json.loads(line)["value"].get("path") for line in commit["body"].decode().splitlines()}
    assert sent - {None} == {"README.md", SHARD}
    assert "SECRET" not in capsys.readouterr().out


def test_card_byte_counts_do_not_depend_on_num_proc(tmp_path):
    from chartprobe.dataset_builders.release.hub import build_release

    one = build_release("smoke", tmp_path / "np1", "small", num_proc=1)
    two = build_release("smoke", tmp_path / "np2", "small", num_proc=2)
    assert (one.path / "README.md").read_text() == (two.path / "README.md").read_text()


def test_content_bytes_follow_rows_not_chunks_or_selection():
    """The byte count is the same however the rows are chunked (as --num-proc workers write
    them) and counts a select()-ed split's rows, not the table under it."""
    import io

    import datasets
    from chartprobe.dataset_builders.release.card import content_bytes
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, "PNG")
    features = datasets.Features({"id": datasets.Value("string"), "image": datasets.Image(),
                                  "n": datasets.Value("int64"), "tags": datasets.Sequence(datasets.Value("string")),
                                  "s": {"a": datasets.Value("float32"), "b": [datasets.Value("string")]}})
    rows = [{"id": f"r{i}", "image": {"bytes": buf.getvalue(), "path": None}, "n": None if i % 5 == 0 else i,
             "tags": ["x"] * (i % 3), "s": {"a": 1.0, "b": ["q" * (i % 7)]}} for i in range(2100)]
    whole = datasets.Dataset.from_list(rows, features=features)
    chunked = datasets.concatenate_datasets([datasets.Dataset.from_list(rows[a:b], features=features)
                                             for a, b in ((0, 1), (1, 9), (9, 1100), (1100, 2100))])
    assert whole.data.nbytes != chunked.data.nbytes  # what the card used to record
    assert content_bytes(whole) == content_bytes(chunked)
    half = whole.select(range(0, 2100, 2))
    assert content_bytes(half) == content_bytes(chunked.select(range(0, 2100, 2)))
    assert content_bytes(half) == content_bytes(half.flatten_indices()) < content_bytes(whole) * 0.6


def test_judge_api_key_is_not_in_its_repr():
    from chartprobe.eval_tasks.answer_judge.equivalence import Judge

    judge = Judge(base_url="http://127.0.0.1:1/v1", model="judge", api_key="sk-SECRETSECRET")
    assert "SECRET" not in repr(judge) and "SECRET" not in str(judge)
    assert judge.api_key == "sk-SECRETSECRET" and "judge" in repr(judge)


def test_dry_run_from_the_shell_is_one_line(release):
    (release / ".env").write_text("x")
    proc = subprocess.run([sys.executable, "-m", "chartprobe.cli", "push", str(release), *ARGS],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()] and ".env" in proc.stderr
