"""A release card's Hub metadata through ``huggingface_hub.DatasetCardData``, and its offline check.

:func:`card_data` builds the YAML header ``write_card`` writes (so the keys, their spelling and
their order are the Hub library's, not ours); :func:`check_card` re-reads a written card the way
the Hub and ``datasets`` read it and refuses what they would refuse or misread. The Hub's own
validator (``RepoCard.validate``) is a POST to huggingface.co; offline we apply the rules whose
vocabularies ship with ``datasets`` (``datasets/utils/resources``: size categories, language
codes) and ``datasets``' own parsers of ``configs`` and ``dataset_info``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGUAGE", "CardError", "card_data", "check_card", "size_category"]

LANGUAGE = ("en",)
"""Every question, answer, label and legend text of our four benchmarks is English."""

_SIZE_BUCKETS = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
                 (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"))


class CardError(ValueError):
    """A dataset card the Hub or ``datasets`` would refuse or misread."""


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` bucket for ``rows`` examples (all configs and splits together)."""
    for bound, name in _SIZE_BUCKETS:
        if rows < bound:
            return name
    return "100M<n<1B"


def card_data(builder: Any, configs: list[dict[str, Any]], dataset_info: list[dict[str, Any]],
              rows: int, tags: Sequence[str], provenance: Mapping[str, Any], license: str | None = None) -> Any:
    """The card header: the Hub's fields, the ``datasets`` configs and infos, our ``chartprobe`` block
    (``license``: the rows' licence, default the builder's own)."""
    from huggingface_hub import DatasetCardData

    return DatasetCardData(
        language=list(LANGUAGE), license=license or builder.license, pretty_name=builder.title or builder.repo_name,
        size_categories=[size_category(rows)], task_categories=list(builder.task_categories),
        tags=list(dict.fromkeys(tags)), configs=configs, dataset_info=dataset_info, chartprobe=dict(provenance))


@cache
def _resource(name: str) -> frozenset[str]:
    import datasets

    path = Path(datasets.__file__).parent / "utils" / "resources" / f"{name}.json"
    values = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(values if isinstance(values, list) else values.keys())


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def check_card(text: str) -> Any:
    """Parse a release card as the Hub does and check its metadata; return the ``DatasetCard``.

    Checked: the header parses (``DatasetCard``); ``size_categories`` and ``language`` use the
    Hub's vocabularies and the bucket holds the rows ``dataset_info`` declares; ``pretty_name``,
    ``license`` and ``task_categories`` are set; ``configs`` pass ``datasets``' ``data_files`` rules
    with exactly one ``default``; every ``dataset_info`` parses as ``datasets.DatasetInfo`` and names
    a config. Any problem is a :class:`CardError` naming it.
    """
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard

    card = DatasetCard(text)
    data = card.data
    problems: list[str] = []
    for field in ("pretty_name", "license", "task_categories", "language", "size_categories"):
        if not getattr(data, field, None):
            problems.append(f"no {field}")
    bad_sizes = [s for s in _listed(data.size_categories) if s not in _resource("size_categories")]
    bad_langs = [s for s in _listed(data.language) if s not in _resource("languages")]
    problems += [f"size_categories {s!r} is not a Hub size category" for s in bad_sizes]
    problems += [f"language {s!r} is not a Hub language code" for s in bad_langs]
    try:
        configs = MetadataConfigs.from_dataset_card_data(data)
        for entry in configs.values():
            MetadataConfigs._raise_if_data_files_field_not_valid(entry)
        infos = DatasetInfosDict.from_dataset_card_data(data)
    except Exception as exc:  # noqa: BLE001 -- datasets raises ValueError/TypeError/KeyError on a bad header
        raise CardError(f"dataset card: datasets cannot read its header: {type(exc).__name__}: {exc}") from None
    defaults = [name for name, entry in configs.items() if entry.get("default")]
    if len(defaults) != 1:
        problems.append(f"{len(defaults)} default configs (load_dataset(repo) needs exactly one): {defaults}")
    problems += [f"dataset_info for {name!r}, which is not a config" for name in infos if name not in configs]
    rows = sum(s.num_examples for info in infos.values() for s in (info.splits or {}).values())
    if not bad_sizes and _listed(data.size_categories) != [size_category(rows)]:
        problems.append(f"size_categories {data.size_categories} but dataset_info declares {rows} rows")
    if problems:
        raise CardError("dataset card: " + "; ".join(problems))
    return card

