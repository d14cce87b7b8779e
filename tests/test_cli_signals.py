"""The malformed-input rows that need a real process (issue #20): permissions, a full disk, Ctrl-C.

* Permissions: root reads and writes almost anything, so these rows run unprivileged: as
  ``nobody`` (``subprocess``'s ``user=``), or, where nobody cannot run this interpreter, as
  root without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH (then the mode bits bind root too). They
  are skipped when neither works. Run as a normal user, they run as that user.
* A full disk, as the kernel reports it: ``RLIMIT_FSIZE`` makes every write past a few KiB
  fail with ``EFBIG`` ("File too large"), exactly where ``ENOSPC`` would, without a
  dedicated filesystem.
* Ctrl-C reaches the whole process group, workers included: ``build --num-proc 2`` must
  stop with one ``chartprobe: interrupted`` line, exit 130 and no half release.

Also here: a bug (an exception chartprobe does not expect) keeps its traceback, and
``--debug`` keeps the traceback of every error.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from chartprobe.dataset_builders import commands as builder_commands
from cli_cases import BAR, Case, assert_one_error_line, base_fixture, row, tree  # noqa: F401 - a fixture

from chartprobe.cli import main

NOBODY = 65534
FSIZE_LIMIT = 1024  # bytes: every output below writes more than this, no input read needs to write
CLI = [sys.executable, "-m", "chartprobe"]


def run_cli(args, *, cwd: Path, env: dict[str, str], timeout: float = 120, **how) -> subprocess.CompletedProcess:
    """``chartprobe ARGS`` in a subprocess; ``how``: subprocess options (``user=``, ``preexec_fn=``)."""
    return subprocess.run([*CLI, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False, **how)


def _drop_dac_capabilities() -> None:
    """(In the child, before exec.) Take away what lets root ignore file permission bits.

    Dropped from the bounding set, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH stay gone
    across exec, so uid 0 then reads and writes only what the mode bits allow.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _ways_to_be_unprivileged() -> list[tuple[str, dict]]:
    if os.geteuid() != 0:
        return [("this user", {})]
    # nobody first; but the interpreter may sit where nobody cannot reach it (/root/.pyenv)
    return [(f"uid {NOBODY}", {"user": NOBODY, "group": NOBODY, "extra_groups": []}),
            ("root without DAC capabilities", {"preexec_fn": _drop_dac_capabilities})]


