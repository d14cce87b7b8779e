"""Release-wide split disjointness of ``chartprobe-legend`` (issue #17): no base chart and no
ChartBench table in two splits, all configs together.

A model trained on the ``train`` split of any config must never have seen a chart of any
config's ``test`` split. Two identities are checked, over every row:

- the **base chart**: a digest of the chart side's *data* (``chart_spec``'s ``data``:
  categories, x values, series values and units) together with the set of legend labels
  (``legend_spec``'s ``labels``). The labels come from the legend side because ``chart_spec``
  holds neutral placeholders for the names the legend carries; without them two small pies
  with the same two wedge sizes would count as one chart (measured: about one seed in twenty
  of the full preset would be refused for such a coincidence). Rendering style (encodings,
  theme, legend layout) is not part of the identity: a restyled chart is the same chart.
- the **ChartBench table** (``data_source``, every value but ``synthetic``).

Rows of one split may share either freely (a chart's chains and variants, the studies and the
snapshot within ``test``, cyclic table reuse within a split).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

__all__ = ["DISJOINT_COLUMNS", "chart_identity", "check_disjoint"]

DISJOINT_COLUMNS = ("id", "chart_spec", "legend_spec", "data_source")
"""The columns :func:`check_disjoint` reads."""
SYNTHETIC = "synthetic"


def chart_identity(chart_spec: str, legend_spec: str) -> str:
    """SHA-256 of a row's base chart: its chart side's data and its set of legend labels."""
    data = json.loads(chart_spec)["data"]
    labels = sorted(json.loads(legend_spec).get("labels") or [])
    text = json.dumps({"data": data, "labels": labels}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_disjoint(release: Mapping[str, Mapping[str, Mapping[str, Sequence[str]]]]) -> None:
    """Raise ValueError naming both splits and an example row id when a base chart or a table is
    in two splits. ``release[config][split]`` holds the :data:`DISJOINT_COLUMNS` as lists."""
    charts: dict[str, tuple[str, str]] = {}  # identity -> (split, first row id seen)
    tables: dict[str, tuple[str, str]] = {}
    for config in sorted(release):
        for split in sorted(release[config]):
            cols = release[config][split]
            identities: dict[tuple[str, str], str] = {}  # a group's rows repeat both specs: digest once
            for rid, chart, legend, source in zip(cols["id"], cols["chart_spec"], cols["legend_spec"],
                                                  cols["data_source"]):
                where = (split, f"{config}/{split} row {rid}")
                if (chart, legend) not in identities:
                    identities[chart, legend] = chart_identity(chart, legend)
                digest = identities[chart, legend]
                _claim(charts, digest, where, f"base chart {digest[:12]}")
                if source != SYNTHETIC:
                    _claim(tables, source, where, f"ChartBench table {source}")


def _claim(owners: dict[str, tuple[str, str]], key: str, where: tuple[str, str], what: str) -> None:
    split, example = where
    owner = owners.setdefault(key, where)
    if owner[0] != split:
        raise ValueError(f"{what} is in two splits, {owner[0]!r} ({owner[1]}) and {split!r} ({example}): "
                         "a chart or table must not be in two splits of a release")
