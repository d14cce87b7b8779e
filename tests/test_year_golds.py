"""Years and periods are their own answer type wherever a gold is one, in generated and released data.

A bar labelled "2011", a wedge "Q3 2023", a released family answering "2015": each is typed ``year``
and matched as a period, exactly ("2012" for "2016" is wrong, never within ±5% nor a fuzzy label).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from chartprobe.dataset_builders.core.answer_types import gold_type, is_period_gold
from chartprobe.dataset_builders.release.labels import decode_batch, label_names
from chartprobe.eval_tasks.scoring.typed import score_answer, score_doc

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartographer"
_ASKS_YEAR = re.compile(r"\b(?:years?|when)\b", re.IGNORECASE)


def _rows(release: Path) -> list[dict]:
    import pyarrow.parquet as pq

    out = []
    for path in sorted(release.glob("*/*.parquet")):
        schema = pq.read_schema(path)
        cols = [c for c in ("id", "question", "answer", "answer_type") if c in schema.names]
        if "answer" not in cols:
            continue
        out += decode_batch(pq.read_table(path, columns=cols), label_names(schema)).to_pylist()
    return out


def _untyped_years(rows: list[dict]) -> list[tuple]:
    """Rows whose gold is a year or period but whose type would match it as something else."""
    bad = []
    for r in rows:
        answer, kind, question = str(r["answer"]), r["answer_type"], str(r.get("question") or "")
        if not is_period_gold(answer, question):
            continue
        if kind in ("label", "text") or (kind in ("number", "integer") and _ASKS_YEAR.search(question)):
            bad.append((r.get("id"), answer, kind))
    return bad


@pytest.fixture(scope="module")
def released_families(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("released-years")
    assert main(["build", "families", "--released", str(FIXTURE), "--out", str(out), "--quiet"]) == 0
    return out / "chartprobe-families"


@pytest.mark.parametrize("dataset", ["probes", "legend", "families", "smoke", "judge"])
def test_every_generated_year_gold_is_typed_year(release_root, dataset):
    rows = _rows(release_root / f"chartprobe-{dataset}")
    assert rows and _untyped_years(rows) == []


def test_the_small_releases_have_year_golds_to_type(release_root):
    """The check above is not empty: generated labels that are years exist and are typed ``year``."""
    typed = [r for d in ("probes", "legend", "families") for r in _rows(release_root / f"chartprobe-{d}")
             if r["answer_type"] == "year"]
    assert len(typed) >= 10


def test_every_released_year_gold_is_typed_year(released_families):
    rows = _rows(released_families)
    assert _untyped_years(rows) == [] and any(r["answer_type"] == "year" for r in rows)


def test_a_wrong_year_is_wrong_on_every_year_row(release_root, released_families):
    """2012 for 2016 is wrong; on each year row, the year after the gold is wrong, the gold right."""
    assert not score_answer("2012", "2016", "year").correct
    assert score_answer("FY2016", "2016", "year").correct and score_answer("Q3 2019", "Q3 2019", "year").correct
    rows = [r for d in ("probes", "legend", "families") for r in _rows(release_root / f"chartprobe-{d}")]
    rows += _rows(released_families)
    years = [r for r in rows if r["answer_type"] == "year" and re.fullmatch(r"\d{4}", str(r["answer"]))]
    assert years
    for r in years:
        assert score_doc(r, str(r["answer"])).correct, r
        assert not score_doc(r, str(int(r["answer"]) + 1)).correct, r
        assert not score_doc(r, str(int(r["answer"]) - 4)).correct, r


@pytest.mark.parametrize(("kind", "answer", "question", "want"), [
    ("label", "2011", "What is the label of the leftmost bar?", "year"),
    ("label", "Q3 2023", "What is the label of the largest segment?", "year"),
    ("label", "Germany", "What is the label of the leftmost bar?", "label"),
    ("label", "Q3", "Which quarter is largest?", "label"),  # no year: a category, not a period
    ("number", "1950", "What is the value of the bar for Chile?", "number"),  # a value, not a year
    ("list", '["2011", "2012"]', "Which years exceed 10?", "list"),
])
def test_gold_type(kind, answer, question, want):
    assert gold_type(kind, answer, question) == want


def test_each_released_row_stores_why_it_got_its_type(released_families, release_root):
    """The classification is made when the release is built and stored: the rule that read every
    member's answer, and the earlier rules that did not (a generated row names its source template)."""
    from datasets import load_dataset

    rows = load_dataset(str(released_families), "all", split="test")
    for kind, reason in zip(rows["answer_type"], rows["answer_type_reason"]):
        assert re.match(rf"rule \d \({kind}\): every member's answer is ", reason), (kind, reason)
    year = next(r for k, r in zip(rows["answer_type"], rows["answer_type_reason"]) if k == "year")
    assert year.endswith("; not bool")
    generated = load_dataset(str(release_root / "chartprobe-families"), "all", split="test")
    assert all(r.startswith(f"generated: {k}, ") for k, r in zip(generated["answer_type"], generated["answer_type_reason"]))
