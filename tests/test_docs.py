"""The README and docs/ stay true: links resolve, shown commands exist, snippets run, the CLI
reference is current, no issue numbers or commit ids, and every abbreviation a user sees is in
the glossary.

The glossary check reads what users see, not a list kept here: the paper labels of the metric
names registry, the headings and column headers of a ``report.md`` built offline from small
releases, lm-eval's task and group aliases, and the Space's labels (component labels, tab
titles, table headers and badges after each view is rendered with predictions loaded).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").rglob("*.md")])
USER_DOCS = [p for p in DOCS if p.name != "CHANGELOG.md"]
FENCE = re.compile(r"^(```|~~~)(\w*)[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block."""
    return [(m.group(2).lower(), m.group(3)) for m in FENCE.finditer(text)]


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


# --- links -------------------------------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@cache
def _anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = _slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(out)


def _links(path: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_prose(path.read_text(encoding="utf-8")))]


def test_the_docs_exist():
    names = {_rel(p) for p in DOCS}
    assert {"README.md", "CHANGELOG.md", "docs/cli.md", "docs/glossary.md", "docs/architecture.md"} <= names
    assert len([n for n in names if n.startswith("docs/benchmarks/")]) == 4


@pytest.mark.parametrize("path", DOCS, ids=_rel)
def test_every_relative_link_and_anchor_resolves(path):
    broken = []
    for target in _links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor}")
    assert not broken, f"{_rel(path)}: " + "; ".join(broken)


REPO_PATH = re.compile(r"`((?:eval_tasks|dataset_builders|training|tests|scripts|benchmarks|spaces|docs)/[^`\s]*"
                       r"|chartprobe/\w+\.py)`")


@pytest.mark.parametrize("path", USER_DOCS, ids=_rel)
def test_every_repository_path_named_exists(path):
    """A module path in the prose (`eval_tasks/report/build.py`) is still where the page says."""
    import glob

    stale = []
    for name in REPO_PATH.findall(path.read_text(encoding="utf-8")):
        pattern = re.sub(r"<[^>]+>", "*", name.rstrip("/"))
        if not glob.glob(str(ROOT / pattern)):
            stale.append(name)
    assert not stale, f"{_rel(path)} names paths that do not exist: {stale}"


def test_the_slug_rules_match_githubs():
    assert _slug("Paper-comparable runs (`chartprobe_*_paper`)") == "paper-comparable-runs-chartprobe__paper"
    assert _slug("Fresh private test sets (`--seed`, `validate --across-seeds`)") == \
        "fresh-private-test-sets---seed-validate---across-seeds"
    assert _slug("The [glossary](docs/glossary.md) — every term") == "the-glossary--every-term"


# --- commands shown ------------------------------------------------------------------------------

INVOCATION = re.compile(r"(?:^|[\s;&|(])(?:\.venv/bin/)?chartprobe((?:[ \t]+[a-z][a-z-]*)+)", re.MULTILINE)


@cache
def _command_paths() -> frozenset[tuple[str, ...]]:
    import argparse

    from chartprobe.cli import build_parser

    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield (*path, name)
                    yield from walk(sub, (*path, name))

    return frozenset(walk(build_parser(), ()))


def _shown_commands() -> dict[tuple[str, ...], list[str]]:
    """Command path -> the files showing it, from every shell block of the README and docs."""
    found: dict[tuple[str, ...], list[str]] = {}
    for path in DOCS:
        for lang, body in _blocks(path.read_text(encoding="utf-8")):
            if lang not in ("bash", "sh", "shell", "console"):
                continue
            body = re.sub(r"(?:^|\s)#.*$", "", body.replace("\\\n", " "), flags=re.MULTILINE)  # comments are prose
            for m in INVOCATION.finditer(body):
                words = m.group(1).split()
                chain: tuple[str, ...] = (words[0],)
                for word in words[1:]:
                    if (*chain, word) in _command_paths():
                        chain = (*chain, word)
                    else:
                        break
                found.setdefault(chain, []).append(_rel(path))
    return found


SHOWN = _shown_commands()


def test_commands_are_shown_and_every_one_exists():
    assert {("eval",), ("score",), ("report",), ("build",), ("validate",)} <= set(SHOWN)
    unknown = {" ".join(c): files for c, files in SHOWN.items() if c not in _command_paths()}
    assert not unknown, f"commands shown in the docs that chartprobe does not have: {unknown}"


