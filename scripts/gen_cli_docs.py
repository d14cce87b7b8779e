"""Print docs/cli.md: the `chartprobe` command reference, generated from its argparse parser.

    python scripts/gen_cli_docs.py > docs/cli.md

Walks ``chartprobe.cli.build_parser()`` and every sub-command (nested ones such as
``export vlmevalkit`` too) and prints each one's ``--help`` text at a fixed width, so the page
is the same on every machine. ``tests/test_docs.py`` fails when docs/cli.md differs from this
output.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator

WIDTH = "100"

INTRO = """\
# CLI reference

Generated from the argparse parser by `python scripts/gen_cli_docs.py > docs/cli.md`; a test
fails when this page and the parser disagree. Every command also answers `--help`.

## Errors and `--debug`

Every command reports bad input (a missing, unreadable or read-only path, a full disk, JSON or
YAML that does not parse, a file that is not UTF-8, a corrupt parquet file, a samples, results
or validity file of the wrong shape, a preset or spec that breaks its schema, arguments that
cannot work) as one line on stderr, exits 2 and leaves no new files or folders behind:
`chartprobe: error: results.json: 'models' must map model names to their results`. `eval` and
`train` check their arguments (task names, `--limit`, model and data folders, the profile,
`--config` values and ranges) before lm-eval starts or a model loads, and `validate --agents`
refuses unknown names. Ctrl-C prints `chartprobe: interrupted` and exits 130 (pool workers of
`build --num-proc N` ignore it; the parent stops them). Any other exception is a bug and
prints its traceback; `--debug` (before or after the command, e.g. `chartprobe build smoke
--out hub/ --debug`) prints the traceback of every error, for bug reports
(`chartprobe/errors.py`; the table of malformed inputs is `tests/test_cli_malformed.py`).

`chartprobe eval` passes every argument to lm-eval (`chartprobe eval --help` prints lm-eval's
help), adding `--include_path` and its own `--max-gen-toks N`; see [evaluating](evaluating.md).
"""


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) \
        -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(command path, parser) for every sub-command under ``parser``, depth first, in parser order."""
    for action in parser._actions:  # argparse keeps sub-parsers only here
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name), sub
                yield from _subcommands(sub, (*path, name))


def _anchor(title: str) -> str:
    """GitHub's heading slug (lower case, punctuation dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def render() -> str:
    """The whole page."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH  # argparse wraps help at the terminal width it finds here
    try:
        from chartprobe.cli import build_parser

        parser = build_parser()
        commands = list(_subcommands(parser))
        out = [INTRO, "## Commands", ""]
        out += [f"- [`chartprobe {' '.join(path)}`](#{_anchor('chartprobe ' + ' '.join(path))})"
                for path, _ in commands]
        out += ["", "## chartprobe", "", "```text", parser.format_help().rstrip(), "```", ""]
        for path, sub in commands:
            out += [f"## chartprobe {' '.join(path)}", "", "```text", sub.format_help().rstrip(), "```", ""]
        return "\n".join(out)
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


if __name__ == "__main__":
    print(render(), end="")
