"""Which failures are the user's input and how they read: one ``chartprobe: error:`` line each.

``chartprobe/cli.py`` catches every exception a command raises and asks :func:`describe`
for its one-line message. Expected failures get one: the environment (the whole ``OSError``
family: missing, unreadable or read-only paths, a full disk, an unreachable Hub), unreadable
input (JSON, YAML, text that is not UTF-8, corrupt Arrow/Parquet data), a refused command line
(:class:`UsageError`) and each face's own schema errors (their ``known_errors()``). Anything
else is a bug and keeps its traceback (``--debug`` keeps it for everything).

:func:`check_output` lets commands refuse a bad output path *before* they do any work, and
:func:`no_new_folders` removes the folders a failed command created, so a failed command
leaves nothing behind in the folder it was pointed at.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

__all__ = ["ArgumentParser", "UsageError", "check_output", "describe", "interrupted", "main_with", "no_new_folders",
           "run_command"]


class UsageError(ValueError):
    """A command line that cannot work: refused by argparse or by a command's own checks."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose refusals read like every other error: one line, exit 2, no usage dump."""

    def error(self, message: str):
        command = self.prog.removeprefix("chartprobe").strip()
        where = f"{command}: " if command else ""
        raise UsageError(f"{where}{message} (see `{self.prog} --help`)")


def main_with(parser: argparse.ArgumentParser, argv: list[str] | None,
              known: Callable[[], tuple[type[BaseException], ...]] = tuple) -> int:
    """Parse ``argv`` with ``parser`` and run ``args.func`` under :func:`run_command`; the exit status."""
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"chartprobe: error: {exc}", file=sys.stderr)
        return 2
    return run_command(args.func, args, known)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _os_message(exc: OSError) -> str:
    # str(OSError) reads "[Errno 13] Permission denied: 'x'"; "x: Permission denied" is
    # the shell's form and puts the path (the *what*) first.
    if exc.strerror and exc.filename is not None:
        where = str(exc.filename)
        if getattr(exc, "filename2", None) is not None:
            where += f" -> {exc.filename2}"
        return f"{where}: {exc.strerror}"
    return _first_line(str(exc)) or exc.strerror or type(exc).__name__


def _library_errors() -> dict[type[BaseException], str]:
    """Input errors of optional libraries, looked up only if the command imported them.

    An exception of a library can only exist once that library is imported, so asking
    ``sys.modules`` keeps ``chartprobe --help`` free of pyarrow and yaml imports.
    """
    out: dict[type[BaseException], str] = {}
    if "yaml" in sys.modules:
        out[sys.modules["yaml"].YAMLError] = "invalid YAML"
    if "pyarrow" in sys.modules:
        out[sys.modules["pyarrow"].lib.ArrowException] = "corrupt or unreadable Arrow/Parquet data"
    return out


def describe(exc: BaseException, known: Iterable[type[BaseException]] = ()) -> str | None:
    """The one-line message for an expected failure, or None for a bug (keep its traceback)."""
    known = tuple(known)
    if isinstance(exc, UsageError) or (known and isinstance(exc, known)):
        return _first_line(str(exc)) or type(exc).__name__
    if isinstance(exc, OSError):
        return _os_message(exc)
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})"
    if isinstance(exc, UnicodeError):
        return f"not UTF-8 text: {_first_line(str(exc))}"
    for cls, what in _library_errors().items():
        if isinstance(exc, cls):
            # YAML messages span lines ("while parsing ...\n  in <file>, line 3"): keep them all.
            return f"{what}: {' '.join(str(exc).split()) or type(exc).__name__}"
    return None


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C or was raised while Ctrl-C was being handled.

    Worker pools (``datasets`` with ``--num-proc``) time out on their cleanup once Ctrl-C
    interrupted them and raise that timeout instead; it is the interrupt, not a bug.
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def run_command(func: Callable[[object], int], args: object,
                known: Callable[[], tuple[type[BaseException], ...]] = tuple) -> int:
    """``func(args)`` with expected failures as one ``chartprobe: error:`` line and exit 2.

    Ctrl-C is ``chartprobe: interrupted`` and exit 130; any other exception propagates with
    its traceback, and with ``args.debug`` every exception does. ``known`` is called only
    when something failed, so the faces' error classes are imported only then.
    """
    if getattr(args, "debug", False):
        return func(args)
    try:
        return func(args)
    except KeyboardInterrupt as exc:  # its text, when set, says what was already done (e.g. a swap)
        print(f"chartprobe: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except Exception as exc:
        if interrupted(exc):
            print("chartprobe: interrupted", file=sys.stderr)
            return 130
        message = describe(exc, known())
        if message is None:
            raise  # a bug: its traceback is the report
        print(f"chartprobe: error: {message}", file=sys.stderr)
        return 2


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_output(path: str | os.PathLike, flag: str, *, folder: bool = False) -> Path:
    """Refuse an output path that cannot be written, before any work starts.

    A file target must not be an existing folder, a folder target not an existing file,
    and the nearest existing folder above it must be a writable folder. An existing target
    must be a regular file (a real folder): a device, FIFO, socket or symbolic link is refused
    here, by the same check every atomic write repeats (``core/targets.py``).
    """
    from chartprobe.dataset_builders.core.targets import ForeignTarget, refuse_foreign

    target = Path(path)
    try:
        refuse_foreign(target, folder=folder)
    except ForeignTarget as exc:
        raise UsageError(f"{flag} {target}: {exc.strerror}") from None
    if folder and target.exists() and not target.is_dir():
        raise UsageError(f"{flag} {target}: exists and is not a folder")
    if not folder and target.is_dir():
        raise UsageError(f"{flag} {target}: is a folder, expected a file path")
    base = _nearest_existing(target if folder and target.exists() else target.parent)
    if not base.is_dir():
        raise UsageError(f"{flag} {target}: {base} is not a folder")
    if not os.access(base, os.W_OK):
        raise UsageError(f"{flag} {target}: {base} is not writable (Permission denied)")
    return target


@contextlib.contextmanager
def no_new_folders(*paths: str | os.PathLike | None, whole: bool = False) -> Iterator[None]:
    """If the block fails, remove the folders leading to ``paths`` that it created.

    Writers create an output's parent folders before they write; a write that then fails
    (full disk, Ctrl-C, bad input found late) must not leave those new folders behind. Only
    empty ones go, unless ``whole``: then a new folder goes with everything the block put in it.
    """
    new: list[Path] = []
    for path in filter(None, paths):
        p = Path(path)
        while not p.exists() and p != p.parent:
            new.append(p)
            p = p.parent
    try:
        yield
    except BaseException:
        for folder in sorted(set(new), key=lambda f: len(f.parts), reverse=True):  # deepest first
            if whole and folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder, ignore_errors=True)
            with contextlib.suppress(OSError):  # not empty (or gone): someone else's now
                folder.rmdir()
        raise
