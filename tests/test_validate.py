"""`chartprobe validate`: passes on the small releases, fails on deliberately broken ones, writes the card."""

from __future__ import annotations

import argparse
import json
import shutil

import pytest
from chartprobe.dataset_builders.release.card import read_card_metadata, write_card_section
from chartprobe.dataset_builders.release.labels import decode_batch, label_names
from chartprobe.eval_tasks.commands import add_parsers
from chartprobe.eval_tasks.suites._checks import majority_lower, wilson_lower


def _cli(argv):
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_wilson_lower_bound_guards_small_samples_only():
    assert wilson_lower(5, 5) < 0.75 < wilson_lower(20, 20)  # 5/5 "yes" is chance, 20/20 is not
    assert wilson_lower(0, 0) == 0.0 and wilson_lower(50, 100) < 0.5


def _majority_rows(answers, vocabulary):
    aliases = json.dumps({a: [] for a in vocabulary})
    return [{"template_id": "T", "answer": a, "answer_type": "label", "answer_aliases": aliases, "program": "{}"}
            for a in answers]


@pytest.mark.parametrize(("answers", "vocabulary", "want"), [
    (["yes"] * 30, ("yes", "no"), "fail"),  # 30/30: far past 1.5x a coin
    (["yes"] * 8, ("yes", "no"), "pass"),  # 8/8 happens to a 0.75-biased coin 10% of the time
    (["red"] * 3 + ["blue", "green", "gray", "pink", "cyan", "brown"], tuple("abcdefghijk"), "pass"),
    (["red"] * 8 + ["blue"], tuple("abcdefghijk"), "fail"),
    (["red"], tuple("abcdefgh"), "pass"),  # one row says nothing about a majority
])
def test_majority_share_is_tested_over_the_whole_answer_set(answers, vocabulary, want):
    from chartprobe.eval_tasks.suites import SUITES
    from chartprobe.eval_tasks.suites._checks import majority_share_checks
    from chartprobe.eval_tasks.suites._runs import RunSet

    runs = RunSet("chartprobe-probes", {("bar", "test"): _majority_rows(answers, vocabulary)})
    (check,) = majority_share_checks(SUITES.get("probes")(), runs)
    assert check.status == want, check


def test_small_releases_pass_and_tables_are_written(probes_release, smoke_release, tmp_path, capsys):
    rc = _cli(["validate", str(probes_release), str(smoke_release), "--out", str(tmp_path / "v")])
    out = capsys.readouterr().out
    assert rc == 0, out
    doc = json.loads((tmp_path / "v" / "validity.json").read_text())
    assert [d["dataset"] for d in doc] == ["probes", "smoke"] and all(d["passed"] for d in doc)
    checks = {(c["check"], c["scope"]) for c in doc[0]["checks"]}
    assert ("oracle accuracy", "bar/test") in checks and ("oracle accuracy", "cr_pie/test") in checks
    assert ("legend-order shortcut accuracy", "pie") in checks
    assert ("majority answer share", "bar:P-HEIGHT-2X") in checks
    assert "| oracle accuracy | `shapes/train` | oracle | 1.000 |" in (tmp_path / "v" / "validity.md").read_text()


