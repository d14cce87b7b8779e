"""Sentence golds on a crafted released-families run: the typed scorer never calls a wrong sentence
right, leaves what it cannot decide "unsure" (counted apart), and the judge agrees.

The released-families fixture is built, then every member's gold is rewritten as a long sentence
(typed ``text``, as ChartMuseum's free-form answers are) and the release restamped, i.e. a release
*built* with these golds. Predictions follow PLAN: the gold itself, its opposite ("least" for
"most", which a fuzzy ratio of 0.96 used to accept), the original's sentence on a variant (stale:
a different year) or a different sentence the strict rule cannot decide (unsure; wrong by hand).
OA, SP and the sign-flip p are computed by hand from PLAN below, the p by enumerating the 2^6 sign
patterns with exact fractions.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from chat_standin import recording_server

from chartprobe.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "chartographer"
SUBJECTS = ("Watching television", "Reading comics", "Playing outside", "Doing homework", "Listening to music",
            "Visiting friends")
PLAN = {  # family -> (original, reconstruction, variants 0-9)
    "chartqa_val-q000000": ("ok", "ok", ["ok"] * 6 + ["stale"] * 2 + ["opposite", "unsure"]),
    "chartqa_val-q000001": ("opposite", "ok", ["ok"] * 5 + ["opposite"] * 5),
    "chartqa_val-q000002": ("ok", "unsure", ["ok"] * 10),
    "charxiv_validation-q000000": ("unsure", "opposite", ["unsure"] * 10),
    "chartmuseum_dev-q000000": ("ok", "ok", ["ok"] * 3 + ["stale"] * 3 + ["unsure"] * 4),
    "chartmuseum_dev-q000001": ("ok", "ok", ["ok"] * 8 + ["opposite"] * 2),
}
FAMILIES = tuple(PLAN)


def _gold(family: str, role: str, seed: int | None) -> str:
    year = 1990 if role != "variant" else 1991 + int(seed)
    return (f"{SUBJECTS[FAMILIES.index(family)]} was the most common activity among the children "
            f"surveyed in {year}")


def _kind(row: dict) -> str:
    original, recon, variants = PLAN[row["family_id"]]
    return {"original": original, "reconstruction": recon}.get(row["role"]) or variants[row["variant_seed"]]


def _prediction(row: dict) -> str:
    gold, kind = row["answer"], _kind(row)
    answer = {"ok": gold, "opposite": gold.replace(" most ", " least "),
              "stale": _gold(row["family_id"], "original", None),
              "unsure": f"{SUBJECTS[FAMILIES.index(row['family_id'])]} happened now and then for kids"}[kind]
    return f"<rationale>crafted</rationale> <answer>{answer}</answer>"


def _hand() -> dict:
    """OA, SP, unsure count and the exact two-sided sign-flip p, from PLAN alone."""
    oa = Fraction(sum(p[0] == "ok" for p in PLAN.values()), len(PLAN))
    solved = [p[2] for p in PLAN.values() if p[0] == "ok"]
    sp = Fraction(sum(v.count("stale") for v in solved), sum(len(v) for v in solved))
    unsure = sum([p[0], p[1], *p[2]].count("unsure") for p in PLAN.values())
    # per family d = mean variant correctness - original correctness; each family is its own cluster
    d = [Fraction(p[2].count("ok"), len(p[2])) - (p[0] == "ok") for p in PLAN.values()]
    observed = sum(d)
    null = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((1, -1), repeat=len(d))]
    less = Fraction(sum(t <= observed for t in null), len(null))
    greater = Fraction(sum(t >= observed for t in null), len(null))
    return {"OA": oa, "SP": sp, "unsure": unsure, "RVC_p": min(Fraction(1), 2 * min(less, greater))}


HAND = _hand()


def test_the_hand_values():
    """PLAN by hand: originals right A C E F (4/6); of their 40 variants 5 stale (A 2, E 3); unsure
    rows A 1 + C 1 + D 11 + E 4; d = (-2/5, 1/2, 0, 0, -7/10, -1/5), sum -4/5: 4 of 16 sign patterns
    of the non-zero d reach it, p = 2 x 1/4."""
    assert HAND == {"OA": Fraction(2, 3), "SP": Fraction(1, 8), "unsure": 17, "RVC_p": Fraction(1, 2)}


def _restamp(release: Path) -> None:
    """The card's content hash made that of the edited rows (a release built with these golds)."""
    from chartprobe.dataset_builders.release.card import read_card_metadata
    from chartprobe.dataset_builders.release.integrity import recompute_content_hash

    meta = read_card_metadata(release)
    readme = release / "README.md"
    readme.write_text(readme.read_text().replace(meta["chartprobe"]["content_hash"],
                                                 recompute_content_hash(release, meta)))


