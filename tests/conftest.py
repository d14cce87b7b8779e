"""Session fixtures shared by every test: a local smoke release and a tiny VLM, both built offline.

The suite runs under pytest-xdist (``-n 2``, files kept whole per worker). Session fixtures
would then be built once per worker; the two expensive ones are built once per run instead,
by whichever worker asks first, in the run's shared base folder under a file lock, and the
other worker reuses the finished folder (the pattern pytest-xdist documents).
"""

from __future__ import annotations

import os
import sys

# One thread per process for torch, numpy's BLAS and OpenMP in the tests: the workers (and the builds,
# lm-eval runs and servers they start) already fill every CPU, and a tiny model's ops are too small to
# split. With the default (a thread per CPU) three processes on two CPUs ran a tiny LLaVA's generate
# and train steps 8-11x slower than with one (2.1-4.4 s vs 0.27-0.41 s); alone, one thread is faster
# too (0.26 vs 0.33 s). Set before anything imports torch; a value the caller set is kept.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# Bytecode on, for the suite and every process it starts: with PYTHONDONTWRITEBYTECODE set (as in our CI
# containers) every interpreter the suite starts (CLI runs, lm-eval runs, servers, spawned workers)
# compiled chartprobe's modules from source again, and pytest re-wrote every test module's asserts in each
# worker. Measured on the CLI, signal and install tests, one process, pycache cleared before each side:
# 47-48 CPU-s with bytecode against 54-60 without. The xdist workers inherit this from the controller,
# which reads this file first. __pycache__ is ignored by git.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from collections.abc import Callable
from pathlib import Path

import pytest
from file_seconds import FILE_SECONDS
from zoo import ZOO, load_zoo


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Heaviest files first (``file_seconds.py``), each file's tests in their own order: xdist deals whole
    files to its workers in this order, so the long ones start early instead of ending the run alone."""
    items.sort(key=lambda item: -FILE_SECONDS.get(item.path.name, 0.0))  # stable: the rest keep their order


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than CPUs (``--maxprocesses`` caps it). A third of a worker's time is
    spent waiting on a subprocess, a server or a file lock (168% CPU of 200% with three workers on two
    CPUs), and a spare worker fills it."""
    return (os.cpu_count() or 1) + 1


def shared_folder(tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str,
                  build: Callable[[Path], object]) -> Path:
    """``build(folder)`` once per test run, shared by every xdist worker; the folder once it is complete.

    A ``<name>.complete`` marker beside the folder is written after ``build`` returns, so a worker
    that died half-way leaves no folder the other would take for finished.
    """
    if worker_id == "master":  # not under xdist: an ordinary session fixture
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent  # the run's base folder, above every worker's own
    folder = shared / name
    with FileLock(str(shared / f"{name}.lock")):
        if not (shared / f"{name}.complete").exists():
            folder.mkdir(exist_ok=True)
            build(folder)
            (shared / f"{name}.complete").touch()
    return folder


@pytest.fixture(scope="session", autouse=True)
def datasets_cache(tmp_path_factory) -> Path:
    """A ``datasets`` cache of this run's own (shared by its workers and the commands they start).

    ``load_dataset`` on a local release caches its Arrow copy under a key made from the card's
    YAML alone (features, row and byte counts; not the folder, not the parquet files), so two
    builds whose cards match share one entry: with the user's cache, a test read an earlier run's
    rows (an old ``generator_version``). Pytest prunes the folder with the run's others.
    """
    import os

    import datasets

    folder = tmp_path_factory.getbasetemp().parent / "hf_datasets"
    folder.mkdir(exist_ok=True)
    os.environ["HF_DATASETS_CACHE"] = str(folder)
    datasets.config.HF_DATASETS_CACHE = folder
    return folder


def _build_small_releases(root: Path) -> None:
    from chartprobe.dataset_builders.release.dataset import DATASETS
    from chartprobe.dataset_builders.release.hub import build_release

    for name in DATASETS.names():
        build_release(name, root, "small", num_proc=2, overwrite=True)


@pytest.fixture(scope="session")
def release_root(tmp_path_factory, worker_id) -> Path:
    """One folder holding the small release of every registered dataset (what ``CHARTPROBE_DATA``
    names), built once per test run with two worker processes."""
    return shared_folder(tmp_path_factory, worker_id, "releases", _build_small_releases)


@pytest.fixture(scope="session")
def smoke_release(release_root) -> Path:
    """The ``chartprobe-smoke`` release folder (Hub layout, 20 rows, ``default``/``test``)."""
    return release_root / "chartprobe-smoke"


@pytest.fixture(scope="session")
def zoo_model(tmp_path_factory, worker_id) -> Callable[[str], Path]:
    """``zoo_model(name)``: the folder of the zoo's tiny ``name`` (``tests/zoo.py``), built on first use
    and shared by every test and worker of the run."""
    load_zoo()

    def get(name: str) -> Path:
        return shared_folder(tmp_path_factory, worker_id, f"tiny_{name}", ZOO[name].build)

    return get


@pytest.fixture(scope="session")
def tiny_vlm(zoo_model) -> Path:
    """Directory of the seeded tiny LLaVA (model + tokenizer + processor), see ``tests/tiny_vlm.py``."""
    return zoo_model("llava")


@pytest.fixture(scope="session")
def tiny_idefics3(zoo_model) -> Path:
    """Directory of the seeded tiny Idefics3 (its vision tower also has q/k/v_proj), see ``tests/tiny_idefics3.py``."""
    return zoo_model("idefics3")


@pytest.fixture(scope="session")
def tiny_gemma3(zoo_model) -> Path:
    """Directory of the seeded tiny Gemma 3 (image string ``<start_of_image>``), see ``tests/tiny_gemma3.py``."""
    return zoo_model("gemma3")


@pytest.fixture(scope="session")
def tiny_mllama(zoo_model) -> Path:
    """Directory of the seeded tiny Mllama (cross-attention to the image), see ``tests/tiny_mllama.py``."""
    return zoo_model("mllama")


@pytest.fixture(scope="session")
def tiny_llava_next(zoo_model) -> Path:
    """Directory of the seeded tiny LLaVA-NeXT (tiled images), see ``tests/tiny_llava_next.py``."""
    return zoo_model("llava_next")


@pytest.fixture(scope="session")
def tiny_qwen2_5_vl(zoo_model) -> Path:
    """Directory of the seeded tiny Qwen2.5-VL (vision string, M-RoPE, merged patches), see
    ``tests/tiny_qwen2_5_vl.py``."""
    return zoo_model("qwen2_5_vl")


@pytest.fixture(scope="session")
def all_tasks_run(tiny_vlm, release_root, tmp_path_factory, worker_id) -> Path:
    """lm-eval's output folder (``--output_path``) after one run of the tiny VLM over every
    ``chartprobe_*`` task: ``--limit 2``, two images, 4 new tokens, samples logged. The cheapest
    run that still writes every task's results and samples; shared by the tests that need one
    (read it, copy it before changing it)."""
    from lm_eval_run import run_lm_eval

    def build(folder: Path) -> None:
        run_lm_eval(tiny_vlm, release_root, folder, "chartprobe_*", limit=2, max_images=2, max_gen_toks=4,
                    log_samples=True)

    return shared_folder(tmp_path_factory, worker_id, "all_tasks_run", build) / "results"


@pytest.fixture(scope="session")
def probes_release(release_root) -> Path:
    """The small ``chartprobe-probes`` release (all seven configs)."""
    return release_root / "chartprobe-probes"