@pytest.mark.parametrize("chain", sorted(SHOWN), ids=" ".join)
def test_every_shown_command_answers_help(chain, capsys):
    from chartprobe.cli import main

    try:  # argparse exits after --help; `eval` hands --help to lm-eval, which returns
        status = main([*chain, "--help"])
    except SystemExit as exit_:
        status = exit_.code
    assert status in (0, None)
    assert "usage" in capsys.readouterr().out.lower()


# --- generated CLI reference, issue numbers, the README -------------------------------------------

def _generator():
    spec = importlib.util.spec_from_file_location("gen_cli_docs", ROOT / "scripts" / "gen_cli_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_what_the_generator_prints():
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == _generator().render(), \
        "docs/cli.md is stale: run `python scripts/gen_cli_docs.py > docs/cli.md`"
    assert not set(_command_paths()) - {tuple(h.split()[1:]) for h in
                                         re.findall(r"^## (chartprobe .+)$", (ROOT / "docs" / "cli.md").read_text(), re.MULTILINE)}


ISSUE = re.compile(r"(?<![\w&/])#\d+\b|\b(?:issues?|PR|pull request)[\s-]*#?\d+", re.IGNORECASE)
HEX = re.compile(r"(?<![\w@/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")


@pytest.mark.parametrize("path", DOCS, ids=_rel)
def test_no_issue_numbers_or_commit_ids(path):
    text = path.read_text(encoding="utf-8")
    issues = ISSUE.findall(text)
    commits = HEX.findall(text)  # upstream pins are written owner/repo@sha or as a URL: allowed
    assert not issues and not commits, f"{_rel(path)}: issue refs {issues}, commit ids {commits}"


def test_the_detectors_catch_what_they_should():
    assert ISSUE.findall("see issue 17.2 and #40, issue-14") and not ISSUE.findall("[a](#chartprobe-build) #SBATCH")
    assert HEX.findall("a worktree of cee6995 here") == ["cee6995"]
    assert not HEX.findall("owner/repo@1f02025c and /tree/1f02025c and a sha256 " + "ab12" * 16)


def test_readme_is_a_landing_page_with_the_one_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 160
    one = [b for lang, b in _blocks(text) if lang == "bash" and "--tasks chartprobe-all" in b]
    assert one and re.search(r"chartprobe eval .*--tasks chartprobe-all", one[0].replace("\\\n", " "))
    assert "bash scripts/quickstart.sh" in text and ".venv/bin/python -m pytest -q" in text


# --- load_dataset snippets ------------------------------------------------------------------------

SNIPPETS = [(path, body) for path in DOCS for lang, body in _blocks(path.read_text(encoding="utf-8"))
            if lang == "python" and "load_dataset(" in body]
REPO = re.compile(r"(?:^|/)chartprobe-(\w+)$")


KEEP = {"families": {"all", "resolution"},  # the group configs repeat `all`'s families: not needed here
        "probes": {"bar", "pie", "cr_bar", "cr_ood_bar"}}  # one domain of each kind the docs and report show
TEST_ONLY = {"legend"}  # every legend base chart renders a dozen times: its train/validation splits wait


def _tiny_preset(name: str, folder: Path) -> Path:
    """The small preset of ``name`` cut to one item per split (two per CRJ split: a 50/50 balance)."""
    preset = yaml.safe_load((ROOT / "dataset_builders" / "configs" / f"{name}-small.yaml").read_text())
    preset["configs"] = {c: v for c, v in preset["configs"].items() if c in KEEP.get(name, preset["configs"])}
    for config in preset["configs"].values():
        config["splits"] = {s: min(n, 2 if name == "judge" else 1) for s, n in config["splits"].items()
                            if s == "test" or name not in TEST_ONLY}
        pairs = config.get("params", {}).get("pairs")
        if pairs:  # CPA: one pair of each of two criteria
            config["params"]["pairs"] = {k: 1 for k in list(pairs)[:2]}
            config["splits"] = {"test": 2}
    preset["preset"] = "docs"
    path = folder / f"{name}-docs.yaml"
    path.write_text(yaml.safe_dump(preset))
    return path


@pytest.fixture(scope="module")
def tiny_releases(tmp_path_factory) -> Path:
    """Every dataset at one or two items per split: enough rows for snippets, agents and a report."""
    from chartprobe.dataset_builders.release.dataset import DATASETS
    from chartprobe.dataset_builders.release.hub import build_release

    root = tmp_path_factory.mktemp("docs_releases")
    presets = tmp_path_factory.mktemp("docs_presets")
    for name in DATASETS.names():
        build_release(name, root, str(_tiny_preset(name, presets)), num_proc=1)
    return root


def test_snippets_are_found():
    assert len(SNIPPETS) >= 4 and any(p.name == "README.md" for p, _ in SNIPPETS)


@pytest.mark.parametrize("snippet", [b for _, b in SNIPPETS],
                         ids=[f"{_rel(p)}-{i}" for i, (p, _) in enumerate(SNIPPETS)])
def test_every_load_dataset_snippet_runs_on_local_releases(snippet, tiny_releases, monkeypatch):
    import datasets

    real, loaded = datasets.load_dataset, []

    def local(path, *args, revision=None, **kwargs):
        m = REPO.search(str(path))
        assert m, f"a snippet loads {path!r}, which is no chartprobe release"
        ds = real(str(tiny_releases / f"chartprobe-{m.group(1)}"), *args, **kwargs)
        loaded.append(ds)
        return ds

    monkeypatch.setattr(datasets, "load_dataset", local)
    exec(compile(snippet, "<snippet>", "exec"), {"__name__": "snippet"})  # noqa: S102 (the docs are ours)
    assert loaded
    for ds in loaded:
        parts = ds.values() if isinstance(ds, datasets.DatasetDict) else [ds]
        assert all(len(part) > 0 for part in parts)


# --- glossary ------------------------------------------------------------------------------------

def _glossary_terms() -> set[str]:
    """Every term of the glossary's tables (first column), and each word of each term."""
    terms: set[str] = set()
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if not cells or set(cells[0]) <= set("-: ") or cells[0] == "term":
            continue
        for term in re.split(r",\s*", cells[0].replace("\\|", "|")):
            term = term.replace("*", "").replace("`", "").split(" (")[0].strip().rstrip(".")
            terms.add(term)
            terms.update(w.rstrip(".") for w in re.split(r"[\s|/]+", term) if w)
    return terms


ABBREV = re.compile(r"(?<![\w-])[A-Za-z0-9]*[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)*")
PARENTHESISED = re.compile(r"\(([A-Z][A-Z0-9+]*)\)")


def _abbreviations(text: str) -> set[str]:
    """Tokens with two or more capitals (``CVA``, ``AF1``, ``ConsResp``, ``CVA-R``) and capitals in
    parentheses (``(P)``); template ids such as ``G-VT-LEFTMOST`` name a template, not a term."""
    found = {t for t in ABBREV.findall(text) if not re.fullmatch(r"[A-Z]+(?:-[A-Z0-9]+){2,}", t)}
    found |= {t for t in PARENTHESISED.findall(text)}
    return {t for t in found if not t.isdigit()}


def _registry_labels() -> set[str]:
    """Every word of the papers' labels in the metric names registry (``Cons.``, ``Chain Acc.``, ``VE``)."""
    from chartprobe.eval_tasks.metrics.names import NAMES

    words = set()
    for name in NAMES.values():
        words.update(w.rstrip(".") for w in re.split(r"[\s|]+", name.paper) if w[:1].isupper())
    return words


def _report_labels(report_md: str) -> set[str]:
    """Headings, prose and table headers of a report (table bodies hold data: models, paths, hashes)."""
    keep, lines = [], report_md.splitlines()
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if not line.startswith("|") or re.match(r"^\|[-:| ]+\|$", nxt):
            keep.append(re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "", line)))
    return _abbreviations("\n".join(keep))