@pytest.fixture(scope="module")
def unprivileged():
    """How the permission rows run unprivileged, and a home folder (caches, working folder) for them."""
    home = Path(tempfile.mkdtemp(prefix="chartprobe-home-"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "MPLCONFIGDIR": str(home / "mpl"),
           "HF_HOME": str(home / "hf"), "HF_HUB_OFFLINE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    tried = []
    for who, how in _ways_to_be_unprivileged():
        os.chown(home, how.get("user", os.getuid()), how.get("group", os.getgid()))
        try:  # also warms matplotlib's font cache, whose first build notes itself on stderr
            probe = subprocess.run([sys.executable, "-c", "import chartprobe.cli, matplotlib.font_manager"],
                                   cwd=home, env=env, capture_output=True, text=True, timeout=120, check=False,
                                   **how)
        except (OSError, subprocess.SubprocessError) as exc:
            tried.append(f"{who}: {exc}")
            continue
        if probe.returncode == 0:
            yield {"who": who, "how": how, "home": home, "env": env, "user": how.get("user")}
            break
        tried.append(f"{who}: {probe.stderr.strip()[-160:]}")
    else:
        shutil.rmtree(home, ignore_errors=True)
        pytest.skip("cannot drop privileges: " + "; ".join(tried))
    shutil.rmtree(home, ignore_errors=True)


class PermCase(Case):
    """A row folder the unprivileged user can read but not write, with a writable ``w/`` inside."""

    def writable(self, name: str) -> str:
        """A path in ``w/``, where the unprivileged user may write (so only the named cause fails)."""
        return str(self.tmp / "w" / name)

    def locked(self, path: str, mode: int = 0) -> str:
        os.chmod(path, mode)
        return path


@pytest.fixture
def perm_case(base, unprivileged):
    root = Path(tempfile.mkdtemp(prefix="chartprobe-perm-"))
    os.chmod(root, 0o755)
    (root / "w").mkdir()
    if unprivileged["user"] is not None:
        os.chown(root / "w", unprivileged["user"], unprivileged["user"])
    yield PermCase(root, base)
    for p in [root, *root.rglob("*")]:  # unlock whatever a row locked, so it can be removed
        if not p.is_symlink():
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
    shutil.rmtree(root, ignore_errors=True)


def _probes_and_model(c: PermCase) -> list[str]:
    return ["--model", c.model(), "--data", c.probes()]


PERM_ROWS = [
    row("render", "spec-unreadable", lambda c: ["render", c.locked(c.json("s.json", BAR)), "--out", c.writable("x.png")],
        "Permission denied"),
    row("render", "out-folder-read-only", lambda c: ["render", c.json("s.json", BAR), "--out", c.path("x.png")],
        "not writable"),
    row("build", "preset-unreadable", lambda c: ["build", "smoke", "--preset", c.locked(c.file("p.yaml", "seed: 0\n")),
                                                "--out", c.writable("out")], "Permission denied"),
    row("build", "out-folder-read-only", lambda c: ["build", "smoke", "--out", c.path("out")], "not writable"),
    row("score", "samples-unreadable", lambda c: ["score", "--predictions", c.locked(c.samples(c.line()) + "/" + _name(c)),
                                                 "--releases", c.releases(), "--out", c.writable("r.json")],
        "Permission denied"),
    row("score", "release-card-unreadable", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                      _locked_card(c), "--out", c.writable("r.json")],
        "Permission denied"),
    row("score", "out-folder-read-only", lambda c: ["score", "--predictions", c.samples(c.line()), "--releases",
                                                   c.releases(), "--out", c.path("r.json")], "not writable"),
    row("report", "results-unreadable", lambda c: ["report", c.locked(c.file("r.json", c.base.results.read_bytes())),
                                                  "--out", c.writable("rep")], "Permission denied"),
    row("report", "out-folder-read-only", lambda c: ["report", c.file("r.json", c.base.results.read_bytes()),
                                                    "--out", c.path("rep")], "not writable"),
    row("validate", "card-unreadable", lambda c: ["validate", str(Path(_locked_card(c)) / "chartprobe-smoke")],
        "Permission denied"),
    row("validate", "parquet-unreadable", lambda c: ["validate", _locked_parquet(c)], "Permission denied"),
    row("validate", "write-card-read-only", lambda c: ["validate", c.locked(c.release(), 0o555), "--write-card"],
        "not writable"),
    row("validate", "out-folder-read-only", lambda c: ["validate", c.release(), "--out", c.path("v")], "not writable"),
    row("push", "card-unreadable", lambda c: ["push", str(Path(_locked_card(c)) / "chartprobe-smoke"), "--repo", "me/x",
                                             "--tag", "v1.0.0", "--dry-run"], "Permission denied"),
    row("train", "profile-unreadable", lambda c: ["train", *_probes_and_model(c), "--select", "bottleneck", "--budget",
                                                 "4", "--profile", c.locked(c.json("p.json", {})),
                                                 "--out", c.writable("run")], "Permission denied"),
    row("train", "config-unreadable", lambda c: ["train", *_probes_and_model(c), "--config",
                                                c.locked(c.file("run.yaml", "seed: 1\n")), "--out", c.writable("run")],
        "Permission denied"),
    row("train", "out-folder-read-only", lambda c: ["train", *_probes_and_model(c), "--out", c.path("run")],
        "not writable"),
]


def _name(c: PermCase) -> str:
    return next((c.tmp / "samples" / "m").iterdir()).name


def _locked_card(c: PermCase) -> str:
    release = Path(c.release())
    c.locked(str(release / "README.md"))
    return str(release.parent)


def _locked_parquet(c: PermCase) -> str:
    release = c.release()
    c.locked(str(Path(release) / "default" / "test-00000-of-00001.parquet"))
    return release


@pytest.mark.parametrize("command,make,fragment", PERM_ROWS)
def test_permission_denied_as_an_unprivileged_user(command, make, fragment, perm_case, unprivileged):
    args = [str(a) for a in make(perm_case)]
    assert args[0] == command
    os.chmod(perm_case.tmp, 0o555)  # read-only for every user the permission bits apply to; w/ stays writable
    before = tree(perm_case.tmp)
    proc = run_cli(args, cwd=unprivileged["home"], env=unprivileged["env"], **unprivileged["how"])
    assert_one_error_line(proc.returncode, proc.stderr, fragment)
    assert tree(perm_case.tmp) == before


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE_LIMIT, FSIZE_LIMIT))


