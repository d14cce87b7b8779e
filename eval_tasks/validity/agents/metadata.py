"""``metadata``: answers from the image files' size and format alone, never their pixels.

Features per document, in the order the model sees its images: each image's width,
height, pixel count, byte size and format, and for two images whether their sizes match,
the difference of their pixel counts and the ratio of their byte sizes. The agent learns
one decision stump per template (the feature and threshold that best split the golds,
each side answering its majority gold) out of sample: on the config's other splits, else
cross-fitted on two halves of the units. Where harmless and harmful edits leave different
traces in the file (a re-render always changes size, a flaw never does) it wins; a release
whose labels are independent of the files scores chance. Rows whose question judges the
image's shape itself or the whole picture (``Suite.pixels_are_evidence``: a CPA aspect-ratio pair,
how many marks or colours a chart has) are not answered.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import agent
from ._base import Agent
from ._fit import cross_fit, majority

Row = Mapping[str, Any]

FORMATS = {"png": 0.0, "jpeg": 1.0, "other": 2.0}
MAX_THRESHOLDS = 24
"""Candidate thresholds per feature: quantile midpoints keep fitting linear in the rows."""


def features(suite: Any, doc: Row) -> dict[str, float] | None:
    """The file-level features of ``doc`` (None when it carries no image metadata)."""
    meta = doc.get("image_meta") or {}
    images = [meta.get(name) for name in suite.presented_images(doc)]
    images = [m for m in images if m]
    if not images:
        return None
    out: dict[str, float] = {}
    for i, m in enumerate(images):
        out.update({f"w{i}": m["width"], f"h{i}": m["height"], f"px{i}": m["width"] * m["height"],
                    f"bytes{i}": m["bytes"], f"fmt{i}": FORMATS.get(m["format"], 2.0)})
    if len(images) >= 2:
        a, b = images[0], images[1]
        out["same_size"] = float((a["width"], a["height"]) == (b["width"], b["height"]))
        out["px_diff"] = float(a["width"] * a["height"] - b["width"] * b["height"])
        out["bytes_ratio"] = a["bytes"] / max(1, b["bytes"])
    return {k: float(v) for k, v in out.items()}


@dataclass(frozen=True)
class Stump:
    """``feature <= threshold`` -> ``left`` else ``right``."""

    feature: str
    threshold: float
    left: str
    right: str

    def __call__(self, x: Mapping[str, float]) -> str:
        return self.left if x.get(self.feature, 0.0) <= self.threshold else self.right


def _thresholds(values: list[float]) -> list[float]:
    uniq = sorted(set(values))
    mids = [(a + b) / 2 for a, b in itertools.pairwise(uniq)]
    if len(mids) > MAX_THRESHOLDS:
        step = len(mids) / MAX_THRESHOLDS
        mids = [mids[int(i * step)] for i in range(MAX_THRESHOLDS)]
    return mids


def fit_stump(samples: Sequence[tuple[Mapping[str, float], str]]) -> Stump | None:
    """The stump with most correct golds on ``samples`` (ties: feature name, then threshold)."""
    if not samples:
        return None
    overall = majority(Counter(y for _, y in samples))
    best: tuple[int, Stump] | None = None
    for feature in sorted({k for x, _ in samples for k in x}):
        for t in _thresholds([x.get(feature, 0.0) for x, _ in samples]):
            sides: dict[bool, Counter] = {True: Counter(), False: Counter()}
            for x, y in samples:
                sides[x.get(feature, 0.0) <= t][y] += 1
            left, right = majority(sides[True]) or overall, majority(sides[False]) or overall
            hits = sides[True][left] + sides[False][right]
            if best is None or hits > best[0]:
                best = (hits, Stump(feature, t, left, right))
    return best[1] if best else Stump("", 0.0, overall, overall)


@agent("metadata")
class Metadata(Agent):
    description = "decision stump on image width/height/bytes/format, fit per template out of sample"

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        def fit(train: Sequence[Row]) -> dict[str, Stump | None]:
            samples: dict[str, list] = defaultdict(list)
            for r in train:
                x = features(suite, r)
                if x is not None:
                    samples[suite.group_key(r)].append((x, str(r["answer"])))
            return {g: fit_stump(s) for g, s in samples.items()}

        def guess(model: dict[str, Stump | None], r: Row) -> str | None:
            if suite.pixels_are_evidence(r):
                return None
            x = features(suite, r)
            stump = model.get(suite.group_key(r))
            return None if x is None or stump is None else stump(x)

        return cross_fit(suite, rows, fit_rows, fit, guess)
