"""Score the published answer-equivalence set three ways and list where they disagree.

1. our typed scorer (correct / wrong / unsure);
2. lm-eval's ``chartqa`` relaxed accuracy (``lm_eval/tasks/chartqa/utils.py``, imported from the
   installed lm_eval: it reads the text after "Final Answer:" and allows ±5% on numbers);
3. the ``COMPARE_ANSWER`` LLM judge through the loopback stand-in (``tests/chat_standin.py``) with
   scripted verdicts (the hand verdict of each case: what a faithful judge would answer), so the
   judge's column measures the prompt and client path, not a model.

Usage: ``.venv/bin/python benchmarks/answer_equivalence.py [--limit N]`` from the repository root.
Prints the agreement of each scorer with the hand verdicts and every disagreement.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "answer_equivalence.jsonl"


def _relaxed(prediction: str, gold: str) -> bool:
    from lm_eval.tasks.chartqa.utils import relaxed_accuracy

    result = relaxed_accuracy([gold], [prediction])
    return bool(result and result.get("relaxed_accuracy") == 1.0)


def main(argv: list[str] | None = None) -> int:
    """Run the three scorers over the set and print agreement and disagreements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="score only the first N cases")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    from chartprobe.eval_tasks.answer_judge.client import Judge
    from chartprobe.eval_tasks.scoring import extract_answer, score_answer
    from chat_standin import recording_server

    cases = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = cases[: args.limit] if args.limit else cases
    current: dict[str, str] = {}
    rows = []
    with recording_server(lambda body: current["reply"]) as server, tempfile.TemporaryDirectory() as cache:
        judge = Judge(base_url=server.base_url, model="scripted-judge", cache_dir=cache, max_retries=0)
        for case in cases:
            current["reply"] = "Yes" if case["verdict"] == "right" else "No"
            typed = score_answer(case["prediction"], case["gold"], case["answer_type"])
            decision = judge.decide("(question)", case["gold"], extract_answer(case["prediction"]))
            rows.append((case, "unsure" if typed.unsure else "right" if typed.correct else "wrong",
                         "right" if _relaxed(case["prediction"], case["gold"]) else "wrong",
                         "right" if decision.correct else "wrong"))
    for column, name in ((1, "typed scorer"), (2, "lm-eval chartqa relaxed_accuracy"), (3, "COMPARE_ANSWER judge")):
        agree = sum(row[column] == row[0]["verdict"] for row in rows)
        false_accepts = sum(row[column] == "right" and row[0]["verdict"] == "wrong" for row in rows)
        unsure = sum(row[column] == "unsure" for row in rows)
        print(f"{name}: agrees on {agree}/{len(rows)}, wrong answers accepted {false_accepts}, unsure {unsure}")
    print("\ndisagreements (id | hand | typed | relaxed | judge | gold | prediction):")
    for case, typed, relaxed, judged in rows:
        if len({case["verdict"], typed, relaxed, judged}) > 1:
            print(f"{case['id']} | {case['verdict']} | {typed} | {relaxed} | {judged} | {case['gold']!r} | "
                  f"{case['prediction'][:60]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
