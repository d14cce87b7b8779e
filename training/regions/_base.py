"""The region-set contract and registry (see the package docstring)."""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["REGION_SETS", "Dimension", "RegionSet", "column", "crossed", "region_set"]

Row = Mapping[str, Any]
REGION_SETS: dict[str, type[RegionSet]] = {}


def region_set(name: str) -> Callable[[type[RegionSet]], type[RegionSet]]:
    """Register a :class:`RegionSet` subclass under ``name`` (the ``--data`` value)."""

    def decorator(cls: type[RegionSet]) -> type[RegionSet]:
        if name in REGION_SETS:
            raise ValueError(f"region set {name!r} registered twice")
        cls.name = name
        REGION_SETS[name] = cls
        return cls

    return decorator


@dataclass(frozen=True)
class Dimension:
    """One way to cut rows into regions: ``key(row)`` is the row's region (None: not in it)."""

    name: str
    key: Callable[[Row], str | None]
    doc: str = ""


def column(name: str) -> Callable[[Row], str | None]:
    """Region key of a plain row column (missing or empty cells are outside every region)."""

    def key(row: Row) -> str | None:
        value = row.get(name)
        return None if value in (None, "") else str(value)

    return key


def crossed(first: Callable[[Row], str | None], second: Callable[[Row], str | None]) -> Callable[[Row], str | None]:
    """Region key ``"a/b"`` of two keys (a per-domain x skill cell), None when either is."""

    def key(row: Row) -> str | None:
        a, b = first(row), second(row)
        return None if a is None or b is None else f"{a}/{b}"

    return key


class RegionSet(abc.ABC):
    """A trainable benchmark's regions and row conventions (subclasses set the class attributes)."""

    name: ClassVar[str]
    release: ClassVar[str]
    """chartprobe release the rows come from (``chartprobe-<release>``)."""
    default_configs: ClassVar[tuple[str, ...]]
    """Configs trained from when ``--domains`` is not given."""
    default_dimension: ClassVar[str]
    template_column: ClassVar[str]
    """Row column naming the template: rows within a region are spread evenly over its values."""
    stratum_column: ClassVar[str]
    """Row column whose values ``--skills`` restricts (probes: ``skill``); '' when none."""
    compare_dims: ClassVar[tuple[str, ...]] = ()
    """Dimensions a base-vs-tuned comparison shows besides the default one."""
    table_dimension: ClassVar[str] = ""
    """The crossed dimension of the study's second table (probes: per-domain x skill)."""
    table_title: ClassVar[str] = ""
    """Its heading: rows x columns."""
    test_tasks: ClassVar[str]
    """lm-eval tasks (comma-separated) the closed loop reports on by default: the held-out test splits."""
    recipe: ClassVar[str] = ""
    """The paper and section whose fine-tuning recipe ``chartprobe train`` follows (the adapter card's first line)."""
    never_trained: ClassVar[str] = "No test row was used."
    """What the card promises was kept out of training."""

    @abc.abstractmethod
    def validation_tasks(self, configs: list[str]) -> str:
        """lm-eval tasks over the validation split of ``configs``: what the base model is profiled on."""
        ...

    @abc.abstractmethod
    def dimensions(self) -> dict[str, Dimension]:
        """Every dimension, by name."""
        ...

    @abc.abstractmethod
    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        """The scored record of one prediction (it has ``correct``) with the row's region columns."""
        ...

    def correct(self, record: Row) -> float:
        """The 0/1 outcome a profile counts for a scored record."""
        return float(bool(record.get("correct")))

    def evaluation_only(self, row: Row) -> bool:
        """Rows never trained on and profiled apart (ChartProbe's held-out complex reasoning)."""
        return False

    @abc.abstractmethod
    def prompt(self, row: Row) -> str:
        """The user text of one row, equal to its lm-eval task prompt without the image placeholder."""
        ...

    def study_rows(self, section: dict[str, Any]) -> dict[str, float]:
        """Rows the fine-tuning study adds to its capability table from one profile section (default: none)."""
        return {}

    def extra(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Benchmark-specific profile entries over every scored record (default: none)."""
        return {}

    def dimension(self, name: str) -> Dimension:
        """One dimension by name; a clear error listing the others."""
        dims = self.dimensions()
        if name not in dims:
            raise KeyError(f"--region {name}: {self.name} regions are {', '.join(dims)}")
        return dims[name]
