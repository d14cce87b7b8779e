"""``image_stats``: gradient boosting on cheap pixel statistics, never reading the chart.

Each document becomes the statistics of its images in the order the model sees them (image A
then B of a CPA pair, reference then candidate of a CRJ item), their differences and the pixel
difference of the pair (:mod:`chartprobe.dataset_builders.core.image_statistics`), plus the
template as a categorical feature. One scikit-learn ``HistGradientBoostingClassifier`` per config
(pooled over its splits; fixed ``random_state``) is fit with ``GroupKFold(5)`` grouped by the
suite's unit (chart, family, pair, item), and every row is answered by the model of the fold that
held its unit out: the agent never sees the row, or any row of its unit, that it scores.

It answers closed questions only (yes/no, A/B, Accept/Reject, a declared vocabulary of at most
:data:`MAX_OPTIONS` answers): an open number or label is not guessed from a histogram. Each
answer is the most probable of the answers its template takes in the config; :meth:`scores`
exposes those probabilities for the AUC check (``eval_tasks/suites/_image_stats.py``). Rows whose
answer the statistics measure as the skill itself would (``Suite.pixels_are_evidence``: a CPA
aspect-ratio pair, whose flaw is the figure's shape; a perception probe on the whole picture's
geometry, such as whether the biggest bar doubles the smallest) are neither fitted nor answered.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]

MAX_OPTIONS = 12
"""Closed answer sets up to this size are answered (probe vocabularies have 11)."""
FOLDS = 5
PARAMS = {"max_iter": 100, "learning_rate": 0.1, "max_leaf_nodes": 8, "min_samples_leaf": 5,
          "l2_regularization": 1.0, "early_stopping": False, "random_state": 0}
"""Small trees, no early stopping: deterministic and stable on a few dozen rows per fold."""


def pixels_of(suite: Any, doc: Row) -> list[Any] | None:
    """The pixel statistics of ``doc``'s images in presented order (None if any is missing)."""
    meta = doc.get("image_meta") or {}
    images = [(meta.get(c) or {}).get("pixels") for c in suite.presented_images(doc)]
    return images if images and all(p is not None for p in images) else None


def eligible(suite: Any, row: Row) -> bool:
    """A closed question whose answer the images' statistics could betray (not their shape itself)."""
    options = suite.closed_answers(row)
    return bool(options) and len(options) <= MAX_OPTIONS and not suite.pixels_are_evidence(row)


def _matrix(suite: Any, docs: Sequence[Row]) -> tuple[Any, list[str]]:
    """(features, template names): one row per document, the template code in the last column."""
    import numpy as np
    from chartprobe.dataset_builders.core.image_statistics import features

    feats = [features(pixels_of(suite, d)) for d in docs]
    names = sorted({k for f in feats for k in f})
    templates = sorted({suite.group_key(d) for d in docs})
    code = {t: i for i, t in enumerate(templates)}
    x = np.full((len(docs), len(names) + 1), np.nan)
    for i, (d, f) in enumerate(zip(docs, feats)):
        x[i, :-1] = [f.get(n, np.nan) for n in names]
        x[i, -1] = code[suite.group_key(d)]
    return x, templates


def _fit_fold(job: tuple[Any, Any, Any, Any]) -> tuple[Any, Any]:
    """(classes seen, their probabilities on the held-out rows) of one fold's model."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from threadpoolctl import threadpool_limits

    x_train, y_train, x_test, cat = job
    seen = np.unique(y_train)
    if len(seen) == 1:
        return seen, np.ones((len(x_test), 1))
    with threadpool_limits(limits=1):
        model = HistGradientBoostingClassifier(categorical_features=cat if cat.any() else None, **PARAMS)
        model.fit(x_train, y_train)
        return model.classes_, model.predict_proba(x_test)


def out_of_fold(suite: Any, docs: Sequence[Row], workers: int = 1, pool: Any = None) -> list[dict[str, float]]:
    """Per document, the held-out model's probability of each answer its template takes
    (``workers``: folds fitted at once, in worker processes, ``pool``'s if given; the same numbers
    with any count)."""
    import numpy as np
    from sklearn.model_selection import GroupKFold

    x, templates = _matrix(suite, docs)
    golds = [str(d["answer"]) for d in docs]
    classes = sorted(set(golds))
    y = np.array([classes.index(g) for g in golds])
    units = [suite.unit_key(d) for d in docs]
    per_template: dict[str, set[str]] = defaultdict(set)
    for d, g in zip(docs, golds):
        per_template[suite.group_key(d)].add(g)
    proba = np.zeros((len(docs), len(classes)))
    n_folds = min(FOLDS, len(set(units)))
    if n_folds < 2:
        return [{} for _ in docs]
    cat = np.zeros(x.shape[1], dtype=bool)
    cat[-1] = len(templates) > 1
    # One OpenMP thread per fit: its team costs ~1 s per fit of a few dozen rows on a busy machine
    # (measured). Folds run in worker processes instead (threads ran 3x slower: the GIL); each
    # returns only its own held-out rows' probabilities.
    folds = list(GroupKFold(n_splits=n_folds).split(x, y, units))
    jobs = [(x[train], y[train], x[test], cat) for train, test in folds]
    if workers < 2 or len(folds) < 2:
        fitted = map(_fit_fold, jobs)
    elif pool is not None:
        fitted = list(pool.map(_fit_fold, jobs))
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as own:
            fitted = list(own.map(_fit_fold, jobs))
    for (_, test), (seen, p) in zip(folds, fitted):
        proba[np.ix_(test, seen)] = p
    return [{c: float(proba[i, classes.index(c)]) for c in sorted(per_template[suite.group_key(d)])}
            for i, d in enumerate(docs)]


@agent("image_stats")
class ImageStats(Agent):
    description = "gradient boosting on pixel statistics (ink, colour, margins, compressibility, pair differences)"
    requires = (("sklearn", "validate"),)
    learned = True

    def __init__(self) -> None:
        self._memo: dict[tuple[int, ...], dict[int, dict[str, float]]] = {}
        self._last: dict[int, dict[str, float]] = {}

    @staticmethod
    def _load_estimator() -> None:
        import sklearn.ensemble  # noqa: F401  (loaded before the fork, shared by the workers)

    def needs_pixels(self, suite: Any, row: Row) -> bool:
        return eligible(suite, row)

    def predict(self, suite: Any, rows: Sequence[Row], fit_rows: Sequence[Row] = ()) -> list[str | None]:
        # One model per config: the rows answered here and the config's other splits, cross-fitted
        # together once (every split of the config reads the same out-of-fold probabilities).
        docs = [d for d in [*rows, *fit_rows] if eligible(suite, d) and pixels_of(suite, d) is not None]
        key = tuple(sorted(id(d) for d in docs))
        if key not in self._memo:
            pool = self.worker_pool(self._load_estimator) if self.num_proc > 1 else None
            self._memo[key] = dict(zip(map(id, docs), out_of_fold(suite, docs, self.num_proc, pool))) if docs else {}
        self._last = self._memo[key]
        out: list[str | None] = []
        for r in rows:
            probs = self._last.get(id(r))
            out.append(min(probs, key=lambda a: (-probs[a], a)) if probs else None)
        return out

    def scores(self, suite: Any, rows: Sequence[Row]) -> list[Mapping[str, float] | None]:
        return [self._last.get(id(r)) or None for r in rows]