def _corrupt(release, config, edit):
    """Rewrite every split of ``config`` through ``edit(row) -> row`` (image column kept)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for path in sorted((release / config).glob("*.parquet")):
        table = pq.read_table(path)
        labels = label_names(table.schema)  # ClassLabel columns: edit names, store their ids again
        rows = []
        for r in table.to_pylist():
            row = edit({**r, **{c: names[r[c]] for c, names in labels.items()}})
            rows.append({**row, **{c: names.index(row[c]) for c, names in labels.items()}})
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    _restamp(release)


def _restamp(release):
    """The card's content hash made that of the edited rows: a release *built* with these faults
    (a stale hash is refused before any check runs; tests/test_release_integrity.py)."""
    from chartprobe.dataset_builders.release.integrity import recompute_content_hash

    meta = read_card_metadata(release)
    old = meta["chartprobe"]["content_hash"]
    readme = release / "README.md"
    readme.write_text(readme.read_text().replace(old, recompute_content_hash(release, meta)))


@pytest.fixture(scope="module")
def broken_release(probes_release, tmp_path_factory):
    """A copy of the small probes release with three planted faults in ``bar``: a wrong stored
    answer, all-"yes" closed templates, and question texts that give the answer away."""
    release = tmp_path_factory.mktemp("broken") / "chartprobe-probes"
    shutil.copytree(probes_release, release)

    def edit(row):
        if row["template_id"] == "R-ARITH-TOTAL":  # a wrong stored answer
            row["answer"] = str(float(row["answer"]) * 2)
        if row["answer_type"] == "bool":  # closed-answer templates that are all "yes"
            row["answer"] = "yes"
        if row["answer_type"] in ("bool", "count", "integer"):  # a phrasing chosen by the answer leaks it
            row["question"] = f"{row['template_id']}: the answer is {row['answer']}"
        return row

    _corrupt(release, "bar", edit)
    return release


def test_broken_release_exits_non_zero_naming_each_fault(broken_release, tmp_path, capsys):
    rc = _cli(["validate", str(broken_release), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 1
    failed = {(c["check"], c["scope"]) for c in json.loads((tmp_path / "validity.json").read_text())[0]["checks"]
              if c["status"] == "fail"}
    assert ("oracle accuracy", "bar/test") in failed and ("oracle accuracy", "bar/train") in failed
    # Every all-"yes" template asked often enough for n/n to be evidence (bound over yes/no > 0.75) fails.
    import pandas as pd
    import pyarrow.parquet as pq

    bar = pd.concat(decode_batch(pq.read_table(p, columns=["template_id", "answer_type"]),
                                 label_names(pq.read_schema(p))).to_pandas()
                    for p in (broken_release / "bar").glob("*.parquet"))
    sizes = bar[bar.answer_type == "bool"].template_id.value_counts()
    evident = {t for t, n in sizes.items() if majority_lower(n, n, 2) > 0.75}
    assert {("majority answer share", f"bar:{t}") for t in evident} <= failed
    shares = {c["scope"]: c["value"] for c in json.loads((tmp_path / "validity.json").read_text())[0]["checks"]
              if c["check"] == "majority answer share"}
    assert sizes.size and all(shares[f"bar:{t}"] == 1.0 for t in sizes.index)  # shown even where n is too small
    # 12 charts are too few for the leak to be significant, but the gap is measured and shown.
    gaps = {c["scope"]: c["value"] for c in json.loads((tmp_path / "validity.json").read_text())[0]["checks"]
            if c["check"] == "blind gap over majority"}
    assert max(gaps[f"bar/{s}"] for s in ("train", "validation", "test")) > 0.0 and gaps["hbar/train"] <= 0.05
    assert not any(scope.startswith(("hbar", "pie", "shapes", "cr_")) for _, scope in failed)  # only bar broke
    assert "FAIL chartprobe-probes: oracle accuracy [bar/test]" in out


def test_write_card_inserts_then_replaces_the_validity_section(probes_release, tmp_path):
    release = tmp_path / "chartprobe-probes"
    shutil.copytree(probes_release, release)
    before = read_card_metadata(release)
    assert _cli(["validate", str(release), "--write-card"]) == 0
    assert _cli(["validate", str(release), "--write-card"]) == 0
    text = (release / "README.md").read_text()
    assert text.count("## Validity") == 1 and "| oracle accuracy | `bar/test` |" in text
    assert text.index("## Validity") < text.index("## Citation")  # before the citation block
    assert read_card_metadata(release) == before  # YAML header (content hash) untouched


def test_write_card_section_appends_when_there_is_no_citation(tmp_path):
    (tmp_path / "README.md").write_text("---\na: 1\n---\n\n# T\n\n## Other\n\ntext\n")
    write_card_section(tmp_path, "Validity", "v1")
    write_card_section(tmp_path, "Validity", "v2")
    text = (tmp_path / "README.md").read_text()
    assert text.endswith("## Validity\n\nv2\n") and "v1" not in text and "## Other\n\ntext\n" in text


def test_families_release_passes_and_stale_variants_fail(release_root, tmp_path, capsys):
    """The small families release passes; one whose variants never change their answer fails
    exactly on the stale-agent check and, for its closed-vocabulary source, on the majority
    share (the oracle still agrees, since specs are consistent)."""
    families = release_root / "chartprobe-families"
    assert _cli(["validate", str(families), "--out", str(tmp_path / "ok")]) == 0, capsys.readouterr().out

    broken = tmp_path / "broken" / "chartprobe-families"
    shutil.copytree(families, broken)
    import pyarrow.parquet as pq

    base = {r["family_id"]: r for r in pq.read_table(broken / "all").to_pylist() if r["role"] == "reconstruction"}

    def freeze(row):  # every variant re-shows the reconstruction: data and answer never change
        if row["role"] == "variant":
            row["spec"], row["answer"] = base[row["family_id"]]["spec"], base[row["family_id"]]["answer"]
        return row

    _corrupt(broken, "all", freeze)
    assert _cli(["validate", str(broken), "--out", str(tmp_path / "bad")]) == 1
    doc = json.loads((tmp_path / "bad" / "validity.json").read_text())[0]
    failed = {(c["check"], c["scope"]) for c in doc["checks"] if c["status"] == "fail"}
    # The frozen family of the closed positive/negative source also answers one way on all 12 rows.
    assert failed == {("stale-agent CVA (unchanged variants)", "all"), ("majority answer share", "all:scatter_correlation")}


def test_judge_release_passes_and_an_all_accept_crj_set_fails(release_root, tmp_path):
    """First-position and always-accept agents are caught; a CRJ set that is all Accept fails
    the class-balance check (and only that check)."""
    judge = release_root / "chartprobe-judge"
    assert _cli(["validate", str(judge), "--out", str(tmp_path / "ok")]) == 0
    doc = json.loads((tmp_path / "ok" / "validity.json").read_text())[0]
    by_check = {c["check"]: c for c in doc["checks"]}
    assert by_check["first-position two-pass accuracy"]["value"] == 0.0
    assert by_check["always-accept specificity"]["value"] == 0.0

    broken = tmp_path / "broken" / "chartprobe-judge"
    shutil.copytree(judge, broken)

    def accept_all(row):  # relabel and clear the injected failure, so the oracle still agrees
        row["label"] = row["answer"] = "Accept"
        row["failure"] = "none"
        return row

    _corrupt(broken, "crj_reproduction", accept_all)
    assert _cli(["validate", str(broken), "--out", str(tmp_path / "bad")]) == 1
    doc = json.loads((tmp_path / "bad" / "validity.json").read_text())[0]
    failed = {(c["check"], c["scope"]) for c in doc["checks"] if c["status"] == "fail"}
    assert ("CRJ Accept share (class balance)", "crj_reproduction/test") in failed
    assert all(scope.startswith("crj_reproduction") for _, scope in failed)


@pytest.mark.parametrize("leak,expect", [(True, "fail"), (False, "pass")])
def test_blind_gap_check_catches_question_text_that_gives_the_answer_away(leak, expect):
    """300 independent yes/no items: when the wording depends on the answer, the blind agent
    (question text only) beats the template majority far beyond the 5-point margin."""
    from chartprobe.dataset_builders.core.rng import rng_for
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.suites._checks import blind_checks
    from chartprobe.eval_tasks.validity.validate import run_agents

    rows = {}
    for split in ("train", "test"):
        answers = ["yes" if rng_for(5, split, i).random() < 0.5 else "no" for i in range(150)]
        rows[("bar", split)] = [
            {"id": f"{split}-{i}", "chart_id": f"{split}-{i}", "template_id": "P-HEIGHT-COMPARE",
             "skill": "perception", "domain": "bar", "answer_type": "bool", "answer": a,
             "question": f"Is it taller? ({a})" if leak else "Is it taller?", "program": "{}"}
            for i, a in enumerate(answers)]
    suite = suite_for_release("probes")
    checks = blind_checks(suite, run_agents("probes", rows, agents=["blind"]))
    split_check = next(c for c in checks if c.check == "blind gap over majority" and c.scope == "bar/test")
    assert split_check.status == expect, split_check


def _count_rows(answers, template="t3_crossing"):
    return [{"id": f"r{i}", "template": template, "answer": a, "answer_type": "count", "base_id": f"b{i}"}
            for i, a in enumerate(answers)]


@pytest.mark.parametrize(("answers", "status"), [
    (["0"] * 60 + ["1"] * 37 + ["2"] * 3, "fail"),   # the crossing count before balancing: "0" on 60%
    (["0"] * 49 + ["1"] * 48 + ["2"] * 3, "pass"),   # after: 0 49%, 1 48%, 2 3% (limit 1.5 / 3)
    (["0"] * 5 + ["1"] * 2, "pass"),                 # 5/7 is not evidence of skew (Wilson bound)
])
def test_majority_share_covers_declared_count_sets(answers, status):
    """A count template that declares its answer set (crossings: 0-2) is checked against it."""
    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.suites._checks import majority_share_checks
    from chartprobe.eval_tasks.suites._runs import RunSet

    checks = majority_share_checks(suite_for_release("legend"), RunSet("legend", {("snapshot", "test"): _count_rows(answers)}))
    assert [(c.scope, c.status) for c in checks] == [("snapshot:t3_crossing", status)]
    assert "majority '0'" in checks[0].threshold


def test_counts_without_a_declared_set_are_not_checked_but_ranks_are_per_chart():
    """An open count (objects in a scene) has no uniform; a rank's set is 1..n of its own chart."""
    import json

    from chartprobe.eval_tasks.suites import suite_for_release
    from chartprobe.eval_tasks.suites._checks import majority_share_checks
    from chartprobe.eval_tasks.suites._runs import RunSet

    suite = suite_for_release("legend")
    humped = _count_rows([str(k) for k in (3, 4, 4, 5, 5, 5, 5, 6, 6, 7)] * 20, template="t2_value")
    assert majority_share_checks(suite, RunSet("legend", {("snapshot", "test"): humped})) == []
    two = json.dumps({"encodings": [{}, {}]})
    ranks = [{**r, "template": "t3_rank", "answer_type": "integer", "chart_spec": two}
             for r in _count_rows(["1"] * 55 + ["2"] * 45)]
    (check,) = majority_share_checks(suite, RunSet("legend", {("snapshot", "test"): ranks}))
    assert check.status == "pass" and "<= 0.75" in check.threshold  # 2-item charts: uniform 1/2


