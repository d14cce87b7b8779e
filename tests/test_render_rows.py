"""``chartprobe render`` reproduces the stored images of every release, whatever the spec kind.

Rows store their spec as JSON (a chart, ``chartprobe.spec/1``, or a shape scene,
``chartprobe.scene/1``); judge rows store two (``spec_better``/``image_better``...). For 8 rows
of every config of every small release, the command line renders each stored spec and the PNG
must equal the stored image byte for byte — after the row's recorded ``degradation`` for the
families' scraped originals and resolution rows (``families.images.degrade``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from chartprobe.dataset_builders.core.fields import SpecError
from chartprobe.dataset_builders.core.png_pad import strip_pad
from chartprobe.dataset_builders.core.specs import SPEC_KINDS, load_spec, render_spec
from chartprobe.dataset_builders.families.images import degrade

from chartprobe.cli import main

ROWS_PER_CONFIG = 8


def _pairs(columns: list[str]) -> list[tuple[str, str]]:
    """(spec column, image column) pairs of a table: ``spec``/``image``, ``spec_x``/``image_x``."""
    return [(c, "image" + c[len("spec"):]) for c in columns
            if c.startswith("spec") and "image" + c[len("spec"):] in columns]


def _sample_rows(config_dir: Path) -> list[dict]:
    """8 rows of a config, spread over its splits and over each split's rows."""
    rows: list[dict] = []
    files = sorted(config_dir.glob("*.parquet"))
    for f in files:
        table = pq.read_table(f)
        step = max(1, table.num_rows // ROWS_PER_CONFIG)
        rows += table.take(list(range(0, table.num_rows, step))[:ROWS_PER_CONFIG]).to_pylist()
    step = max(1, len(rows) // ROWS_PER_CONFIG)
    return rows[::step][:ROWS_PER_CONFIG]


def _configs(release_root: Path) -> list[Path]:
    return sorted(p for p in release_root.glob("chartprobe-*/*") if p.is_dir() and any(p.glob("*.parquet")))


def test_every_release_and_config_is_covered(release_root):
    names = {(p.parent.name, p.name) for p in _configs(release_root)}
    assert {("chartprobe-probes", "shapes"), ("chartprobe-probes", "cr_shapes"),
            ("chartprobe-judge", "cpa"), ("chartprobe-families", "resolution"),
            ("chartprobe-legend", "snapshot"), ("chartprobe-smoke", "default")} <= names


def test_chartprobe_render_reproduces_stored_images(release_root, tmp_path):
    checked: dict[str, int] = {}
    kinds = set()
    for config_dir in _configs(release_root):
        name = f"{config_dir.parent.name}/{config_dir.name}"
        rows = _sample_rows(config_dir)
        assert len(rows) == min(ROWS_PER_CONFIG, sum(pq.read_metadata(f).num_rows
                                                     for f in config_dir.glob("*.parquet"))), name
        for i, row in enumerate(rows):
            pairs = _pairs(list(row))
            assert pairs, f"{name}: no spec/image columns"
            for spec_col, image_col in pairs:
                spec_file, png_file = tmp_path / f"{i}-{spec_col}.json", tmp_path / f"{i}-{spec_col}.png"
                spec_file.write_text(row[spec_col])
                # a style-shift drawing: probes rows name the engine, legend rows their study level
                drawn_by = row.get("engine") or (row["study_level"].split("/")[0] if row.get("study_factor") == "style"
                                                 else None)
                engine = ["--engine", drawn_by] if drawn_by else []
                assert main(["render", str(spec_file), "--out", str(png_file), *engine]) == 0
                png = degrade(png_file.read_bytes(), row.get("degradation") or "")
                # Images shown together are padded to one file size (core/png_pad.py); the pad is not the render.
                stored = strip_pad(row[image_col]["bytes"])
                assert png == stored, f"{name} row {row['id']} {image_col}: render differs"
                kinds.add(json.loads(row[spec_col]).get("version"))
                checked[name] = checked.get(name, 0) + 1
    assert kinds == set(SPEC_KINDS)  # charts and shape scenes both went through the command
    assert all(n >= min(ROWS_PER_CONFIG, 1) for n in checked.values())


@pytest.mark.parametrize("version", sorted(SPEC_KINDS))
def test_load_and_render_every_spec_kind(probes_release, version):
    """Each registered kind loads from a stored probes row and renders with its own renderer."""
    for f in sorted(probes_release.glob("*/*.parquet")):
        for row in pq.read_table(f, columns=["spec", "image"]).to_pylist():
            if json.loads(row["spec"]).get("version") == version:
                spec = load_spec(row["spec"])
                assert isinstance(spec, SPEC_KINDS[version].spec_class)
                assert render_spec(spec).png == row["image"]["bytes"]
                return
    pytest.fail(f"no stored probes row has a {version} spec")


def test_unknown_spec_version_is_one_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": "chartprobe.map/9"}))
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("chartprobe: error: spec.version: unsupported version")
    assert not (tmp_path / "x.png").exists()
    with pytest.raises(SpecError, match="expected a JSON object"):
        load_spec("[1, 2]")
