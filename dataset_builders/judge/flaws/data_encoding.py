"""Data Encoding (Data Fidelity): one series' plotted data lost (all NaN) while its legend entry
stays, a "phantom" series (paper Appendix B.2.1, Dimension 5). Style is never touched.

The better chart shows the worse one's visible series alone, with a legend of those (grouped bars
aside, whose slots would widen): both charts draw the same marks, and the legend entry whose
data never reached the plot is the whole difference. Verified on boxes: the series has no mark
and its legend entry is drawn; every other series has as many marks as in the better chart.
"""

from __future__ import annotations

import dataclasses

from . import _evidence as ev
from . import flaw
from ._base import Flaw, Strategy, changed_fields

# Stacked kinds: a NaN band would also erase every band stacked on it, so only the top one goes.
_TOP_ONLY = ("stacked_bar", "area")
# Grouped bars keep a slot per series: without a series the others would widen, so there the
# better chart keeps every series (the paper's pair) instead of leaving the phantom one out.
_SLOTTED = ("grouped_bar",)


def _without(spec, target: int):
    """``spec`` without series ``target``: its data, its encoding and its legend item gone."""
    keep = [i for i in range(len(spec.data.series)) if i != target]
    legend = spec.legend
    if legend.order is not None:
        legend = dataclasses.replace(legend, order=tuple(o - (o > target) for o in legend.order if o != target))
    if legend.colors is not None:
        legend = dataclasses.replace(legend, colors=tuple(legend.colors[i] for i in keep))
    data = dataclasses.replace(spec.data, series=tuple(spec.data.series[i] for i in keep))
    return spec.replace(data=data, encodings=tuple(spec.encodings[i] for i in keep), legend=legend)


def _missing(spec) -> list[int]:
    return [i for i, s in enumerate(spec.data.series) if s.missing]


class PhantomSeries(Strategy):
    name = "phantom_series"
    description = ("Replace the y data of ONE series with NaN so it disappears from the plot while "
                   "the legend still shows it (with its colour/style); the others stay visible.")
    kinds = ("line", "scatter", "grouped_bar", "stacked_bar", "area", "radar")

    def applies(self, spec):
        return (super().applies(spec) and len(spec.data.series) >= 2 and spec.legend.form == "box"
                and not spec.style.value_labels and spec.legend.visible is None and spec.legend.entries is None)

    def apply(self, spec, rng):
        n = len(spec.data.series)
        target = n - 1 if spec.kind in _TOP_ONLY else int(rng.integers(n))
        series = tuple(dataclasses.replace(s, missing=(i == target)) for i, s in enumerate(spec.data.series))
        return spec.replace(data=dataclasses.replace(spec.data, series=series))

    def pair(self, spec, rng):
        """The better chart is the worse one's visible series alone, legend included (grouped bars
        aside): both draw the same marks, and only the legend entry with no data tells them apart.
        When the better chart kept the series, a phantom took a series' ink and colour away, and
        luminance entropy alone ordered every data-encoding pair of a 140-pair build."""
        worse = self.apply(spec, rng)
        if spec.kind in _SLOTTED:
            return spec, worse
        return _without(spec, _missing(worse)[0]).validate(), worse

    def injected_fields(self, better, worse):
        missing = _missing(worse)
        if len(missing) != 1 or len(better.data.series) != len(worse.data.series) - 1:
            return super().injected_fields(better, worse)
        return {"data.series.missing"} | changed_fields(better, _without(worse, missing[0]))

    def verify(self, before, after, better, worse):
        (target,) = _missing(worse)
        if ev.mark_keys(after, target) or f"legend/entry/{target}" not in after.boxes:
            return None
        others = [i for i in range(len(worse.data.series)) if i != target]
        kept = len(better.data.series) == len(worse.data.series)
        if kept and not ev.mark_keys(before, target):
            return None
        # Series after the phantom one sit one index lower in a better chart without it.
        index = {i: i if kept or i < target else i - 1 for i in others}
        if any(len(ev.mark_keys(after, i)) != len(ev.mark_keys(before, index[i])) for i in others):
            return None
        return {"missing_series": target, "series_name": worse.data.series[target].name,
                "marks_before": len(ev.mark_keys(before, target)) if kept else 0, "marks_after": 0,
                "series_in_better": len(better.data.series),
                "legend_entry_box": list(after.boxes[f"legend/entry/{target}"])}


@flaw("data_encoding")
class DataEncoding(Flaw):
    """A legend entry whose data never reached the plot."""

    strategies = (PhantomSeries(),)
