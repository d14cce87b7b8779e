"""Malformed inputs to every command (issue #20, acceptance 2): one error line, exit 2, nothing written.

Each row of :data:`ROWS` is (command, how to make the bad input, a fragment the message must
contain). The row's builder writes its malformed files into the test's own folder and returns
the command line; the test runs it in-process and checks that it returns 2, that stderr is
exactly one ``chartprobe: error:`` line naming the problem (no traceback), and that the folder
holds exactly what it held before. Rows that need an unprivileged user, a file-size limit or
a real Ctrl-C live in ``tests/test_cli_signals.py``; the helpers in ``tests/cli_cases.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_cases import BAR, NOT_UTF8, TASK, Case, assert_one_error_line, base_fixture, row, tree  # noqa: F401 - a fixture

from chartprobe.cli import main

COMMANDS = ("build", "render", "push", "list", "tasks-path", "eval", "score", "report", "validate", "train",
            "profile", "merge", "reconstruct")
GOOD_PRESET = "dataset: smoke\npreset: mine\nseed: 0\nshard_size: 4\nconfigs:\n  default:\n    splits: {test: 4}\n    params: {kind: bar}\n"


def _preset(c: Case, text: str | bytes) -> list[str]:
    return ["build", "smoke", "--preset", c.file("p.yaml", text), "--out", c.path("out"), "--quiet"]


def _spec(c: Case, spec) -> list[str]:
    text = spec if isinstance(spec, (str, bytes)) else json.dumps(spec)
    return ["render", c.file("spec.json", text), "--out", c.path("x.png")]


def _release_named_like(c: Case, make) -> list[str]:
    """``build --overwrite`` into a folder whose ``chartprobe-smoke`` is a node the swap must not rename aside."""
    hub = c.folder("hub")
    make("hub/chartprobe-smoke")
    return ["build", "smoke", "--overwrite", "--out", hub, "--quiet"]


def _forged_answers(c: Case) -> bytes:
    """The release's shard with every answer rewritten (the card's content hash left stale)."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(c.base.release / "default" / "test-00000-of-00001.parquet")
    i = table.column_names.index("answer")
    table = table.set_column(i, table.schema.field(i), pa.array(["forged"] * table.num_rows, table.schema.field(i).type))
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def _zero_hash(text: str) -> bytes:
    return re.sub(r"content_hash: [0-9a-f]{64}", "content_hash: " + "0" * 64, text).encode()


def _extra_shard(c: Case) -> str:
    """A duplicated shard: the split's rows now 40, its card 20."""
    rel = Path(c.release())
    shard = rel / "default" / "test-00000-of-00001.parquet"
    (rel / "default" / "test-00001-of-00002.parquet").write_bytes(shard.read_bytes())
    shard.rename(rel / "default" / "test-00000-of-00002.parquet")
    return str(rel)


def _stray_shard(c: Case) -> str:
    rel = Path(c.release())
    (rel / "default" / "test-copy.parquet").write_bytes((rel / "default" / "test-00000-of-00001.parquet").read_bytes())
    return str(rel)


def _reconstruct(c: Case, *extra: str) -> list[str]:
    return ["reconstruct", "--source", c.path("src"), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "--work", c.path("work"), "--out", c.path("hub"), "--quiet", *extra]


def _bar(**changes) -> dict:
    return {**BAR, **changes}


def _score(c: Case, samples: str, *extra: str) -> list[str]:
    return ["score", "--predictions", samples, "--releases", c.releases(), "--out", c.path("res.json"), *extra]


def _report(c: Case, results: str, *extra: str) -> list[str]:
    return ["report", results, "--out", c.path("report"), *extra]


def _records(edit):
    def apply(doc):
        edit(doc["models"]["oracle"]["records"])
        return doc
    return apply


def _train(c: Case, *extra: str, data: bool = True) -> list[str]:
    return ["train", "--model", c.model(), *(["--data", c.probes()] if data else []),
            "--out", c.path("run"), *extra]


def _eval(*extra: str) -> list[str]:
    return ["eval", "--model", "hf-multimodal", "--tasks", TASK, *extra]


def _card_header(text: str) -> str:
    return text.split("\n---\n", 1)[0].removeprefix("---\n")


