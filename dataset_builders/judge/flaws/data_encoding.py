"""Data Encoding (Data Fidelity): one series' plotted data lost (all NaN) while its legend entry
stays, a "phantom" series (paper Appendix B.2.1, Dimension 5). Style is never touched.

Verified on boxes: the series had marks and has none; its legend entry is still drawn; every
other series keeps all its marks.
"""

from __future__ import annotations

import dataclasses

from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy

# Stacked kinds: a NaN band would also erase every band stacked on it, so only the top one goes.
_TOP_ONLY = ("stacked_bar", "area")


class PhantomSeries(Strategy):
    name = "phantom_series"
    description = ("Replace the y data of ONE series with NaN so it disappears from the plot while "
                   "the legend still shows it (with its colour/style); the others stay visible.")
    kinds = ("line", "scatter", "grouped_bar", "stacked_bar", "area", "radar")

    def applies(self, spec):
        return (super().applies(spec) and len(spec.data.series) >= 2 and spec.legend.form == "box"
                and not spec.style.value_labels and spec.legend.visible is None)

    def apply(self, spec, rng):
        n = len(spec.data.series)
        target = n - 1 if spec.kind in _TOP_ONLY else int(rng.integers(n))
        series = tuple(dataclasses.replace(s, missing=(i == target)) for i, s in enumerate(spec.data.series))
        return spec.replace(data=dataclasses.replace(spec.data, series=series))

    def verify(self, before, after, better, worse):
        (target,) = [i for i, s in enumerate(worse.data.series) if s.missing]
        if not ev.mark_keys(before, target) or ev.mark_keys(after, target):
            return None
        if f"legend/entry/{target}" not in after.boxes:
            return None
        others = [i for i in range(len(worse.data.series)) if i != target]
        if any(len(ev.mark_keys(after, i)) != len(ev.mark_keys(before, i)) for i in others):
            return None
        return {"missing_series": target, "series_name": worse.data.series[target].name,
                "marks_before": len(ev.mark_keys(before, target)), "marks_after": 0,
                "legend_entry_box": list(after.boxes[f"legend/entry/{target}"])}


@flaw("data_encoding")
class DataEncoding(Flaw):
    """A legend entry whose data never reached the plot."""

    strategies = (PhantomSeries(),)