def test_the_oracle_in_two_processes_gives_the_same_answers_in_order(probes_release, monkeypatch):
    """``--num-proc 2``: box answers are redrawn in worker processes; every answer and its order match
    one process (the small release's splits are under the parallel threshold, so it is lowered)."""
    from chartprobe.eval_tasks.validity.agents import oracle
    from chartprobe.eval_tasks.validity.validate import load_for_agents, release_dataset, run_agents

    release = probes_release
    rows = load_for_agents(release, release_dataset(release), ["oracle"])
    rows = {k: v for k, v in rows.items() if k in {("bar", "test"), ("shapes", "test")}}
    assert any(r["answer_type"] == "bbox" for r in rows[("bar", "test")])  # redrawn charts are in it
    one = run_agents("probes", rows, ["oracle"], num_proc=1)
    monkeypatch.setattr(oracle, "PARALLEL_MIN_ROWS", 10)
    pools, closed = [], []  # one pool serves both config/splits, and the run closes it
    real_workers, real_close = oracle.Oracle.worker_pool, oracle.Oracle.close
    monkeypatch.setattr(oracle.Oracle, "worker_pool", lambda self, warm=None: pools.append(real_workers(self, warm))
                        or pools[-1])
    monkeypatch.setattr(oracle.Oracle, "close", lambda self: closed.append(self._pool) or real_close(self))
    two = run_agents("probes", rows, ["oracle"], num_proc=2)
    assert len(pools) == 2 and pools[0] is pools[1] and closed == [pools[0]]
    for key in rows:
        a, b = one.get("oracle", *key), two.get("oracle", *key)
        assert a.predictions == b.predictions and [r["id"] for r in a.rows] == [r["id"] for r in b.rows]
        assert all(rec["correct"] for rec in b.records)