ROWS = [
    # build: dataset, preset file and section types, arguments, output folder
    row("build", "unknown-dataset", lambda c: ["build", "nosuch", "--out", c.path("out")], "unknown dataset 'nosuch'"),
    row("build", "unknown-preset", lambda c: ["build", "smoke", "--preset", "huge", "--out", c.path("out")],
        "preset file not found"),
    row("build", "preset-missing", lambda c: ["build", "smoke", "--preset", c.path("no.yaml"), "--out", c.path("out")],
        "no.yaml"),
    row("build", "preset-is-folder", lambda c: ["build", "smoke", "--preset", c.folder("d.yaml"), "--out", c.path("out")],
        "d.yaml"),
    row("build", "preset-bad-yaml", lambda c: _preset(c, "dataset: [smoke\n"), "YAML"),
    row("build", "preset-not-utf8", lambda c: _preset(c, NOT_UTF8), "UTF-8"),
    row("build", "preset-empty", lambda c: _preset(c, ""), "mapping"),
    row("build", "preset-top-level-list", lambda c: _preset(c, "- smoke\n"), "mapping"),
    row("build", "preset-no-configs", lambda c: _preset(c, "dataset: smoke\npreset: x\n"), "configs"),
    row("build", "preset-configs-list", lambda c: _preset(c, GOOD_PRESET.replace("configs:\n  default:", "configs:\n  - default:")),
        "configs"),
    row("build", "preset-config-body-list", lambda c: _preset(c, "dataset: smoke\npreset: x\nconfigs:\n  default: [1, 2]\n"),
        "default"),
    row("build", "preset-splits-list", lambda c: _preset(c, GOOD_PRESET.replace("{test: 4}", "[test]")), "splits"),
    row("build", "preset-params-list", lambda c: _preset(c, GOOD_PRESET.replace("{kind: bar}", "[bar]")), "params"),
    row("build", "preset-seed-string", lambda c: _preset(c, GOOD_PRESET.replace("seed: 0", "seed: abc")), "seed"),
    row("build", "preset-seed-negative", lambda c: _preset(c, GOOD_PRESET.replace("seed: 0", "seed: -3")), "seed"),
    row("build", "preset-shard-size-zero", lambda c: _preset(c, GOOD_PRESET.replace("shard_size: 4", "shard_size: 0")),
        "shard_size"),
    row("build", "preset-bool-count", lambda c: _preset(c, GOOD_PRESET.replace("{test: 4}", "{test: true}")), "test"),
    row("build", "preset-zero-count", lambda c: _preset(c, GOOD_PRESET.replace("{test: 4}", "{test: 0}")), "test"),
    row("build", "preset-unknown-key", lambda c: _preset(c, GOOD_PRESET + "sede: 1\n"), "sede"),
    row("build", "preset-dotdot-config", lambda c: _preset(c, GOOD_PRESET.replace("  default:", "  ../evil:")), "../evil"),
    row("build", "preset-dotdot-split", lambda c: _preset(c, GOOD_PRESET.replace("{test: 4}", "{../x: 4}")), "../x"),
    row("build", "preset-other-dataset", lambda c: _preset(c, GOOD_PRESET.replace("dataset: smoke", "dataset: legend")
                                                           .replace("    params: {kind: bar}\n", "")),
        "is for dataset 'legend'"),
    row("build", "preset-unknown-chart-kind", lambda c: _preset(c, GOOD_PRESET.replace("kind: bar", "kind: sunburst")),
        "sunburst"),
    row("build", "num-proc-zero", lambda c: ["build", "smoke", "--num-proc", "0", "--out", c.path("out")], "--num-proc"),
    row("build", "num-proc-not-int", lambda c: ["build", "smoke", "--num-proc", "two", "--out", c.path("out")],
        "invalid int value: 'two'"),
    row("build", "shard-past-the-count", lambda c: ["build", "smoke", "--shard", "3/3", "--out", c.path("out")],
        "0 <= I < N"),
    row("build", "shard-not-a-fraction", lambda c: ["build", "smoke", "--shard", "half", "--out", c.path("out")],
        "must be I/N"),
    row("merge", "not-a-shard", lambda c: ["merge", c.folder("d"), "--out", c.path("out")], "not a shard folder"),
    row("merge", "bad-manifest", lambda c: ["merge", str(Path(c.file("s/shard.json", "{")).parent), "--out",
                                            c.path("out")], "cannot read"),
    row("merge", "num-proc-zero", lambda c: ["merge", c.folder("d"), "--num-proc", "0", "--out", c.path("out")],
        "--num-proc"),
    row("merge", "out-is-file", lambda c: ["merge", c.folder("d"), "--out", c.file("f", "x")], "not a folder"),
    row("build", "seed-negative", lambda c: ["build", "smoke", "--seed", "-1", "--out", c.path("out")], "--seed"),
    row("build", "out-is-file", lambda c: ["build", "smoke", "--out", c.file("f", "x")], "not a folder"),
    row("build", "out-under-file", lambda c: ["build", "smoke", "--out", c.file("f", "x") + "/sub"], "not a folder"),
    row("build", "out-exists", lambda c: ["build", "smoke", "--out", str(Path(c.release()).parent)], "already exists"),
    row("build", "out-in-proc", lambda c: ["build", "smoke", "--out", "/proc/chartprobe-test"], "/proc/chartprobe-test"),
    row("build", "all-with-preset-file", lambda c: ["build", "all", "--preset", c.file("p.yaml", GOOD_PRESET),
                                                   "--out", c.path("out")], "--preset FILE"),
    row("build", "no-out", lambda c: ["build", "smoke"], "--out"),
    row("build", "out-is-symlink", lambda c: ["build", "smoke", "--out", c.link("out")], "symbolic link"),
    row("build", "release-name-is-fifo", lambda c: _release_named_like(c, c.fifo), "FIFO"),
    row("build", "release-name-is-symlink", lambda c: _release_named_like(c, c.link), "symbolic link"),
    row("merge", "out-is-fifo", lambda c: ["merge", c.folder("d"), "--out", c.fifo("out")], "FIFO"),
    row("build", "unknown-flag", lambda c: ["build", "smoke", "--out", c.path("out"), "--fast"], "--fast"),
    # render: the spec file and the output paths
    row("render", "spec-missing", lambda c: ["render", c.path("no.json"), "--out", c.path("x.png")], "no.json"),
    row("render", "spec-is-folder", lambda c: ["render", c.folder("d.json"), "--out", c.path("x.png")], "d.json"),
    row("render", "spec-unreadable-device", lambda c: ["render", "/proc/self/mem", "--out", c.path("x.png")],
        "/proc/self/mem"),
    row("render", "bad-json", lambda c: _spec(c, "{not json"), "JSON"),
    row("render", "empty-file", lambda c: _spec(c, ""), "JSON"),
    row("render", "not-utf8", lambda c: _spec(c, NOT_UTF8), "UTF-8"),
    row("render", "json-array", lambda c: _spec(c, [BAR]), "spec"),
    row("render", "json-string", lambda c: _spec(c, "\"bar\""), "spec"),
    row("render", "unknown-kind", lambda c: _spec(c, _bar(kind="sunburst")), "spec.kind"),
    row("render", "unknown-version", lambda c: _spec(c, _bar(version="chartprobe.spec/99")), "version"),
    row("render", "length-mismatch", lambda c: _spec(c, _bar(data={"categories": ["A", "B"],
                                                                   "series": [{"name": "S", "values": [1, 2, 3]}]})),
        "spec.data"),
    row("render", "values-dict", lambda c: _spec(c, _bar(data={"categories": ["A"], "series": [{"name": "S",
                                                                                                 "values": {"a": 1}}]})),
        "spec.data"),
    row("render", "categories-string", lambda c: _spec(c, _bar(data={"categories": "ABC",
                                                                     "series": [{"name": "S", "values": [1, 2, 3]}]})),
        "spec.data"),
    row("render", "series-not-list", lambda c: _spec(c, _bar(data={"categories": ["A"], "series": 7})), "spec.data"),
    row("render", "encodings-string", lambda c: _spec(c, _bar(encodings="blue")), "spec.encodings"),
    row("render", "legend-list", lambda c: _spec(c, _bar(legend=[1])), "spec.legend"),
    row("render", "nested-too-deeply", lambda c: _spec(c, "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    row("render", "out-is-folder", lambda c: ["render", c.json("s.json", BAR), "--out", c.folder("o")], "is a folder"),
    row("render", "out-under-file", lambda c: ["render", c.json("s.json", BAR), "--out", c.file("f", "x") + "/x.png"],
        "not a folder"),
    row("render", "boxes-is-folder", lambda c: ["render", c.json("s.json", BAR), "--out", c.path("x.png"),
                                                "--boxes", c.folder("b")], "--boxes"),
    row("render", "out-in-proc", lambda c: ["render", c.json("s.json", BAR), "--out", "/proc/chartprobe-test/x.png"],
        "/proc/chartprobe-test"),
    row("render", "no-out", lambda c: ["render", c.json("s.json", BAR)], "--out"),
    row("render", "out-is-fifo", lambda c: ["render", c.json("s.json", BAR), "--out", c.fifo("x.png")], "FIFO"),
    row("render", "out-is-symlink", lambda c: ["render", c.json("s.json", BAR), "--out", c.link("x.png")],
        "symbolic link"),
    row("render", "out-is-dev-null", lambda c: ["render", c.json("s.json", BAR), "--out", "/dev/null"],
        "/dev/null: is a character device"),
    row("render", "boxes-is-fifo", lambda c: ["render", c.json("s.json", BAR), "--out", c.path("x.png"),
                                              "--boxes", c.fifo("b.json")], "--boxes"),
    # push: the release folder and its card, the repo and tag, the endpoint
    row("push", "release-missing", lambda c: ["push", c.path("nope"), "--repo", "me/x", "--tag", "v1.0.0", "--dry-run"],
        "not a release folder"),
    row("push", "release-is-file", lambda c: ["push", c.file("f", "x"), "--repo", "me/x", "--tag", "v1.0.0", "--dry-run"],
        "not a release folder"),
    row("push", "card-no-header", lambda c: ["push", c.release(card=b"# just a title\n"), "--repo", "me/x",
                                            "--tag", "v1.0.0", "--dry-run"], "README.md"),
    row("push", "card-bad-yaml", lambda c: ["push", c.release(card=b"---\nconfigs: [\n---\n"), "--repo", "me/x",
                                           "--tag", "v1.0.0", "--dry-run"], "README.md"),
    row("push", "card-not-utf8", lambda c: ["push", c.release(card=b"---\n" + NOT_UTF8 + b"\n---\n"), "--repo", "me/x",
                                           "--tag", "v1.0.0", "--dry-run"], "README.md"),
    row("push", "card-header-list", lambda c: ["push", c.release(card=b"---\n- a\n- b\n---\n"), "--repo", "me/x",
                                              "--tag", "v1.0.0", "--dry-run"], "README.md"),
    row("push", "card-no-provenance", lambda c: ["push", c.release(card=b"---\nlicense: mit\n---\n"), "--repo", "me/x",
                                                "--tag", "v1.0.0", "--dry-run"], "provenance"),
    row("push", "bad-repo", lambda c: ["push", c.release(), "--repo", "noslash", "--tag", "v1.0.0", "--dry-run"],
        "ORG/NAME"),
    row("push", "bad-tag", lambda c: ["push", c.release(), "--repo", "me/x", "--tag", "1.0", "--dry-run"], "vX.Y.Z"),
    row("push", "no-repo", lambda c: ["push", c.release(), "--tag", "v1.0.0"], "--repo"),
    row("push", "unreachable-endpoint", lambda c: ["push", c.release(), "--repo", "me/x", "--tag", "v1.0.0",
                                                  "--endpoint", "http://127.0.0.1:9"], "cannot reach the Hub"),
    # list and tasks-path take (almost) nothing: anything else is refused
    row("list", "unknown-registry", lambda c: ["list", "widgets"], "invalid choice: 'widgets'"),
    row("list", "extra-argument", lambda c: ["list", "charts", "bar"], "unrecognized arguments: bar"),
    row("list", "unknown-flag", lambda c: ["list", "--all"], "--all"),
    row("list", "empty-name", lambda c: ["list", ""], "invalid choice"),
    row("tasks-path", "extra-argument", lambda c: ["tasks-path", "smoke"], "unrecognized arguments: smoke"),
    row("tasks-path", "unknown-flag", lambda c: ["tasks-path", "--json"], "--json"),
    row("list", "unknown-command", lambda c: ["lists"], "invalid choice: 'lists'"),
    # eval: refused before lm-eval starts (it would take ~15 s to fail or silently run nothing)
    row("eval", "no-arguments", lambda c: ["eval"], "give lm-eval arguments"),
    row("eval", "include-path", lambda c: _eval("--include_path", c.folder("tasks")), "--include_path"),
    row("eval", "include-path-equals", lambda c: _eval(f"--include_path={c.folder('tasks')}"), "--include_path"),
    row("eval", "no-tasks", lambda c: ["eval", "--model", "hf-multimodal", "--limit", "2"], "--tasks is required"),
    row("eval", "tasks-no-value", lambda c: ["eval", "--model", "hf", "--tasks"], "--tasks needs a value"),
    row("eval", "unknown-task", lambda c: ["eval", "--model", "hf", "--tasks", "chartprobe_smok"], "chartprobe_smok"),
    row("eval", "unknown-task-in-list", lambda c: ["eval", "--tasks", f"{TASK},chartprobe_nosuch"], "chartprobe_nosuch"),
    row("eval", "glob-matches-nothing", lambda c: ["eval", "--tasks", "chartprobe_zz*"], "chartprobe_zz*"),
    row("eval", "empty-tasks", lambda c: ["eval", "--tasks", ","], "no task names"),
    row("eval", "model-unknown", lambda c: ["eval", "--model", "nosuchmodel", "--tasks", TASK], "--model nosuchmodel"),
    row("eval", "limit-not-number", lambda c: _eval("--limit", "ten"), "--limit"),
    row("eval", "limit-zero", lambda c: _eval("--limit", "0"), "--limit"),
    row("eval", "fewshot-not-int", lambda c: _eval("--num_fewshot", "x"), "--num_fewshot"),
    row("eval", "fewshot-positive", lambda c: _eval("--num_fewshot", "2"), "zero-shot"),
    row("eval", "batch-size-bad", lambda c: _eval("--batch_size", "big"), "--batch_size"),
    row("eval", "model-folder-missing", lambda c: _eval("--model_args", f"pretrained={c.path('no-model')}"),
        "no such model folder"),
    row("eval", "output-path-is-file", lambda c: _eval("--output_path", c.file("o", "x")), "--output_path"),
    row("eval", "data-release-missing", lambda c: c.env("CHARTPROBE_DATA", c.folder("empty")) or _eval(),
        "chartprobe-smoke"),
    # score: samples files (lm-eval --log_samples lines), the releases that hold the gold, --out
    row("score", "samples-missing", lambda c: _score(c, c.path("nope")), "nope"),
    row("score", "samples-folder-empty", lambda c: _score(c, c.folder("empty")), "no samples_<task>_<date>.jsonl"),
    row("score", "num-proc-zero", lambda c: _score(c, c.samples(c.line()), "--num-proc", "0"), "--num-proc must be >= 1"),
    row("score", "samples-misnamed", lambda c: _score(c, c.file("preds.jsonl", "{}")), "is not named samples_"),
    row("score", "samples-empty-file", lambda c: _score(c, c.samples()), "no samples in"),
    row("score", "line-bad-json", lambda c: _score(c, c.samples("{not json")), "line 1: invalid JSON"),
    row("score", "line-not-utf8", lambda c: _score(c, c.samples(NOT_UTF8)), "UTF-8"),
    row("score", "line-is-list", lambda c: _score(c, c.samples("[1, 2]")), "line 1: expected a JSON object"),
    row("score", "line-is-null", lambda c: _score(c, c.samples("null")), "expected a JSON object"),
    row("score", "line-nested-too-deeply", lambda c: _score(c, c.samples("[" * 100_000 + "]" * 100_000)),
        "nested too deeply"),
    row("score", "doc-missing", lambda c: _score(c, c.samples({"doc_id": 0, "filtered_resps": ["1"]})), "'doc'"),
    row("score", "doc-is-string", lambda c: _score(c, c.samples(c.line(doc="row"))), "'doc'"),
    row("score", "filtered-resps-dict", lambda c: _score(c, c.samples(c.line(filtered_resps={"a": "1"}))),
        "filtered_resps must be a list"),
    row("score", "filtered-resps-int", lambda c: _score(c, c.samples(c.line(filtered_resps=3))), "filtered_resps"),
    row("score", "resps-dict", lambda c: _score(c, c.samples(c.line(filtered_resps=None, resps={"0": "1"}))), "resps"),
    row("score", "doc-id-string", lambda c: _score(c, c.samples(c.line(doc_id="x"))), "doc_id"),
    row("score", "doc-id-negative", lambda c: _score(c, c.samples(c.line(doc_id=-4))), "doc_id"),
    row("score", "doc-not-in-release", lambda c: _score(c, c.samples(c.line(doc={**c.good_line()["doc"], "id": "zz"}))),
        "not in release"),
    row("score", "releases-missing", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases", c.path("nope"),
                                               "--out", c.path("res.json")], "--releases"),
    row("score", "releases-card-no-header", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                      c.releases(card=b"# title\n"), "--out", c.path("res.json")],
        "README.md"),
    row("score", "releases-corrupt-parquet", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                       c.releases(parquet=b"PAR1 garbage"), "--out", c.path("res.json")],
        "parquet"),
    row("score", "out-is-folder", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases", c.releases(),
                                            "--out", c.folder("o")], "is a folder"),
    row("score", "out-under-file", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases", c.releases(),
                                             "--out", c.file("f", "x") + "/res.json"], "not a folder"),
    row("score", "out-is-fifo", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases", c.releases(),
                                          "--out", c.fifo("res.json")], "FIFO"),
    row("score", "out-is-symlink", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                             c.releases(), "--out", c.link("res.json")], "symbolic link"),
    row("score", "out-is-dev-full", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                              c.releases(), "--out", "/dev/full"], "/dev/full: is a character"),
    row("score", "no-samples-flag", lambda c: ["score", "--out", c.path("res.json")], "--predictions"),
    # report: results files (chartprobe score) and validity files (chartprobe validate --out)
    row("report", "results-missing", lambda c: _report(c, c.path("nope.json")), "nope.json"),
    row("report", "results-is-folder", lambda c: _report(c, c.folder("r.json")), "r.json"),
    row("report", "results-bad-json", lambda c: _report(c, c.file("r.json", "{")), "invalid JSON"),
    row("report", "results-not-utf8", lambda c: _report(c, c.file("r.json", NOT_UTF8)), "UTF-8"),
    row("report", "results-list", lambda c: _report(c, c.json("r.json", [1])), "not a chartprobe results file"),
    row("report", "results-wrong-format", lambda c: _report(c, c.results(lambda d: {**d, "format": "x/2"})),
        "not a chartprobe results file"),
    row("report", "models-list", lambda c: _report(c, c.results(lambda d: {**d, "models": []})), "'models'"),
    row("report", "records-list", lambda c: _report(c, c.results(lambda d: {**d, "models": {"m": {"records": [1]}}})),
        "records"),
    row("report", "unknown-suite", lambda c: _report(c, c.results(_records(lambda r: r.update(nosuch=r.pop("smoke"))))),
        "unknown suite"),
    row("report", "ragged-columns", lambda c: _report(c, c.results(_records(lambda r: r["smoke"]["correct"].pop()))),
        "equal-length"),
    row("report", "column-not-list", lambda c: _report(c, c.results(_records(lambda r: r["smoke"].update(correct=1)))),
        "equal-length"),
    row("report", "unknown-task", lambda c: _report(c, c.results(_records(
        lambda r: r["smoke"].update(task=["chartprobe_nosuch"] * len(r["smoke"]["task"]))))), "unknown tasks"),
    row("report", "correct-as-strings", lambda c: _report(c, c.results(_records(
        lambda r: r["smoke"].update(correct=["x"] * len(r["smoke"]["correct"]))))), "correct must be"),
    row("report", "results-nested-too-deeply", lambda c: _report(c, c.file("r.json", "[" * 100_000 + "]" * 100_000)),
        "nested too deeply"),
    row("report", "records-without-task", lambda c: _report(c, c.results(_records(lambda r: r["smoke"].pop("task")))),
        "unknown tasks"),
    row("report", "num-proc-zero", lambda c: _report(c, str(c.base.results), "--num-proc", "0"), "--num-proc must be >= 1"),
    row("report", "num-proc-huge", lambda c: _report(c, str(c.base.results), "--num-proc", "100000"), "--num-proc 100000"),
    row("report", "validity-bad-json", lambda c: _report(c, str(c.base.results), "--validity", c.file("v.json", "[")),
        "v.json"),
    row("report", "validity-wrong-shape", lambda c: _report(c, str(c.base.results), "--validity",
                                                           c.json("v.json", [{"release": "x"}])), "validity.json"),
    row("report", "validity-check-fields", lambda c: _report(c, str(c.base.results), "--validity", c.json(
        "v.json", [{"release": "x", "dataset": "smoke", "checks": [{"check": "c"}]}])), "validity.json"),
    row("report", "out-is-file", lambda c: ["report", str(c.base.results), "--out", c.file("f", "x")], "not a folder"),
    row("report", "out-is-fifo", lambda c: ["report", str(c.base.results), "--out", c.fifo("r")], "FIFO"),
    row("report", "out-is-symlink", lambda c: ["report", str(c.base.results), "--out", c.link("r", "d")],
        "symbolic link"),
    row("report", "no-out", lambda c: ["report", str(c.base.results)], "--out"),
    # validate: the release (card, parquet), --agents, the output folders
    row("validate", "across-seeds-one-release", lambda c: ["validate", c.release(), "--across-seeds"], "at least two"),
    row("validate", "across-seeds-write-card", lambda c: ["validate", c.release(), c.release(), "--across-seeds",
                                                          "--write-card"], "--across-seeds"),
    row("validate", "release-missing", lambda c: ["validate", c.path("nope")], "not a release folder"),
    row("validate", "release-is-file", lambda c: ["validate", c.file("f", "x")], "not a release folder"),
    row("validate", "card-no-header", lambda c: ["validate", c.release(card=b"# title only\n")], "README.md"),
    row("validate", "card-unclosed-header", lambda c: ["validate", c.release(card=b"---\nlicense: mit\n")], "README.md"),
    row("validate", "card-bad-yaml", lambda c: ["validate", c.release(card=b"---\nconfigs: [\n---\n")], "README.md"),
    row("validate", "card-not-utf8", lambda c: ["validate", c.release(card=b"---\n" + NOT_UTF8 + b"\n---\n")], "UTF-8"),
    row("validate", "card-header-list", lambda c: ["validate", c.release(card=b"---\n- 1\n---\n")], "chartprobe.dataset"),
    row("validate", "card-no-chartprobe", lambda c: ["validate", c.release(
        card=lambda t: t.replace("chartprobe:\n  dataset: smoke", "other:\n  dataset: smoke").encode())],
        "chartprobe.dataset"),
    row("validate", "card-unknown-dataset", lambda c: ["validate", c.release(
        card=lambda t: t.replace("  dataset: smoke", "  dataset: nosuch").encode())], "'nosuch'"),
    row("validate", "card-configs-dict", lambda c: ["validate", c.release(
        card=lambda t: t.replace("configs:\n- config_name: default", "configs:\n  config_name: default").encode())],
        "configs"),
    row("validate", "corrupt-parquet", lambda c: ["validate", c.release(parquet=b"PAR1 this is not parquet PAR1")],
        "parquet"),
    row("validate", "empty-parquet-file", lambda c: ["validate", c.release(parquet=b"")], "parquet"),
    row("validate", "parquet-missing", lambda c: ["validate", c.release(drop_parquet=True)], "has shards none"),
    row("validate", "parquet-wrong-columns", lambda c: ["validate", c.release(parquet=_parquet({"a": [1]}))],
        "holds 1 rows, the card says 20"),  # the integrity check reads the shard set first
    row("validate", "unknown-agent", lambda c: ["validate", c.release(), "--agents", "oracel"], "unknown agent 'oracel'"),
    row("validate", "unknown-agent-in-list", lambda c: ["validate", c.release(), "--agents", "oracle,nosuch"],
        "unknown agent 'nosuch'"),
    row("validate", "empty-agents", lambda c: ["validate", c.release(), "--agents", ","], "no agent names"),
    row("validate", "agent-not-applicable", lambda c: ["validate", c.release(), "--agents", "first_position"],
        "does not apply to smoke"),
    row("validate", "out-is-file", lambda c: ["validate", c.release(), "--out", c.file("f", "x")], "not a folder"),
    row("validate", "out-is-fifo", lambda c: ["validate", c.release(), "--out", c.fifo("v")], "FIFO"),
    row("validate", "samples-out-is-symlink", lambda c: ["validate", c.release(), "--predictions-out", c.link("s")],
        "symbolic link"),
    row("validate", "samples-out-is-file", lambda c: ["validate", c.release(), "--predictions-out", c.file("f", "x")],
        "--predictions-out"),
    row("validate", "second-release-broken", lambda c: ["validate", c.release(), c.path("nope"), "--predictions-out",
                                                       c.path("s"), "--out", c.path("v")], "not a release folder"),
    row("validate", "no-release", lambda c: ["validate"], "release"),
    # train: refused before torch is imported or a model is loaded
    row("train", "no-model", lambda c: ["train", "--out", c.path("run")], "--model is required"),
    row("train", "model-folder-missing", lambda c: ["train", "--model", c.path("no-model"), "--out", c.path("run")],
        "no such model folder"),
    row("train", "skills-complex", lambda c: _train(c, "--skills", "P+CR"), "never trained on"),
    row("train", "skills-unknown", lambda c: _train(c, "--skills", "X"), "skills 'X'"),
    row("train", "select-unknown", lambda c: _train(c, "--select", "best"), "--select best"),
    row("train", "bottleneck-no-profile", lambda c: _train(c, "--select", "bottleneck", "--budget", "4"), "--profile"),
    row("train", "random-no-budget", lambda c: _train(c, "--select", "random"), "--budget"),
    row("train", "atomic-with-budget", lambda c: _train(c, "--budget", "4"), "--volume-matched"),
    row("train", "profile-missing", lambda c: _train(c, *_bottleneck(c.path("p.json"))), "no such profile"),
    row("train", "profile-bad-json", lambda c: _train(c, *_bottleneck(c.file("p.json", "{"))), "p.json"),
    row("train", "profile-list", lambda c: _train(c, *_bottleneck(c.json("p.json", [1]))), "p.json"),
    row("train", "profile-wrong-schema", lambda c: _train(c, *_bottleneck(c.json("p.json", {"schema": "x"}))), "schema"),
    row("train", "profile-bad-accuracy", lambda c: _train(c, *_bottleneck(c.json("p.json", {
        "schema": "chartprobe-profile/v1", "regions": {"skill": {"perception": {"accuracy": 7}}}}))), "accuracy"),
    row("train", "config-missing", lambda c: _train(c, "--config", c.path("run.yaml")), "run.yaml"),
    row("train", "config-bad-yaml", lambda c: _train(c, "--config", c.file("run.yaml", "lora_r: [\n")), "invalid YAML"),
    row("train", "config-not-utf8", lambda c: _train(c, "--config", c.file("run.yaml", NOT_UTF8)), "UTF-8"),
    row("train", "config-list", lambda c: _train(c, "--config", c.file("run.yaml", "- 1\n")), "mapping"),
    row("train", "config-unknown-field", lambda c: _train(c, "--config", c.file("run.yaml", "lora_rank: 8\n")),
        "lora_rank"),
    row("train", "config-wrong-type", lambda c: _train(c, "--config", c.file("run.yaml", "lora_r: big\n")), "lora_r"),
    row("train", "config-bool-count", lambda c: _train(c, "--config", c.file("run.yaml", "grad_accum: true\n")),
        "grad_accum"),
    row("train", "lora-r-not-int", lambda c: _train(c, "--lora-r", "x"), "invalid int value: 'x'"),
    row("train", "lora-r-zero", lambda c: _train(c, "--lora-r", "0"), "--lora-r"),
    row("train", "epochs-negative", lambda c: _train(c, "--epochs", "-1"), "--epochs"),
    row("train", "learning-rate-zero", lambda c: _train(c, "--learning-rate", "0"), "--learning-rate"),
    row("train", "bottleneck-ratio-above-one", lambda c: _train(c, "--bottleneck-ratio", "1.5"), "--bottleneck-ratio"),
    row("train", "lora-dropout-one", lambda c: _train(c, "--lora-dropout", "1"), "--lora-dropout"),
    row("train", "max-steps-zero", lambda c: _train(c, "--max-steps", "0"), "--max-steps"),
    row("train", "seed-negative", lambda c: _train(c, "--seed", "-2"), "--seed"),
    row("train", "region-unknown", lambda c: _train(c, "--region", "colour"), "--region colour"),
    row("train", "domains-complex", lambda c: _train(c, "--domains", "cr_bar"), "never trained on"),
    row("train", "domains-empty", lambda c: _train(c, "--domains", ","), "--domains"),
    row("train", "domain-not-in-release", lambda c: _train(c, "--domains", "pie"), "--domains pie"),
    row("train", "data-missing", lambda c: ["train", "--model", c.model(), "--data", c.path("nope"),
                                           "--out", c.path("run")], "nope"),
    row("train", "data-not-trainable", lambda c: ["train", "--model", c.model(), "--data", c.release(),
                                                 "--out", c.path("run")], "training reads chartprobe-legend"),
    row("train", "region-of-the-other-benchmark", lambda c: ["train", "--model", c.model(), "--data", c.probes(),
                                             "--region", "capability", "--out", c.path("run")],
        "probes regions are skill"),
    row("train", "seeds-bad", lambda c: ["train", "--model", c.model(), "--data", c.probes(), "--seeds", "42,x",
                                        "--budget", "4", "--out", c.path("run")], "--seeds"),
    row("profile", "source-missing", lambda c: ["profile", c.path("nope"), "--out", c.path("p.json")], "no such"),
    row("profile", "out-is-fifo", lambda c: ["profile", c.path("nope"), "--out", c.fifo("p.json")], "FIFO"),
    row("profile", "out-is-folder", lambda c: ["profile", c.path("nope"), "--out", c.folder("d")], "is a folder"),
    row("train", "out-is-symlink", lambda c: ["train", "--model", c.model(), "--data", c.probes(),
                                             "--out", c.link("run", "model")], "symbolic link"),
    row("train", "out-is-file", lambda c: ["train", "--model", c.model(), "--data", c.probes(),
                                          "--out", c.file("f", "x")], "not a folder"),
    row("train", "eval-tasks-unknown", lambda c: _train(c, "--eval-tasks", "chartprobe_probes_barr"),
        "chartprobe_probes_barr"),
    row("train", "eval-limit-zero", lambda c: _train(c, "--eval-tasks", "chartprobe_probes_bar", "--eval-limit", "0"),
        "--eval-limit"),
    row("train", "base-eval-missing", lambda c: _train(c, "--eval-tasks", "chartprobe_probes_bar", "--base-eval",
                                                      c.path("base")), "--base-eval"),
    row("score", "release-answers-rewritten", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                        c.releases(parquet=_forged_answers(c)), "--out",
                                                        c.path("res.json")], "changed after the build"),
    row("score", "release-zero-hash", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                c.releases(card=_zero_hash), "--out", c.path("res.json")],
        "content hash is zeros"),
    row("score", "release-extra-shard", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                  str(Path(_extra_shard(c)).parent), "--out", c.path("res.json")],
        "holds 40 rows, the card says 20"),
    row("score", "release-stray-shard", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                  str(Path(_stray_shard(c)).parent), "--out", c.path("res.json")],
        "test-copy.parquet"),
    row("score", "conflicting-duplicate-lines", lambda c: _score(c, c.samples(
        c.line(), c.line(resps=[["zz"]], filtered_resps=["zz"]))), "two different answers"),
    row("score", "num-proc-huge", lambda c: _score(c, c.samples(c.line()), "--num-proc", "100000"), "--num-proc 100000"),
    row("validate", "release-answers-rewritten", lambda c: ["validate", c.release(parquet=_forged_answers(c))],
        "changed after the build"),
    row("validate", "release-zero-hash", lambda c: ["validate", c.release(card=_zero_hash)], "content hash is zeros"),
    row("validate", "release-extra-shard", lambda c: ["validate", _extra_shard(c)], "holds 40 rows"),
    row("validate", "release-stray-shard", lambda c: ["validate", _stray_shard(c)], "test-copy.parquet"),
    row("build", "num-proc-huge", lambda c: ["build", "smoke", "--num-proc", "100000", "--out", c.path("out")],
        "--num-proc 100000"),
    row("merge", "num-proc-huge", lambda c: ["merge", c.folder("d"), "--num-proc", "100000", "--out", c.path("out")],
        "--num-proc 100000"),
    row("render", "value-1e308", lambda c: _spec(c, _bar(data={"categories": ["A", "B"], "series": [
        {"name": "S", "values": [1e308, -1e308]}]})), "too large to draw"),
    row("train", "learning-rate-nan", lambda c: _train(c, "--learning-rate", "nan"), "--learning-rate"),
    row("train", "learning-rate-inf", lambda c: _train(c, "--learning-rate", "inf"), "--learning-rate"),
    row("reconstruct", "cpu-seconds-zero", lambda c: _reconstruct(c, "--cpu-seconds", "0"), "--cpu-seconds"),
    row("reconstruct", "wall-seconds-nan", lambda c: _reconstruct(c, "--wall-seconds", "nan"), "--wall-seconds"),
    row("reconstruct", "wall-seconds-inf", lambda c: _reconstruct(c, "--wall-seconds", "inf"), "--wall-seconds"),
]


def _bottleneck(profile: str) -> list[str]:
    return ["--select", "bottleneck", "--budget", "4", "--profile", profile]


def _parquet(columns: dict) -> bytes:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pa.table(columns), buf)
    return buf.getvalue()


@pytest.fixture
def case(tmp_path, base, monkeypatch) -> Case:
    for key in ("CHARTPROBE_DATA", "HF_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)  # a command that writes to the working folder shows up in the tree too
    c = Case(tmp_path, base)
    c.env = lambda key, value: monkeypatch.setenv(key, value)
    return c


@pytest.mark.parametrize("command,make,fragment", ROWS)
def test_malformed_input_is_one_error_line_and_writes_nothing(command, make, fragment, case, capsys):
    args = [str(a) for a in make(case)]
    before = tree(case.tmp)
    capsys.readouterr()
    code = main(args)
    assert_one_error_line(code, capsys.readouterr().err, fragment)
    assert tree(case.tmp) == before


def test_the_table_covers_every_command_with_at_least_100_rows():
    assert {p.values[0] for p in ROWS} == set(COMMANDS)
    assert len(ROWS) >= 100
    assert len({p.id for p in ROWS}) == len(ROWS)