def _lm_eval_aliases() -> set[str]:
    out = set()
    for path in (ROOT / "eval_tasks" / "harness" / "tasks").glob("*.yaml"):
        for key, value in re.findall(r"^(task_alias|group_alias):\s*(.+)$", path.read_text(), re.MULTILINE):
            out |= _abbreviations(value.strip().strip("\"'"))
    return out


def _space_labels(releases: Path, results: Path, tmp_path: Path) -> set[str]:
    """What the Space shows besides the data: labels, titles, headers, badges, with predictions loaded."""
    import os

    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    spaces = str(ROOT / "spaces")
    if spaces not in sys.path:
        sys.path.insert(0, spaces)
    import app  # spaces/app.py
    import gradio as gr
    from chartspace import views
    from chartspace.predictions import PredictionSet, load_uploads
    from chartspace.source import DataSource
    from chartspace.views import leaderboard
    from chartspace.workspace import Workspace

    texts: list[str] = []
    demo = app.build_app(None, Workspace.create(session_quota=64 << 20, total_quota=64 << 20))
    for block in demo.blocks.values():
        texts += [v for v in (getattr(block, "label", None), getattr(block, "info", None)) if isinstance(v, str)]
        if isinstance(block, (gr.Markdown, gr.HTML, gr.Button)) and isinstance(block.value, str):
            texts.append(re.sub(r"`[^`]*`", "", block.value))
    preds = PredictionSet()
    for run in load_uploads([results], "model", tmp_path):
        preds = preds.with_run(run)
    source = DataSource()
    with gr.Blocks():
        handles = [views.load(n).build(source, gr.State(preds)) for n in app.VIEWS]
        handles.append(leaderboard.build(gr.State(preds)))
    for handle in handles:
        args = [preds, None, None] if handle.name == leaderboard.TITLE else \
            [preds, *[None] * (len(handle.inputs) - 2), 1]
        for out in handle.refresh(*args):
            if isinstance(out, dict):
                texts += [out["label"]] if isinstance(out.get("label"), str) else []
            elif isinstance(out, str):
                html = re.sub(r"<code>.*?</code>", "", out)
                texts += re.findall(r"<th>(.*?)</th>", html)
                texts += re.findall(r'<span class="cp-badge[^"]*">(.*?)</span>', html)
                texts += [re.sub(r"<[^>]+>", " ", h) for h in re.findall(r"<h4>(.*?)</h4>", html)]
    return _abbreviations("\n".join(texts))


