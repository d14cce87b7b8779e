"""A release folder as the release root the lm-eval loaders and the gold read (``chartprobe-<name>/``).

The task loaders find a release through ``CHARTPROBE_DATA`` (a folder holding
``chartprobe-<name>/``, :mod:`chartprobe.eval_tasks.rescoring.data`) and ``chartprobe score`` through
``--releases``, but ``export`` and ``evaluate()`` are given the release folder itself, which a
user may have renamed. :func:`release_root` yields a root that holds it under its own name: its
parent when it is so named, else a temporary folder with a link to it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["release_dataset", "release_root", "using_release"]


def release_dataset(release: str | os.PathLike) -> str:
    """The dataset a release folder holds (its card's ``chartprobe.dataset``); a broken card is a
    :class:`~chartprobe.eval_tasks.scoring.sample_types.PredictionsError` naming what is wrong."""
    from ...rescoring.predictions import read_release_card

    return read_release_card(release)["chartprobe"]["dataset"]


@contextlib.contextmanager
def release_root(release: str | os.PathLike) -> Iterator[Path]:
    """A folder holding ``release`` as ``chartprobe-<dataset>/``, for as long as the block runs."""
    from ...rescoring.data import release_folder_name

    folder = Path(release).resolve()
    name = release_folder_name(release_dataset(folder))
    if folder.name == name:
        yield folder.parent
        return
    with tempfile.TemporaryDirectory(prefix="chartprobe-release-") as tmp:
        (Path(tmp) / name).symlink_to(folder, target_is_directory=True)
        yield Path(tmp)


@contextlib.contextmanager
def using_release(release: str | os.PathLike) -> Iterator[Path]:
    """:func:`release_root`, also set as ``CHARTPROBE_DATA`` (restored after) for the task loaders."""
    from ...rescoring.data import ENV_VAR

    with release_root(release) as root:
        old = os.environ.get(ENV_VAR)
        os.environ[ENV_VAR] = str(root)
        try:
            yield root
        finally:
            if old is None:
                os.environ.pop(ENV_VAR, None)
            else:
                os.environ[ENV_VAR] = old