FULL_DISK_ROWS = [
    row("render", "png", lambda c: ["render", c.json("s.json", BAR), "--out", c.path("new/x.png")], "File too large"),
    row("build", "release", lambda c: ["build", "smoke", "--out", c.path("out"), "--quiet"], "File too large"),
    row("score", "results", lambda c: ["score", "--predictions", str(c.base.samples), "--releases",
                                       str(c.base.release.parent), "--out", c.path("new/r.json")], "File too large"),
    row("report", "plots", lambda c: ["report", str(c.base.results), "--out", c.path("rep")], "File too large"),
    row("validate", "samples", lambda c: ["validate", str(c.base.release), "--agents", "oracle", "--predictions-out",
                                          c.path("s"), "--out", c.path("v")], "File too large"),
]


@pytest.mark.parametrize("command,make,fragment", FULL_DISK_ROWS)
def test_full_disk_is_one_error_line_and_leaves_nothing(command, make, fragment, tmp_path, base):
    c = Case(tmp_path, base)
    args = make(c)
    before = tree(tmp_path)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    proc = run_cli(args, cwd=tmp_path, env=env, preexec_fn=_limit_file_size)
    assert_one_error_line(proc.returncode, proc.stderr, fragment)
    assert tree(tmp_path) == before


def _default_ctrl_c() -> None:
    # What a terminal gives a foreground program. A runner started in the background (`cmd &`
    # in a script) hands its children an *ignored* SIGINT, which Python then keeps ignoring.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("delay", [0.3, 1.5])
def test_ctrl_c_stops_build_workers_without_tracebacks(delay, tmp_path):
    """SIGINT to the process group (what a terminal's Ctrl-C does) while two workers build."""
    proc = subprocess.Popen([*CLI, "build", "smoke", "--preset", "full", "--num-proc", "2", "--quiet",
                             "--out", str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, cwd=tmp_path, preexec_fn=_default_ctrl_c)  # noqa: PLW1509 -- no threads yet
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True,
                              check=False).stdout.split()
        if len(kids) >= 2:  # the pool's workers are up
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert "Traceback" not in err, err
    assert err.strip() == "chartprobe: interrupted" and proc.returncode == 130, (proc.returncode, err)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_an_unexpected_exception_keeps_its_traceback(monkeypatch):
    monkeypatch.setattr(builder_commands, "cmd_list", lambda args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        main(["list"])
    code = "import chartprobe.dataset_builders.commands as c, chartprobe.cli as cli; c.cmd_list = lambda a: {}['x']; cli.main(['list'])"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 1 and "Traceback" in proc.stderr and "KeyError: 'x'" in proc.stderr
    assert "chartprobe: error" not in proc.stderr


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_keeps_the_traceback_of_expected_errors(where, tmp_path):
    args = ["render", str(tmp_path / "none.json"), "--out", str(tmp_path / "x.png")]
    with pytest.raises(ValueError, match="cannot read"):  # SpecError, shown as one line without --debug
        main(["--debug", *args] if where == "before" else [*args, "--debug"])
    assert main(args) == 2


def test_ctrl_c_in_a_command_is_one_line_and_130(monkeypatch, capsys):
    def interrupted(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise TimeoutError("pool cleanup timed out")  # what datasets' pool does on Ctrl-C

    monkeypatch.setattr(builder_commands, "cmd_list", interrupted)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "chartprobe: interrupted\n"


def test_ctrl_c_hook_is_scoped_to_the_build():
    """After a multi-process build in this process, children forked later still get Ctrl-C."""
    with builder_commands._workers_ignore_ctrl_c():
        pid = os.fork()
        if pid == 0:  # a pool worker: SIGINT ignored
            os._exit(0 if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 1)
        assert os.waitpid(pid, 0)[1] == 0
    ours = signal.getsignal(signal.SIGINT)
    pid = os.fork()
    if pid == 0:  # forked after the build: the caller's own Ctrl-C disposition, untouched
        os._exit(0 if signal.getsignal(signal.SIGINT) == ours else 1)
    assert os.waitpid(pid, 0)[1] == 0
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          preexec_fn=_default_ctrl_c)
    assert proc.stdout.strip() == "True"
