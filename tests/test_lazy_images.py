"""lm-eval's documents read their charts lazily: decoded when a model reads them, dropped soon after
(``eval_tasks/harness/lazy_images.py``), with the same rows and pixels as an eager load."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from chartprobe.eval_tasks.harness import lazy_images as li
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.suites._task_index import TASKS_DIR, _load
from PIL import Image


def _png(seed: int, size: tuple[int, int] = (48, 32)) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def test_a_chart_is_decoded_only_when_read_and_reads_as_the_stored_png():
    png = _png(0)
    chart = li.open_chart({"bytes": png, "path": None})
    assert isinstance(chart, li.LazyChart) and isinstance(chart, Image.Image)
    assert (chart.size, chart.mode, chart._is_decoded) == ((48, 32), "RGB", False)
    assert np.array_equal(np.asarray(chart), np.asarray(Image.open(io.BytesIO(png))))
    assert chart._is_decoded


def test_only_the_last_keep_charts_read_stay_decoded_and_a_dropped_one_reads_the_same():
    charts = [li.LazyChart(_png(i)) for i in range(li.KEEP + 10)]
    first = np.asarray(charts[0].convert("RGB"))
    for chart in charts[1:]:
        chart.load()
    assert li.decoded_count() == li.KEEP
    assert not any(c._is_decoded for c in charts[:10]) and all(c._is_decoded for c in charts[10:])
    assert np.array_equal(np.asarray(charts[0]), first)  # decoded again, same pixels
    assert charts[0]._is_decoded and not charts[10]._is_decoded  # now the oldest one went


def test_a_pickled_chart_carries_its_png_and_stays_lazy():
    png = _png(1, (640, 480))
    chart = li.LazyChart(png)
    chart.load()
    copy = pickle.loads(pickle.dumps(chart))
    assert isinstance(copy, li.LazyChart) and not copy._is_decoded
    assert len(pickle.dumps(chart)) < len(png) + 500
    assert copy.tobytes() == chart.tobytes()


def test_other_formats_are_decoded_at_once_as_datasets_would():
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(out, format="JPEG")
    image = li.open_chart({"bytes": out.getvalue(), "path": None})
    assert not isinstance(image, li.LazyChart) and image.size == (8, 8) and image.getpixel((0, 0))[0] > 200
    assert li.open_chart(None) is None


def _one_task_per_loader() -> list[str]:
    """The first task of each distinct ``custom_dataset`` loader in the lm-eval tree (read at collection
    with the task index's own YAML reader: the lmms hooks import lmms-eval and torch, 4 s a worker)."""
    seen: dict[str, str] = {}
    for path in sorted(TASKS_DIR.glob("*.yaml")):
        config = _load(path)
        if isinstance(config.get("task"), str) and config.get("doc_to_image"):
            seen.setdefault(config["custom_dataset"], config["task"])
    return sorted(seen.values())


def test_every_loader_is_covered():
    from chartprobe.eval_tasks.harness.lmms.hooks import lm_eval_config

    loaders = {lm_eval_config(t)["custom_dataset"] for t in _one_task_per_loader()}
    assert len(loaders) >= 9, loaders


@pytest.mark.parametrize("task", _one_task_per_loader())
def test_every_task_loader_reads_lazy_charts_with_the_eager_rows_and_pixels(task, release_root, monkeypatch):
    from chartprobe.eval_tasks.harness.lmms.hooks import lm_eval_config, resolve_function

    monkeypatch.setenv(data.ENV_VAR, str(release_root))
    config = lm_eval_config(task)
    loader = resolve_function(config["custom_dataset"])
    kwargs = config.get("dataset_kwargs") or {}
    split = config.get("test_split", "test")
    lazy, eager = loader(**kwargs)[split], loader.__wrapped__(**kwargs)[split]
    assert len(lazy) == len(eager) and lazy.column_names == eager.column_names
    columns = config["doc_to_image"]
    for i in sorted({0, len(lazy) // 2, len(lazy) - 1}):
        got, want = lazy[i], eager[i]
        assert {k: v for k, v in got.items() if k not in columns} == {k: v for k, v in want.items() if k not in columns}
        for column in columns:
            chart = got[column]
            assert isinstance(chart, li.LazyChart) and not chart._is_decoded, (task, column)
            assert chart.size == want[column].size and chart.tobytes() == want[column].tobytes()


def test_the_quick_start_memory_benchmark_runs_the_script_s_own_steps():
    """``benchmarks/quickstart_memory.py`` times the lines of ``scripts/quickstart.sh`` (no copy to drift)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "benchmarks" / "quickstart_memory.py"
    spec = importlib.util.spec_from_file_location("quickstart_memory", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    env, commands = bench.steps()
    assert env["HF_HUB_OFFLINE"] == "1" and commands[0] == "CP=.venv/bin/chartprobe"
    heads = [c.split()[1] if c.startswith(("$CP", "CHARTPROBE_DATA")) else c.split()[0] for c in commands[1:]]
    assert heads == ["build", "validate", ".venv/bin/python", "$CP", "score", "score", "report"], heads
    assert not any("install.sh" in c or c.endswith("\\") for c in commands)
