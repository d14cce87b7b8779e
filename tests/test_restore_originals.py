"""``chartprobe restore-originals``: a Chartographer release's original charts, back from local copies of
the source benchmarks, each row's question checked, counted after the source's row filter as the
released exporter counts (compling-wat/Chartographer @ 1f02025c: ``load_examples`` filters, then
``export_chart_question_families.py`` enumerates).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from chartprobe.dataset_builders.families.released import read_released
from PIL import Image

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartographer"


def _png(color: tuple[int, int, int], size=(40, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def _pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def _originals(root: Path) -> dict[tuple[str, int], dict]:
    out = {}
    for path in root.rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["variant"] == "original":
                out[(row["source_dataset_split"], row["source_row_index"])] = row
    return out


def _source(folder: Path, rows: list[dict], images: dict[int, bytes]) -> Path:
    """An imagefolder-style local copy: metadata.jsonl with an ``image`` path per row."""
    (folder / "img").mkdir(parents=True)
    for i, row in enumerate(rows):
        (folder / "img" / f"{i}.png").write_bytes(images.get(i) or _png((i * 40 % 255, 90, 160)))
        row["image"] = f"img/{i}.png"
    (folder / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


@pytest.fixture()
def stripped(tmp_path):
    """The fixture release with its restored originals removed, and local copies of both source splits."""
    cg = tmp_path / "cg"
    shutil.copytree(FIXTURE, cg, ignore=shutil.ignore_patterns(".cache"))
    truth = {(split.name, int(f.stem)): f.read_bytes() for split in (cg / "originals").iterdir()
             for f in split.iterdir()}
    shutil.rmtree(cg / "originals")
    released = _originals(cg)
    sources = {}
    for split, key in (("chartmuseum_dev", "question"), ("charxiv_validation", "reasoning_q")):
        indices = sorted(i for s, i in released if s == split)
        rows = [{key: released[(split, i)]["question"] if (split, i) in released else f"filler {i}?"}
                for i in range(max(indices) + 2)]
        images = {i: truth.get((split, i)) or _png((10, 20, 30 + i)) for i in indices}
        sources[split] = _source(tmp_path / split, rows, images)
    return {"cg": cg, "truth": truth, "sources": sources, "released": released}


def _args(stripped) -> list[str]:
    return [a for split, path in stripped["sources"].items() for a in ("--source", f"{split}={path}")]


def test_the_originals_come_back_pixel_for_pixel_and_the_release_reads(stripped, capsys):
    cg = stripped["cg"]
    with pytest.raises(Exception, match="original"):
        read_released(cg)  # without the originals the importer refuses, naming where they go
    assert main(["restore-originals", str(cg), *_args(stripped), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "chartmuseum_dev 3, charxiv_validation 1" in out and "already there: 0" in out
    for (split, index), data in stripped["truth"].items():
        restored = (cg / "originals" / split / f"{index}.png").read_bytes()
        assert restored[:8] == b"\x89PNG\r\n\x1a\n"
        assert np.array_equal(_pixels(restored), _pixels(data)), (split, index)  # the JPEG original as RGB PNG
    assert read_released(cg).families
    # a second run finds them all in place and writes nothing
    assert main(["restore-originals", str(cg), *_args(stripped), "--quiet"]) == 0
    assert "originals written: none; already there: 4" in capsys.readouterr().out


def test_a_question_that_differs_writes_nothing(stripped, capsys):
    source = stripped["sources"]["charxiv_validation"]
    rows = [json.loads(x) for x in (source / "metadata.jsonl").read_text().splitlines()]
    rows[0]["reasoning_q"] = "A different question about another chart?"
    (source / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["restore-originals", str(stripped["cg"]), *_args(stripped), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not the same row, nothing written" in err[0] and "charxiv_validation" in err[0]
    assert not (stripped["cg"] / "originals").exists()
    assert not [p for p in stripped["cg"].iterdir() if p.name.startswith(".originals-")]


def test_an_index_past_the_source_is_one_line(stripped, capsys):
    source = stripped["sources"]["chartmuseum_dev"]
    rows = [json.loads(x) for x in (source / "metadata.jsonl").read_text().splitlines()][:1]
    (source / "metadata.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["restore-originals", str(stripped["cg"]), *_args(stripped), "--quiet"]) == 2
    assert "but chartmuseum_dev has 1 rows (after the source's row filter)" in capsys.readouterr().err


def test_chartqa_indices_count_human_rows_only(tmp_path, capsys):
    """The released config keeps ChartQA's human-written rows (human_or_machine == 0) before numbering."""
    release = tmp_path / "cg"
    release.mkdir()
    row = {"chart_id": "c000000", "question_id": "q000001", "variant": "original", "image": "",
           "question": "Which bar is the tallest?", "answer": "B", "chart_data": "",
           "source_dataset_split": "chartqa_val", "source_row_index": 1}
    (release / "val.jsonl").write_text(json.dumps(row) + "\n")
    rows = [{"query": "machine 0?", "label": ["1"], "human_or_machine": 1},
            {"query": "human 0?", "label": ["2"], "human_or_machine": 0},
            {"query": "machine 1?", "label": ["3"], "human_or_machine": 1},
            {"query": "Which bar is the tallest?", "label": ["B"], "human_or_machine": 0}]
    wanted = _png((200, 10, 10))
    source = _source(tmp_path / "chartqa", rows, {3: wanted})
    assert main(["restore-originals", str(release), "--source", f"chartqa_val={source}", "--quiet"]) == 0
    assert (release / "originals" / "chartqa_val" / "1.png").read_bytes() == wanted  # raw row 3, kept row 1


@pytest.mark.parametrize("args, message", [
    (["--source", "chartqa_val"], "expected SPLIT=SOURCE"),
    (["--columns", "image=img"], "no column for question"),
])
def test_bad_flags_are_one_line(tmp_path, args, message, capsys):
    assert main(["restore-originals", str(FIXTURE), *args, "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
