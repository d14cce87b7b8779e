"""Session fixtures shared by every test: a local smoke release and a tiny VLM, both built offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_vlm import build_tiny_vlm


@pytest.fixture(scope="session")
def smoke_release(tmp_path_factory) -> Path:
    """The ``chartprobe-smoke`` release folder (Hub layout, 20 rows, ``default``/``test``).

    Its parent is what ``CHARTPROBE_DATA`` must name to point the tasks at it.
    """
    from dataset_builders.hub import build_release

    return build_release("smoke", tmp_path_factory.mktemp("releases")).path


@pytest.fixture(scope="session")
def tiny_vlm(tmp_path_factory) -> Path:
    """Directory of the seeded tiny LLaVA (model + tokenizer + processor), see ``tests/tiny_vlm.py``."""
    return build_tiny_vlm(tmp_path_factory.mktemp("tiny_vlm"))
