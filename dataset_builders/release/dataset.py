"""The dataset-builder contract, the dataset registry and the columns every row carries.

A builder turns a preset (``configs/<name>-<preset>.yaml``) into rows. It never writes
files: ``hub.py`` owns releases. Every benchmark package registers its builder in its own
``builder.py`` with ``@dataset("<name>")``; :data:`DATASETS` finds them by that convention
(``dataset_builders/<package>/builder.py``), so this layer names no benchmark.

Work is split into *items* (a chart, a family, a group...), each identified by a stable key,
so that any process can build any item from ``(seed, key)`` alone and the release does not
depend on the number of workers.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator
from typing import Any, ClassVar

from chartprobe import __version__

from ..core.registry import Registry
from .recipe import Preset

__all__ = ["BASE_FEATURES", "DATASETS", "GENERATOR_VERSION", "DatasetBuilder", "base_features", "dataset"]

GENERATOR_VERSION = __version__
"""Recorded in every row and dataset card; bump it whenever generated content changes."""

DATASETS = Registry("dataset", __name__.rsplit(".", 2)[0], submodule="builder")
"""Every dataset chartprobe builds: ``builder.py`` of each package under ``dataset_builders/``."""
dataset = DATASETS.register

BASE_FEATURES: dict[str, str] = {
    "id": "string",
    "question": "string",
    "answer": "string",
    "answer_type": "string",
    "spec": "string",
    "seed": "int64",
    "generator_version": "string",
}
"""Columns every row has (plus ``image``); builders add their own unit columns."""


def base_features(**extra: str) -> Any:
    """``datasets.Features`` with the base columns, an ``image`` column and ``extra`` Values."""
    from datasets import Features, Image, Value

    cols = {"id": Value("string"), "image": Image()}
    cols.update({k: Value(v) for k, v in BASE_FEATURES.items() if k != "id"})
    cols.update({k: Value(v) for k, v in extra.items()})
    return Features(cols)


class DatasetBuilder(abc.ABC):
    """One benchmark dataset. Subclasses are registered with ``@dataset(name)``."""

    name: ClassVar[str]
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    license: ClassVar[str] = "cc-by-4.0"
    citation: ClassVar[str] = ""
    paper: ClassVar[str] = ""
    task_categories: ClassVar[tuple[str, ...]] = ("visual-question-answering",)
    default_config: ClassVar[str] = ""
    """The headline config ``load_dataset(repo)`` opens without a config name; empty (or not built):
    ``all`` when built, else the first built config. Every release has one (:func:`default_of`)."""

    @property
    def repo_name(self) -> str:
        """Folder / Hub repo name of the release."""
        return f"chartprobe-{self.name}"

    @abc.abstractmethod
    def features(self, config: str) -> Any:
        """The ``datasets.Features`` of ``config``."""

    @abc.abstractmethod
    def item_keys(self, preset: Preset, config: str, split: str) -> list[str]:
        """Stable keys of the items of ``config``/``split``, in release order."""

    @abc.abstractmethod
    def build_item(self, preset: Preset, config: str, split: str, key: str) -> Iterator[dict]:
        """Yield the rows of one item; must depend only on ``(preset, config, split, key)``."""

    def derived_from(self, config: str) -> str | None:
        """The config :meth:`derive` computes ``config`` from, or None (generated from its items).

        The build generates every other config first, through one stream of items, then
        derives these; the default derives nothing.
        """
        return None

    def derive(self, preset: Preset, config: str, split: str, built: dict[str, dict[str, Any]]) -> Any | None:
        """``config``/``split`` computed from configs already in ``built``, or None to generate it.

        A config whose rows are a pure function of another's (the same families regrouped,
        one image rescaled) need not be rendered twice. The result must equal what
        ``build_item`` would yield, row for row; the default derives nothing.
        """
        return None

    def verify(self, built: dict[str, dict[str, Any]]) -> None:
        """Check release-wide invariants (e.g. split disjointness) before anything is written.

        ``built`` maps config -> split -> ``datasets.Dataset``. Raise ``ValueError`` with one
        clear line to refuse the release; the default accepts everything.
        """

    def card_extra(self, built: dict[str, dict[str, Any]]) -> str:
        """Extra markdown for the dataset card (template tables, metrics...); default none."""
        return ""

    def card_inputs(self, preset: Preset) -> str:
        """Markdown about external inputs the preset names (e.g. data tables); default none."""
        return ""

    def source_tags(self, preset: Preset) -> tuple[str, ...]:
        """Card tags saying where the rows come from; default ``synthetic`` (we generated them)."""
        return ("synthetic",)

    def card_license(self, preset: Preset) -> str:
        """The card's ``license`` for the rows ``preset`` builds; default :attr:`license` (ours)."""
        return self.license

    def card_files(self, built: dict[str, dict[str, Any]]) -> dict[str, bytes]:
        """Extra files for the release folder (e.g. figures the card links to), by relative path."""
        return {}