@pytest.fixture(scope="module")
def crafted(tmp_path_factory) -> tuple[Path, Path]:
    """(releases root, samples folder): the sentence-gold release and one model's samples on it."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from chartprobe.dataset_builders.release.labels import label_names
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples

    root = tmp_path_factory.mktemp("sentence-golds")
    assert main(["build", "families", "--released", str(FIXTURE), "--out", str(root), "--quiet"]) == 0
    release = root / "chartprobe-families"
    for path in sorted(release.glob("*/*.parquet")):
        table = pq.read_table(path)
        labels = label_names(table.schema)  # ClassLabel columns hold ids: edit names, store ids again
        rows = []
        for r in table.to_pylist():
            row = {**r, **{c: names[r[c]] for c, names in labels.items()}}
            row["answer"] = _gold(row["family_id"], row["role"], row["variant_seed"])
            row["original_answer"] = _gold(row["family_id"], "original", None)
            row["answer_type"] = "text"
            rows.append({**row, **{c: names.index(row[c]) for c, names in labels.items()}})
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    _restamp(release)
    rows = load_release_rows(release)[("all", "test")]
    assert {r["answer_type"] for r in rows} == {"text"}
    samples = tmp_path_factory.mktemp("sentence-runs")
    write_samples(samples / "model", "chartprobe_families", rows, [_prediction(r) for r in rows])
    return root, samples


def _families(out: Path) -> dict:
    return json.loads(out.read_text())["models"]["model"]["suites"]["families"]


def test_the_typed_scorer_alone_gives_the_hand_values_and_reports_unsure_rows(crafted, tmp_path):
    root, samples = crafted
    out = tmp_path / "typed.json"
    assert main(["score", "--predictions", str(samples), "--out", str(out), "--releases", str(root), "--quiet"]) == 0
    fam = _families(out)
    assert fam["OA"] == pytest.approx(float(HAND["OA"])) and fam["SP"] == pytest.approx(float(HAND["SP"]))
    assert fam["RVC_p"] == pytest.approx(float(HAND["RVC_p"]))
    assert fam["unsure"] == HAND["unsure"]
    records = json.loads(out.read_text())["models"]["model"]["records"]["families"]
    assert sum(bool(u) for u in records["unsure"]) == HAND["unsure"]


def test_the_judge_resolves_the_unsure_rows_to_the_same_values(crafted, tmp_path):
    """The COMPARE_ANSWER judge (the loopback stand-in says "Yes" only to the gold itself) agrees
    with the hand values, and after it nothing is left unsure."""
    import re

    pair = re.compile(r"Answer 1: (?P<gold>.*)\nAnswer 2: (?P<pred>.*)\n\nPlease respond with:", re.DOTALL)

    def reply(body: dict) -> str:
        m = pair.search(body["messages"][0]["content"])
        return "Yes" if m and m["gold"].strip() == m["pred"].strip() else "No"

    root, samples = crafted
    out = tmp_path / "judged.json"
    with recording_server(reply) as server:
        assert main(["score", "--predictions", str(samples), "--out", str(out), "--releases", str(root), "--quiet",
                     "--judge", "--judge-base-url", server.base_url, "--judge-model", "judge",
                     "--judge-cache", str(tmp_path / "cache")]) == 0
        assert server.requests
    fam = _families(out)
    assert fam["OA"] == pytest.approx(float(HAND["OA"])) and fam["SP"] == pytest.approx(float(HAND["SP"]))
    assert fam["RVC_p"] == pytest.approx(float(HAND["RVC_p"])) and fam["unsure"] == 0


def test_lm_eval_reports_the_unsure_share_beside_the_family_metrics(crafted):
    """lm-eval's table gets ``unsure_rate`` from the same per-row items as OA and SP."""
    import importlib.util

    from chartprobe.eval_tasks.harness.runner import tasks_path
    from chartprobe.eval_tasks.metrics import families as fm
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows

    root, _ = crafted
    spec = importlib.util.spec_from_file_location("families_utils_unsure", Path(tasks_path()) / "families_utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    rows = load_release_rows(root / "chartprobe-families")[("all", "test")]
    items = [fm.to_item(fm.score_family_record(r, _prediction(r))) for r in rows]
    assert utils.unsure_rate(items) == pytest.approx(HAND["unsure"] / len(rows))
    assert utils.original_accuracy(items) == pytest.approx(float(HAND["OA"]))
    assert utils.stale_prediction_rate(items) == pytest.approx(float(HAND["SP"]))
