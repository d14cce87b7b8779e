"""The one order of a task's documents: round robin over its templates, units kept whole.

lm-eval's ``--limit N`` evaluates the first N documents of a task. Releases are written
template by template (or criterion by criterion), so in release order a quick run saw one or
two templates and an odd limit on CPA cut a pair in half. Every view of a task's documents
therefore goes through :func:`interleave`: the lm-eval loader (``data.load_release``), the gold
``chartprobe score`` looks documents up in (``gold.ReleaseGold``, whose positions are lm-eval's
``doc_id``) and the agents' samples (``validate.write_agent_samples``). One order, so a
``doc_id`` means the same document everywhere.

The order comes from the suite: :meth:`~chartprobe.eval_tasks.suites._base.Suite.order_key`
(the template, coarsest first: a probe's template then its attribute, a CRJ item's label then
its failure) and :meth:`~chartprobe.eval_tasks.suites._base.Suite.order_unit` (documents that
must stay adjacent, a CPA pair's two orders). Each round takes the next unit of every
template, so any limit of at least the number of templates covers them all; within a template
the release order is kept, and templates take turns in the order they first appear.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["dataset_order", "interleave", "order_documents"]

Row = Mapping[str, Any]
_GAP = object()
_BATCH = 1024


def interleave(keys: Sequence[Sequence[str]], units: Sequence[Hashable | None] | None = None) -> list[int]:
    """The permutation (indices into ``keys``) that round-robins over the templates.

    ``keys[i]`` is document i's key, coarsest first: round robin over ``keys[i][0]``, and inside
    each of those over ``keys[i][1]``, and so on. Documents with the same non-None ``units[i]``
    travel as one block at their first member's place (a CPA pair's two orders); the block's
    key is its first member's.
    """
    blocks: dict[Hashable, list[int]] = {}
    for i in range(len(keys)):
        unit = units[i] if units is not None else None
        blocks.setdefault(("unit", unit) if unit is not None else ("doc", i), []).append(i)
    ordered = _round_robin([(tuple(keys[b[0]]), b) for b in blocks.values()], 0)
    return [i for block in ordered for i in block]


def _round_robin(items: list[tuple[tuple[str, ...], Any]], level: int) -> list[Any]:
    depth = max((len(k) for k, _ in items), default=0)
    if level >= depth or len(items) <= 1:
        return [v for _, v in items]
    groups: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for key, value in items:
        groups.setdefault(key[level] if level < len(key) else "", []).append((key, value))
    runs = [_round_robin(g, level + 1) for g in groups.values()]
    return [v for turn in itertools.zip_longest(*runs, fillvalue=_GAP) for v in turn if v is not _GAP]


def order_documents(suite: Any, docs: Sequence[Row]) -> list[Row]:
    """``docs`` (release rows or the suite's documents, of one task) in task order."""
    perm = interleave([suite.order_key(d) for d in docs], [suite.order_unit(d) for d in docs])
    return [docs[i] for i in perm]


def dataset_order(ds: Any, release: str) -> list[int]:
    """The task-order permutation of a ``datasets.Dataset`` of ``release`` rows (for ``ds.select``).

    Keys are computed from the plain columns only, batch by batch: no image is decoded.
    A release without a suite keeps its order.
    """
    from ..suites import SUITES

    if release not in SUITES.names():
        return list(range(len(ds)))
    suite = SUITES.get(release)()
    keys, units = [], []
    for row in _plain_rows(ds):
        keys.append(suite.order_key(row))
        units.append(suite.order_unit(row))
    return interleave(keys, units)


def _plain_rows(ds: Any) -> Iterator[dict[str, Any]]:
    import datasets

    plain = [name for name, feature in ds.features.items()
             if not name.startswith("image") and not isinstance(feature, datasets.Image)]
    for batch in ds.select_columns(plain).iter(batch_size=_BATCH):
        yield from (dict(zip(batch, values)) for values in zip(*batch.values()))