def test_pixel_statistics_from_worker_processes_are_one_process_s(release_root):
    """``--num-proc 2`` describes the images in worker processes while the release loads: every row's
    statistics are the same numbers and thumbnails; an image PIL cannot decode has none, as in one process."""
    from chartprobe.dataset_builders.core.pixel_pool import PooledPixelReader
    from chartprobe.eval_tasks.validity.validate import load_for_agents, release_dataset

    judge = release_root / "chartprobe-judge"
    one = load_for_agents(judge, release_dataset(judge), ["image_stats"], num_proc=1)
    two = load_for_agents(judge, release_dataset(judge), ["image_stats"], num_proc=2)
    described = 0
    for key, rows in one.items():
        for a, b in zip(rows, two[key], strict=True):
            for column, meta in a["image_meta"].items():
                pa, pb = (meta or {}).get("pixels"), (b["image_meta"][column] or {}).get("pixels")
                assert (pa is None) == (pb is None)
                if pa is not None:
                    described += 1
                    assert pa.values == pb.values and (pa.thumb == pb.thumb).all()
    assert described > 40  # the small judge release: 62 image cells
    reader = PooledPixelReader(lambda row: True, 2)
    rows = [{"image_meta": {"image": {"format": "png"}}}]
    rows[0]["image_meta"]["image"]["pixels"] = reader({}, "image", {"bytes": b"not an image"})
    reader.finish(rows)
    assert rows == [{"image_meta": {"image": {"format": "png"}}}]


def test_validate_refuses_a_bad_num_proc(probes_release, capsys):
    from chartprobe.cli import main

    assert main(["validate", str(probes_release), "--num-proc", "0"]) == 2
    assert "--num-proc must be >= 1, got 0" in capsys.readouterr().err
