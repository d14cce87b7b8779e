"""``Suite.score_accuracy`` (the verdict alone, what chance levels score ~10^5 candidates with) is the
accuracy of the full scored record, and ``Suite.score_key`` groups rows that score every candidate
alike: chance levels keep one memo of candidate scores per validate run, across splits and configs."""

from __future__ import annotations

import pytest
from chartprobe.dataset_builders.release.dataset import DATASETS
from chartprobe.eval_tasks.rescoring.predictions import load_release_rows
from chartprobe.eval_tasks.suites import suite_for_release

SAMPLE = 400  # rows per release, spread over every config/split


@pytest.fixture(scope="module")
def documents(release_root):
    def of(name: str) -> list[dict]:
        suite = suite_for_release(name)
        rows = load_release_rows(release_root / f"chartprobe-{name}")
        docs = [d for (config, _), rs in sorted(rows.items()) for d in suite.documents(config, rs)]
        return docs[::max(1, len(docs) // SAMPLE)]
    return of


@pytest.mark.parametrize("name", sorted(DATASETS.names()))  # every release conftest builds, each its suite
def test_the_verdict_alone_is_the_scored_record_s_accuracy(documents, name):
    suite = suite_for_release(name)
    docs = documents(name)
    golds = sorted({str(d["answer"]) for d in docs})
    by_key: dict = {}
    checked = 0
    for d in docs:
        candidates = list(suite.answer_space(d, golds))[:12] + [str(d["answer"]), "", "I don't know"]
        verdicts = {c: suite.score_accuracy(d, c) for c in candidates}
        assert verdicts == {c: suite.accuracy(suite.score(d, c)) for c in candidates}, d.get("id")
        checked += len(candidates)
        key = suite.score_key(d)
        if key is not None:  # rows of one key, wherever they are, give every candidate one verdict
            for c, v in verdicts.items():
                assert by_key.setdefault((key, c), v) == v, (d.get("id"), c)
    assert checked > 100
