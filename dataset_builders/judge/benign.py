"""Benign differences for CRJ candidates, drawn so that "how much changed" does not tell the label.

A faithful reproduction or an honest edit is still another render: renderer-level details may
differ (font size, line and marker weight, a palette shade, figure size and resolution) without
changing what the chart says. Before, Accept candidates differed from their reference only by a
font size of 1 and an optional resize, so they were always the least changed, and a threshold
on the mean pixel difference predicted Reject on 74% of reproduction items (AUC .81).

Here every candidate, Accept or Reject, carries one benign draw (:func:`benign`). An Accept
*edit* (``editing.py``) also picks, among :data:`DRAWS` verified benign draws, the one whose
image statistics against the reference (``core/image_statistics.py``: the differences the
``image_stats`` agent of ``chartprobe validate`` reads) lie nearest those of a *twin*: a Reject
edit made for the same source from its own random stream, then thrown away (:func:`nearest`).
That took the agent's out-of-fold AUC on 160 editing items from .683 to .585. Reproduction
candidates take plain draws on both labels (``reproduction.py`` says why matching lost there).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.spec import ChartSpec

__all__ = ["BENIGN_FIELDS", "CPA", "DRAWS", "EDITING", "REPRODUCTION", "Profile", "benign", "distance", "nearest", "pair_features"]

DRAWS = 6
"""Benign draws an Accept candidate chooses from."""
BENIGN_FIELDS = frozenset({"style.font_size", "style.mark_scale", "style.alpha", "style.width", "style.height",
                           "style.dpi"})
"""The spec fields a benign draw may change (what ``changed_fields`` lists beside the requested ones)."""


@dataclasses.dataclass(frozen=True)
class Profile:
    """What a benign draw may pick from."""

    font: tuple[float, ...]
    mark: tuple[float, ...]
    alpha: tuple[float, ...]
    scale: tuple[float, ...] = (0.9, 0.95, 1.05, 1.1)
    dpi: tuple[int, ...] = (90, 110, 120)


REPRODUCTION = Profile(font=(-2.0, -1.0, 1.0, 2.0), mark=(0.8, 0.9, 1.0, 1.15, 1.3), alpha=(0.8, 0.9, 1.0))
"""A reproduction is new code for the same chart: the paper's "minor, non-semantic pixel differences"."""
EDITING = Profile(font=(-1.0, 0.0, 1.0), mark=(0.9, 1.0, 1.1), alpha=(0.9, 1.0))
"""An edit keeps everything it was not asked to change "consistent with the original" (the
released editing rubric), so only a re-render's smallest differences."""
CPA = Profile(font=(-2.0, -1.0, 0.0, 1.0, 2.0), mark=(0.85, 0.92, 1.0, 1.08, 1.15), alpha=(0.85, 0.92, 1.0), scale=(0.85, 0.9, 1.0, 1.1, 1.2),
              dpi=(90, 100, 110, 120))
"""Each chart of a CPA pair is its own render (``cpa.py``): font size, line weight and shade drawn
per chart, figure scale and resolution per pair. Weight and shade stay well inside the visual-style
criterion's own range (a thin flaw is 0.25-0.4, a heavy one 2.6-3.4, a faint one 0.15-0.25)."""


def benign(spec: ChartSpec, rng: Any, resize: bool, shade: bool = True,
           profile: Profile = REPRODUCTION, size: tuple[float, int] | None = None) -> tuple[ChartSpec, dict]:
    """``spec`` re-rendered with renderer-level differences only (and, with ``resize``, another
    figure scale and DPI, drawn or the given ``size``; without ``shade``, the marks' opacity kept:
    an edit that names a colour asks for exactly that colour); the detail says which."""
    if resize and size is None:
        size = (round(float(rng.choice(profile.scale)), 2), int(rng.choice(profile.dpi)))
    scale, dpi = size if resize and size else (1.0, spec.style.dpi)
    detail = {"figure_scale": scale, "dpi": dpi, "font_delta": float(rng.choice(profile.font)),
              "mark_scale": float(rng.choice(profile.mark)), "alpha": float(rng.choice(profile.alpha)) if shade else 1.0}
    style = dataclasses.replace(
        spec.style, width=round(spec.style.width * scale, 2), height=round(spec.style.height * scale, 2), dpi=dpi,
        font_size=max(6.0, spec.style.font_size + detail["font_delta"]),
        mark_scale=round(spec.style.mark_scale * detail["mark_scale"], 3),
        alpha=round(min(1.0, spec.style.alpha * detail["alpha"]), 3))
    return spec.replace(style=style), detail


def pair_features(r_ref: Any, r_cand: Any) -> dict[str, float]:
    """The two-image statistics (differences and pixel difference) of reference then candidate."""
    from ..core.image_statistics import describe, features

    return {k: v for k, v in features([describe(r_ref.png), describe(r_cand.png)]).items()
            if k.startswith(("d.", "p."))}


def distance(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Canberra distance over the shared features: scale-free, so a byte count and a share weigh alike."""
    total = 0.0
    for k in a.keys() & b.keys():
        den = abs(a[k]) + abs(b[k])
        total += abs(a[k] - b[k]) / den if den > 1e-12 else 0.0
    return total


def nearest(options: Sequence[Mapping[str, float]], target: Mapping[str, float] | None) -> int:
    """Index of the option nearest ``target`` (the first option when there is no target)."""
    if target is None or not options:
        return 0
    return min(range(len(options)), key=lambda i: (distance(options[i], target), i))
