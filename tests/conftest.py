"""Session fixtures shared by every test: a local smoke release and a tiny VLM, both built offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_vlm import build_tiny_vlm


@pytest.fixture(scope="session")
def release_root(tmp_path_factory) -> Path:
    """One folder holding the small release of every registered dataset (what ``CHARTPROBE_DATA``
    names), built once per test session with two worker processes."""
    from chartprobe.dataset_builders.release.dataset import DATASETS
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("releases")
    for name in DATASETS.names():
        build_release(name, root, "small", num_proc=2)
    return root


@pytest.fixture(scope="session")
def smoke_release(release_root) -> Path:
    """The ``chartprobe-smoke`` release folder (Hub layout, 20 rows, ``default``/``test``)."""
    return release_root / "chartprobe-smoke"


@pytest.fixture(scope="session")
def tiny_vlm(tmp_path_factory) -> Path:
    """Directory of the seeded tiny LLaVA (model + tokenizer + processor), see ``tests/tiny_vlm.py``."""
    return build_tiny_vlm(tmp_path_factory.mktemp("tiny_vlm"))


@pytest.fixture(scope="session")
def probes_release(release_root) -> Path:
    """The small ``chartprobe-probes`` release (all seven configs)."""
    return release_root / "chartprobe-probes"
