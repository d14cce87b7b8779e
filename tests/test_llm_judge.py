"""The LLM answer-equivalence judge (Chartographer A.7) as a first-class scorer.

Contract tests of our calls against a loopback OpenAI-compatible stand-in that records every
request and answers scripted replies (a real judge's answers are not what is tested): the frozen
released ``COMPARE_ANSWER`` prompt filled as the released code fills it, temperature 0, retries of
a transient failure, the reply parser, the content cache (a rerun makes no request and writes the
same results), the ``scorer`` recorded in results, and the report refusing or marking a suite
whose numbers come from different scorers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from chartprobe.eval_tasks.answer_judge.client import Judge, JudgeError, fill_prompt, prompt_sha256
from chartprobe.eval_tasks.answer_judge.parse import parse_verdict
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.scoring import paper_prompts as pp

from chartprobe.cli import main

# compling-wat/Chartographer src/config/task_prompts.py at commit 1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083:
# sha256 of the value of CHARTMUSEUM_PROMPTS["COMPARE_ANSWER"] (2,627 characters, no final newline)
RELEASED_COMPARE_ANSWER_SHA256 = "234e7c18d0f850c94c234fa35fdedf4c0c0f23f509364b2178c0137099a60455"
SERVER_MODEL = "standin-judge-2026"
_PAIR = re.compile(r"Answer 1: (?P<gold>.*)\nAnswer 2: (?P<pred>.*)\n\nPlease respond with:", re.DOTALL)


# ---------------------------------------------------------------- the stand-in server

class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, reply: Callable[[dict[str, Any]], str | int], delay: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.reply, self.delay = reply, delay
        self.requests: list[dict[str, Any]] = []
        self.headers_seen: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.in_flight = self.max_in_flight = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:
        """Silent: one line per request would flood pytest's output."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        with self.server.lock:
            self.server.requests.append(body)
            self.server.headers_seen.append({k.lower(): v for k, v in self.headers.items()})
            self.server.in_flight += 1
            self.server.max_in_flight = max(self.server.max_in_flight, self.server.in_flight)
        try:
            time.sleep(self.server.delay)
            answer = self.server.reply(body)
        finally:
            with self.server.lock:
                self.server.in_flight -= 1
        if isinstance(answer, int):  # a scripted HTTP failure
            self._send(answer, {"error": {"message": "scripted failure", "type": "server_error"}})
            return
        self._send(200, {"id": "standin", "object": "chat.completion", "created": 0, "model": SERVER_MODEL,
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": answer}}],
                         "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

    def _send(self, status: int, doc: dict[str, Any]) -> None:
        data = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def standin(reply: Callable[[dict[str, Any]], str | int], delay: float = 0.0) -> Iterator[_Server]:
    server = _Server(reply, delay)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _pair(body: dict[str, Any]) -> tuple[str, str]:
    m = _PAIR.search(body["messages"][0]["content"])
    assert m, "the request does not carry the released prompt's Answer 1 / Answer 2 block"
    return m["gold"], m["pred"]


YES_FORMS = ["Yes", "Yes.", "**Yes**", "<think>they match</think>\nYes", "Answer: yes, they are equivalent"]
NO_FORMS = ["No", "No.", "**No**", "<think>42 vs 41</think> No, they differ", "Final answer: NO"]


def scripted(body: dict[str, Any]) -> str:
    """Yes (in a rotating messy form) when the extracted answer equals the gold or says so, "I cannot
    tell" for an 'ambiguous' answer, else No."""
    gold, pred = _pair(body)
    if pred == "ambiguous":
        return "I cannot tell"
    forms = YES_FORMS if pred in (gold, "JUDGE-SAYS-YES") else NO_FORMS
    return forms[len(gold + pred) % len(forms)]


# ---------------------------------------------------------------- prompt, parser, client

def test_the_frozen_prompt_is_the_released_string():
    text = pp.released_prompt("chartographer_compare_answer")
    assert hashlib.sha256(text.encode()).hexdigest() == RELEASED_COMPARE_ANSWER_SHA256 == prompt_sha256()
    assert len(text) == 2627 and not text.endswith("\n")
    assert [text.count(p) for p in ("[QUESTION]", "[ANSWER1]", "[ANSWER2]")] == [1, 1, 1]
    assert text.startswith("You are provided with a question and two answers.")
    raw = (pp.PAPER_DIR / "chartographer_compare_answer.txt").read_bytes()
    assert raw == text.encode() + b"\n"  # stored with one final newline, dropped by the loader


def test_an_edited_judge_prompt_is_refused(tmp_path, monkeypatch):
    for f in pp.PAPER_DIR.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    target = tmp_path / "chartographer_compare_answer.txt"
    target.write_bytes(target.read_bytes().replace(b"sufficiently small", b"small"))
    monkeypatch.setattr(pp, "PAPER_DIR", tmp_path)
    pp.released_prompt.cache_clear()
    try:
        with pytest.raises(pp.PaperPromptChangedError, match="byte-identical"):
            fill_prompt("q", "1", "1")
    finally:
        pp.released_prompt.cache_clear()


def test_the_prompt_is_filled_as_the_released_code_fills_it():
    text = fill_prompt("Which year?", "2024", "around 2024")
    assert text.endswith('Question: Which year?\nAnswer 1: 2024\nAnswer 2: around 2024\n\nPlease respond with:\n'
                         '- "Yes" if the answers are equivalent\n- "No" if the answers are different')
    # sequential str.replace, as released: a question quoting a later placeholder gets it filled too
    assert "Question: say [ANSWER2]?" not in fill_prompt("say [ANSWER2]?", "a", "b")


@pytest.mark.parametrize(("reply", "verdict"), [
    ("Yes", "yes"), ("yes", "yes"), ("Yes.", "yes"), ("**Yes**", "yes"), ("YES!", "yes"),
    ("Answer: Yes", "yes"), ("Final answer: yes", "yes"), ("yes, they are equivalent", "yes"),
    ('"Yes"', "yes"), ("\\boxed{Yes}", "yes"), ("- Yes", "yes"), ("`yes`", "yes"),
    ("<think>Answer 1 is 42 and Answer 2 is 42.0, so no real difference</think>\nYes", "yes"),
    ("they are the same</think> Yes", "yes"),  # a server that strips the opening tag
    ("No", "no"), ("No.", "no"), ("**No**", "no"), ("no, the answers differ", "no"), ("Answer: NO", "no"),
    ("<think>yes? maybe</think>No", "no"),
    ("Yes or No", None), ("Yes. No.", None), ("", None), (None, None), ("Maybe", None),
    ("The answers are equivalent", None), ("<think>I think yes", None),  # reasoning cut off
    ("eyes", None), ("Nope", None),
])
def test_messy_replies_parse_or_are_unparsable(reply, verdict):
    assert parse_verdict(reply) == verdict


def test_request_carries_the_released_prompt_at_temperature_zero(tmp_path):
    with standin(lambda body: "Yes") as server:
        judge = Judge(base_url=server.base_url, model="judge-model", api_key="sk-TOPSECRET", cache_dir=str(tmp_path))
        decision = judge.decide("How many bars?", "7", "7 bars")
        assert "TOPSECRET" not in repr(judge) and "TOPSECRET" not in str(decision)
    assert (decision.correct, decision.verdict, decision.judge_id) == (True, "yes", f"judge-model@{SERVER_MODEL}")
    (sent,) = server.requests
    assert sent["model"] == "judge-model" and sent["temperature"] == 0 and sent["max_tokens"] == 128
    assert sent["messages"] == [{"role": "user", "content": fill_prompt("How many bars?", "7", "7 bars")}]
    assert server.headers_seen[0]["authorization"] == "Bearer sk-TOPSECRET"
    assert b"TOPSECRET" not in (tmp_path / "judge.sqlite").read_bytes()


def test_unparsable_and_empty_answers_are_wrong_without_stopping(tmp_path):
    with standin(lambda body: "Hmm, hard to say") as server:
        judge = Judge(base_url=server.base_url, model="m", cache_dir=str(tmp_path))
        odd = judge.decide("q", "1", "2")
        empty = judge.decide("q", "1", "  ")
    assert (odd.correct, odd.verdict) == (False, "unparsable")
    assert (empty.correct, empty.verdict) == (False, "empty") and len(server.requests) == 1  # nothing asked
    assert judge.counts() == {"calls": 1, "cached": 0, "parse_fail": 1}
    rec = fm.score_family_record({"family_id": "f", "role": "original", "question": "q", "answer": "1",
                                  "answer_type": "integer"}, "<answer>2</answer>", judge)
    assert rec["judge_verdict"] == "unparsable" and rec["correct"] is False


def test_a_transient_server_error_is_retried(tmp_path):
    calls = []

    def flaky(body):
        calls.append(1)
        return 500 if len(calls) == 1 else "Yes"

    with standin(flaky) as server:
        judge = Judge(base_url=server.base_url, model="m", cache_dir=str(tmp_path))
        assert judge.decide("q", "1", "1").correct
    assert len(server.requests) == 2


def test_a_judge_that_keeps_failing_is_one_clear_error(tmp_path):
    with standin(lambda body: 503) as server:
        judge = Judge(base_url=server.base_url, model="m", api_key="sk-TOPSECRET", max_retries=1,
                      cache_dir=str(tmp_path))
        with pytest.raises(JudgeError, match="failed after 1 retries") as info:
            judge.decide("q", "1", "1")
    assert len(server.requests) == 2 and "TOPSECRET" not in str(info.value)


def test_the_cache_answers_a_rerun_without_a_request(tmp_path):
    with standin(scripted) as server:
        first = Judge(base_url=server.base_url, model="m", cache_dir=str(tmp_path))
        assert first.decide("q", "5", "5").correct and not first.decide("q", "5", "6").correct
        assert len(server.requests) == 2
        assert first.decide("q", "5", "5").cached  # the same prompt again in this run: no request
    # a new process, another endpoint serving the same model: the key ignores the base URL
    again = Judge(base_url="http://127.0.0.1:9/v1", model="m", cache_dir=str(tmp_path))
    assert again.decide("q", "5", "5").cached and again.counts()["calls"] == 0
    other_model = Judge(base_url="http://127.0.0.1:9/v1", model="other", cache_dir=str(tmp_path), max_retries=0)
    with pytest.raises(JudgeError):  # another model is another key: it would have to ask
        other_model.decide("q", "5", "5")


def test_prefetch_asks_concurrently_within_the_limit(tmp_path):
    with standin(scripted, delay=0.2) as server:
        judge = Judge(base_url=server.base_url, model="m", concurrency=3, cache_dir=str(tmp_path))
        queries = [("q", str(i), str(i)) for i in range(9)]
        judge.prefetch(queries + queries)  # duplicates asked once
        assert len(server.requests) == 9 and 2 <= server.max_in_flight <= 3
        decisions = [judge.decide(*q) for q in queries]
    assert all(d.correct for d in decisions) and [d.cached for d in decisions] == [False] * 9
    assert judge.counts() == {"calls": 9, "cached": 0, "parse_fail": 0}


# ---------------------------------------------------------------- chartprobe score --judge / report

STAMP = "2026-04-01T00-00-00.000001"


@pytest.fixture(scope="module")
def families_root(release_root) -> Path:
    """The session's ``release_root``, which holds the small ``chartprobe-families`` release (all a
    families score reads; built once for every file, read only here)."""
    return release_root


def _predictions(rows: list[dict[str, Any]]) -> list[str]:
    """Gold, wrong, judge-only-right and ambiguous answers, and one empty response."""
    kinds = [lambda r: r["answer"], lambda r: "no idea", lambda r: "JUDGE-SAYS-YES"]
    preds = [f"<rationale>read it</rationale><answer>{kinds[i % 3](r)}</answer>" for i, r in enumerate(rows)]
    preds[1], preds[4] = "<answer>ambiguous</answer>", ""
    return preds


@pytest.fixture(scope="module")
def runs(families_root, tmp_path_factory) -> Path:
    """Samples of models m1 and m2 on ``chartprobe_families_bars``; m2's lm-eval run used a judge."""
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows, write_samples

    rows = load_release_rows(families_root / "chartprobe-families")[("bars", "test")]
    out = tmp_path_factory.mktemp("judge_runs") / "runs"
    for model in ("m1", "m2"):
        path = write_samples(out / model, "chartprobe_families_bars", rows, _predictions(rows), stamp=STAMP)
        if model == "m2":  # what lm-eval logs when CHARTPROBE_JUDGE_* was set: the judge on each record
            lines = [json.loads(line) for line in path.read_text().splitlines()]
            for line, row in zip(lines, rows):
                rec = {**fm.score_family_record(row, line["filtered_resps"][0]), "judge": "gpt-4.1-mini@gpt-x"}
                line["original_accuracy"] = list(fm.to_item(rec))
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return out


def _score(runs: Path, root: Path, out: Path, *extra: str) -> int:
    return main(["score", "--predictions", str(runs), "--out", str(out), "--releases", str(root), "--quiet", *extra])


def _without_counts(doc: dict[str, Any]) -> dict[str, Any]:
    """The results with the judge's per-run request counts (calls vs cached) taken out."""
    text = re.sub(r'"calls": \d+, "cached": \d+, ', "", json.dumps(doc))
    return json.loads(text)


@pytest.fixture(scope="module")
def judged(runs, families_root, tmp_path_factory):
    """Three `score --judge` runs over one cache, and the stand-in's request log after each."""
    tmp = tmp_path_factory.mktemp("judged")
    cache = tmp / "cache"
    with standin(scripted) as server:
        args = ("--judge", "--judge-base-url", server.base_url, "--judge-model", "judge-model",
                "--judge-cache", str(cache), "--judge-concurrency", "4")
        counts = []
        for i in range(3):
            assert _score(runs, families_root, tmp / f"r{i}.json", *args, *(["--num-proc", "2"] if i == 2 else [])) == 0
            counts.append(len(server.requests))
        requests = list(server.requests)
    return tmp, counts, requests


def test_score_with_the_judge_records_the_scorer(judged, families_root):
    tmp, counts, requests = judged
    doc = json.loads((tmp / "r0.json").read_text())
    rows = 48
    distinct = len({r["messages"][0]["content"] for r in requests})
    assert counts[0] == distinct == len(requests) and all(r["temperature"] == 0 for r in requests)
    for model in ("m1", "m2"):
        entry = doc["models"][model]
        scorer = entry["scorers"]["families"]
        assert {k: scorer[k] for k in ("kind", "model", "server_model", "prompt_sha256", "parse_fail")} == {
            "kind": "llm_judge", "model": "judge-model", "server_model": SERVER_MODEL,
            "prompt_sha256": RELEASED_COMPARE_ANSWER_SHA256, "parse_fail": 1}
        assert scorer["calls"] + scorer["cached"] == rows - 1  # the empty response is wrong without asking
        assert entry["tasks"]["chartprobe_families_bars"]["scorer"] == scorer
        verdicts = entry["records"]["families"]["judge_verdict"]
        assert verdicts.count("unparsable") == 1 and verdicts.count("empty") == 1
        assert entry["suites"]["families"]["judge_parse_fail"] == 1
    # m1's prompts were all new, m2 asked the same ones again: answered from memory/cache
    assert doc["models"]["m1"]["scorers"]["families"]["calls"] == distinct
    assert doc["models"]["m2"]["scorers"]["families"]["calls"] == 0
    # the judge's verdicts, not the typed scorer's: "JUDGE-SAYS-YES" answers count as right
    recs = doc["models"]["m1"]["records"]["families"]
    judge_right = sum(recs["correct"])
    assert judge_right == sum(v == "yes" for v in recs["judge_verdict"]) > 16


def test_a_rerun_makes_no_request_and_writes_the_same_results(judged):
    tmp, counts, _ = judged
    assert counts[0] > 0 and counts[1] == counts[0] and counts[2] == counts[0]  # runs 2 and 3: no request
    r0, r1, r2 = ((tmp / f"r{i}.json").read_bytes() for i in range(3))
    assert r1 == r2  # byte-identical, with one process or two
    assert _without_counts(json.loads(r0)) == _without_counts(json.loads(r1))
    assert json.loads(r1)["models"]["m1"]["scorers"]["families"]["calls"] == 0


def test_score_without_the_judge_says_it_rescored_typed(runs, families_root, tmp_path, capsys):
    assert _score(runs, families_root, tmp_path / "typed.json") == 0
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert notes == [("note: chartprobe_families_bars: the lm-eval run of 1 model(s) scored it with the LLM judge "
                     "gpt-4.1-mini@gpt-x; chartprobe score rescored it with the typed scorer (pass --judge to "
                     "score with the judge)")]
    doc = json.loads((tmp_path / "typed.json").read_text())
    assert doc["models"]["m1"]["scorers"] == {"families": "typed"}
    task = doc["models"]["m2"]["tasks"]["chartprobe_families_bars"]
    assert task["scorer"] == "typed" and task["lm_eval_scorer"] == "gpt-4.1-mini@gpt-x"
    assert "lm_eval_scorer" not in doc["models"]["m1"]["tasks"]["chartprobe_families_bars"]


def test_judge_options_need_the_judge_flag(runs, families_root, tmp_path, capsys):
    assert _score(runs, families_root, tmp_path / "x.json", "--judge-model", "m") == 2
    assert "only apply with --judge" in capsys.readouterr().err
    assert _score(runs, families_root, tmp_path / "x.json", "--judge", "--judge-api-key-env", "NO_SUCH_KEY_VAR") == 2
    assert "NO_SUCH_KEY_VAR" in capsys.readouterr().err and not (tmp_path / "x.json").exists()


def _one_model(src: Path, model: str, dest: Path) -> Path:
    doc = json.loads(src.read_text())
    doc["models"] = {model: doc["models"][model]}
    dest.write_text(json.dumps(doc))
    return dest


def test_report_names_the_scorer_and_refuses_mixing(judged, runs, families_root, tmp_path, capsys):
    tmp, _, _ = judged
    assert main(["report", str(tmp / "r1.json"), "--out", str(tmp_path / "rep")]) == 0
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert rep["models"]["m1"]["families"]["scorer"]["kind"] == "llm_judge" and rep["mixed_scorers"] == {}
    md = (tmp_path / "rep" / "report.md").read_text()
    label = f"LLM judge judge-model (server {SERVER_MODEL}; prompt {RELEASED_COMPARE_ANSWER_SHA256[:12]})"
    assert "## Scorers" in md and md.count(label) >= 4  # scorer table and comparison table, both models

    assert _score(runs, families_root, tmp_path / "typed.json") == 0
    judge_m1 = _one_model(tmp / "r1.json", "m1", tmp_path / "judge_m1.json")
    typed_m2 = _one_model(tmp_path / "typed.json", "m2", tmp_path / "typed_m2.json")
    capsys.readouterr()
    assert main(["report", str(judge_m1), str(typed_m2), "--out", str(tmp_path / "mixed")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "suite families: m1 was scored by LLM judge" in err[0] and "--allow-mixed-scorers" in err[0]
    assert not (tmp_path / "mixed").exists()

    assert main(["report", str(judge_m1), str(typed_m2), "--out", str(tmp_path / "allowed"),
                 "--allow-mixed-scorers", "--compare", "m1", "m2"]) == 0
    assert "warning: suite families mixes 2 scorers" in capsys.readouterr().out
    rep = json.loads((tmp_path / "allowed" / "report.json").read_text())
    assert sorted(rep["mixed_scorers"]["families"]) == ["llm_judge:judge-model:234e7c18d0f8", "typed"]
    assert rep["compare"]["suites"]["families"]["mixed_scorers"] is True
    md = (tmp_path / "allowed" / "report.md").read_text()
    assert "**Mixed scorers:** models of suite `families`" in md and "**Mixed scorers:** m1: LLM judge" in md
