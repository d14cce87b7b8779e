"""The `chartprobe` command line: render determinism per kind, one-line errors, build, push."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from chartprobe.dataset_builders.core.charts import CHARTS
from chartprobe.dataset_builders.core.rng import rng_for

from chartprobe.cli import main

CLI = [sys.executable, "-m", "chartprobe"]


def run_cli(*args, env=None):
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, env=full_env, check=False)


@pytest.mark.parametrize("kind", CHARTS.names())
def test_render_is_byte_identical_across_runs_and_processes(kind, tmp_path):
    spec = CHARTS.get(kind)().sample(rng_for(2026, "cli", kind))
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(spec.to_json())
    assert main(["render", str(spec_file), "--out", str(tmp_path / "a.png"),
                 "--boxes", str(tmp_path / "a.json")]) == 0
    assert main(["render", str(spec_file), "--out", str(tmp_path / "b.png")]) == 0
    proc = run_cli("render", spec_file, "--out", tmp_path / "c.png", env={"PYTHONHASHSEED": "7"})
    assert proc.returncode == 0, proc.stderr
    a, b, c = ((tmp_path / f"{x}.png").read_bytes() for x in "abc")
    assert a[:8] == b"\x89PNG\r\n\x1a\n"
    assert a == b == c
    boxes = json.loads((tmp_path / "a.json").read_text())
    assert any(k.startswith("mark/") for k in boxes)
    assert all(0 <= v <= 1 for box in boxes.values() for v in box)


def _bar_dict():
    return {"version": "chartprobe.spec/1", "kind": "bar",
            "data": {"categories": ["A", "B", "C"], "series": [{"name": "S", "values": [1, 2, 3]}]},
            "encodings": [{"color": "#336699"}]}


def _pie_dict():
    return {"version": "chartprobe.spec/1", "kind": "pie",
            "data": {"categories": ["A", "B", "C"], "series": [{"name": "Share", "values": [50, -20, 70]}]},
            "encodings": [{"color": "#336699"}, {"color": "#993366"}, {"color": "#669933"}],
            "legend": {"form": "box"}}


def _set(path, value):
    def apply(d):
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return apply


@pytest.mark.parametrize("base,mutate,field", [
    (_bar_dict, _set(("kind",), "sunburst"), "spec.kind"),
    (_bar_dict, _set(("data", "series", 0, "values"), [1, 2]), "spec.data.series[0].values"),
    (_bar_dict, _set(("data", "series", 0, "values"), [1, "NaN", 3]), "spec.data.series[0].values[1]"),
    (_pie_dict, _set(("kind",), "pie"), "spec.data.series[0].values[1]"),
], ids=["unknown-kind", "length-mismatch", "nan", "negative-pie"])
def test_malformed_spec_exits_nonzero_with_one_line(base, mutate, field, tmp_path):
    d = base()
    mutate(d)
    (tmp_path / "bad.json").write_text(json.dumps(d).replace('"NaN"', "NaN"))
    proc = run_cli("render", tmp_path / "bad.json", "--out", tmp_path / "x.png")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"chartprobe: error: {field}:"), proc.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_missing_file_and_bad_json(tmp_path):
    assert main(["render", str(tmp_path / "nope.json"), "--out", str(tmp_path / "x.png")]) == 2
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["render", str(tmp_path / "bad.json"), "--out", str(tmp_path / "x.png")]) == 2


def test_build_bad_input_is_one_line(tmp_path, capsys):
    assert main(["build", "nosuchdataset", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown dataset 'nosuchdataset'" in err[0]
    assert main(["build", "smoke", "--preset", "enormous", "--out", str(tmp_path)]) == 2
    assert "preset file not found" in capsys.readouterr().err
    assert main(["build", "smoke", "--num-proc", "0", "--out", str(tmp_path)]) == 2
    assert list(tmp_path.iterdir()) == []


def test_list_and_tasks_path(capsys):
    assert main(["list", "charts"]) == 0
    assert capsys.readouterr().out.split() == CHARTS.names()
    assert main(["list", "datasets"]) == 0
    assert "smoke" in capsys.readouterr().out.split()


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    from chartprobe.dataset_builders.release.hub import build_release

    return build_release("smoke", tmp_path_factory.mktemp("push"), "small").path


def test_push_dry_run_prints_plan_and_no_token(release, capsys, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_SECRETSECRETSECRET")
    assert main(["push", str(release), "--repo", "me/chartprobe-smoke", "--tag", "v0.1.0", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "create dataset repo me/chartprobe-smoke" in out and "tag the commit v0.1.0" in out
    assert "default/test-00000-of-00001.parquet" in out and "dry run" in out
    assert "SECRET" not in out


@pytest.mark.parametrize("args,msg", [
    (["--repo", "noslash", "--tag", "v1.0.0"], "--repo must look like ORG/NAME"),
    (["--repo", "me/x", "--tag", "1.0"], "--tag must look like vX.Y.Z"),
])
def test_push_rejects_bad_arguments(release, args, msg, capsys):
    assert main(["push", str(release), *args, "--dry-run"]) == 2
    assert msg in capsys.readouterr().err


def test_push_offline_fails_with_one_line(release):
    proc = run_cli("push", release, "--repo", "me/x", "--tag", "v1.0.0",
                   env={"HF_HUB_OFFLINE": "1", "HF_TOKEN": "hf_SECRETSECRET"})
    assert proc.returncode == 2
    assert "SECRET" not in proc.stdout + proc.stderr
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "cannot reach the Hub" in proc.stderr


def test_push_contract_against_loopback_hub(release, capsys, monkeypatch):
    """Contract test of our Hub calls (create_repo, upload_folder, create_tag) on 127.0.0.1."""
    from fake_hub import COMMIT_OID, fake_hub

    monkeypatch.setenv("HF_TOKEN", "hf_SECRETSECRETSECRET")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with fake_hub() as (endpoint, calls):
        assert main(["push", str(release), "--repo", "me/chartprobe-smoke", "--tag", "v0.1.0",
                     "--endpoint", endpoint]) == 0
    out = capsys.readouterr()
    assert "SECRET" not in out.out + out.err
    paths = [c["path"] for c in calls]
    assert paths[0] == "/api/repos/create"
    assert json.loads(calls[0]["body"]).items() >= {"name": "chartprobe-smoke", "organization": "me",
                                                    "type": "dataset"}.items()
    commit = next(c for c in calls if c["path"] == "/api/datasets/me/chartprobe-smoke/commit/main")
    sent = {json.loads(line)["value"].get("path") for line in commit["body"].decode().splitlines()}
    assert {"README.md", "default/test-00000-of-00001.parquet"} <= sent
    tag = calls[-1]
    assert tag["path"] == f"/api/datasets/me/chartprobe-smoke/tag/{COMMIT_OID}"
    assert json.loads(tag["body"])["tag"] == "v0.1.0"
    assert all(c["auth"] == "Bearer hf_SECRETSECRETSECRET" for c in calls)


def test_cli_parser_starts_without_heavy_imports():
    """`chartprobe --help`/`build` must not pay for torch, transformers, lm-eval or matplotlib."""
    code = ("import sys; from chartprobe.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('torch', 'transformers', 'trl', 'lm_eval', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    proc = run_cli("train", "--help")
    assert proc.returncode == 0 and "--skills" in proc.stdout and "--select" in proc.stdout