@pytest.fixture(scope="module")
def quick_report(tiny_releases, tmp_path_factory):
    """Reference agents on every tiny release, rescored and reported as the quick start does."""
    from chartprobe.dataset_builders.release.dataset import DATASETS
    from chartprobe.eval_tasks.rescoring.predictions import load_release_rows
    from chartprobe.eval_tasks.validity.validate import run_agents, write_agent_samples

    from chartprobe.cli import main

    out = tmp_path_factory.mktemp("docs_report")
    for name in DATASETS.names():
        runs = run_agents(name, load_release_rows(tiny_releases / f"chartprobe-{name}"), ["oracle", "stale"])
        write_agent_samples(runs, out / "agents")
    agents = [str(p) for p in sorted((out / "agents").iterdir())]
    assert main(["score", "--predictions", *agents, "--releases", str(tiny_releases), "--allow-partial",
                 "--quiet", "--out", str(out / "results.json")]) == 0
    assert main(["report", str(out / "results.json"), "--out", str(out / "report")]) == 0
    return out


def test_every_abbreviation_users_see_is_in_the_glossary(quick_report, tiny_releases, tmp_path, monkeypatch):
    monkeypatch.setenv("CHARTPROBE_DATA", str(tiny_releases))
    report = (quick_report / "report" / "report.md").read_text(encoding="utf-8")
    seen = {
        "metric names registry": _registry_labels(),
        "report.md": _report_labels(report),
        "lm-eval task and group aliases": _lm_eval_aliases(),
        "the Space": _space_labels(tiny_releases, quick_report / "results.json", tmp_path),
    }
    assert {"CVA", "ConsResp", "AF1"} <= seen["report.md"] and {"CPA", "CRJ", "P"} <= seen["lm-eval task and group aliases"]
    assert {"Cons", "Resp", "Chain", "VE"} <= seen["metric names registry"]
    terms = _glossary_terms()
    missing = {where: sorted(words - terms) for where, words in seen.items() if words - terms}
    assert not missing, f"abbreviations users see that docs/glossary.md does not define: {missing}"


def test_quick_start_report_leads_with_the_diagnosis(quick_report):
    """Issue 41 check 4: the first model's generated paragraph within report.md's first 40 lines;
    provenance and validity at the end."""
    lines = (quick_report / "report" / "report.md").read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("## Model: "))
    name = lines[first].removeprefix("## Model: ")
    assert first < 40 and lines[first + 2].startswith(f"**{name}.** "), lines[:45]  # the generated paragraph
    stale = lines[lines.index("## Model: stale") + 2]  # the stale agent's weakness, named from its numbers
    assert "Weakest capability: updating answers to chart variants (families CVA)" in stale, stale
    assert lines.index("## Provenance and validity") > max(i for i, x in enumerate(lines) if x.startswith("## Model: "))
