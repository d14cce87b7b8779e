"""Run a job: one child process, wrapped by a mechanism, under rlimits and a wall-clock kill.

The host makes a private folder holding the job file, the child's stdout and stderr, and the
scratch folder (the only place the child may write). ``prlimit`` (util-linux) sets CPU time,
address space, file size, process count and no core dumps on the child's command line, so no
Python code runs between fork and exec in this (threaded) process. The whole process group is
killed at the wall limit and again after every job, so nothing the code started outlives it.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import math
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .base import MECHANISMS, Call, CallResult, JobResult, Limits
from .check import ALLOWED_IMPORTS, check_code, imported_modules
from .runtime import (
    EXIT_CPU,
    EXIT_FILES,
    EXIT_MEMORY,
    EXIT_OUTPUT,
    MAX_FILES,
    child_env,
    font_cache,
    interpreter_binds,
    job_uid,
    own_tasks,
)
from .seccomp import filter_fd

__all__ = ["mechanisms", "probe", "run_calls"]

RUNNER = Path(__file__).with_name("runner.py")
_WARM = [*sorted(ALLOWED_IMPORTS), "matplotlib.pyplot", "PIL.PngImagePlugin", "encodings.idna"]
"""What the runner loads before dropping privileges when the interpreter may be unreadable after."""


def _warm_list(calls: list[Call]) -> list[str]:
    """:data:`_WARM` and whatever else the calls import (a protocol may allow seaborn, scipy, ...)."""
    return list(dict.fromkeys([*_WARM, *(m for c in calls for m in imported_modules(c.code))]))


def _prlimit(limits: Limits, as_root: bool) -> list[str]:
    cpu = max(1, math.ceil(limits.cpu_s))
    # RLIMIT_NPROC counts every task of the user: as root the runner switches to a uid of the job's
    # own (runtime.JOB_UIDS), otherwise the user's tasks already running count against it.
    nproc = limits.processes + (0 if as_root else own_tasks())
    return [shutil.which("prlimit") or "prlimit", f"--cpu={cpu}:{cpu + 1}",
            f"--as={limits.per_process_mb * 2**20}",
            f"--fsize={limits.output_mb * 2**20}", f"--nproc={nproc}", "--core=0", "--"]


def _kill(pid: int, *, group: bool = False) -> None:
    """SIGKILL a process (or its group); one that already ended is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)


def _stop(proc: subprocess.Popen) -> int:
    """Kill a job from the inside out: first the wrapper's children (the PID namespace's init, whose
    death takes every process of the namespace with it), so the wrapper reaps them and exits; then
    whatever is left of the group. Killing the wrapper first would orphan its child to the host's
    init, which in a container may never reap it (a zombie counted against RLIMIT_NPROC)."""
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    except OSError:
        children = []
    for child in children:
        _kill(int(child))
    try:
        return proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        _kill(proc.pid, group=True)
        return proc.wait()


def _status(rc: int, sig: int, timed_out: bool, limits: Limits, written: int, stderr: str) -> tuple[str, str]:
    if timed_out:
        return "timeout", f"ran past the {limits.wall_s:g} s wall-time limit and was killed"
    if rc == EXIT_MEMORY:
        return "memory", (f"ran out of memory: {limits.per_process_mb} MB address space per task, "
                          f"{limits.memory_mb} MB for the job (MemoryError)")
    if rc == EXIT_OUTPUT or sig == signal.SIGXFSZ or written >= limits.output_mb * 2**20:
        return "output", f"wrote more than the {limits.output_mb} MB output limit"
    if rc == EXIT_FILES:
        return "output", f"left more than {MAX_FILES} files in its scratch folder"
    if sig == signal.SIGXCPU or rc == EXIT_CPU:
        return "cpu", f"used more than its {limits.cpu_s:g} s of CPU time (SIGXCPU)"
    if sig == signal.SIGKILL:
        return "killed", "killed by SIGKILL (past the CPU hard limit, or the kernel ran out of memory)"
    if rc != 0:
        what = f"signal {signal.Signals(sig).name}" if sig in signal.valid_signals() else f"exit status {rc}"
        tail = stderr.strip().splitlines()[-1:] or [""]
        return "crashed", f"the sandboxed process ended with {what}: {tail[0][:300]}"
    return "ok", ""


def _results(fd: int, calls: list[Call], limits: Limits) -> tuple[CallResult, ...] | str:
    """The calls' results from the host's own result file (``fd``, opened before the job started;
    read by descriptor, so no path the code could replace with a symlink is ever opened), or why
    there are none. Everything in it is the job's word: size-capped, parsed and shape-checked
    so that nothing it holds can raise past this function."""
    cap = limits.output_mb * 2**20
    size = os.fstat(fd).st_size
    if size == 0:
        return "the runner wrote no results"
    if size > cap:
        return f"its results passed the {limits.output_mb} MB output limit"
    try:
        rows = json.loads(os.pread(fd, size, 0).decode("ascii"))
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return f"its results are not JSON ({type(exc).__name__}: {str(exc)[:200]})"
    if not isinstance(rows, list) or len(rows) != len(calls):
        return f"its results are not a list of {len(calls)} call results"
    out = []
    for i, (row, call) in enumerate(zip(rows, calls, strict=True)):
        if not isinstance(row, dict) or not isinstance(row.get("ok"), bool) \
                or not isinstance(row.get("error", ""), str):
            return f"result {i} is not a call result"
        data = None
        if call.savepath and isinstance(row.get("png"), str):
            try:
                data = base64.b64decode(row["png"], validate=True)
            except ValueError:
                return f"result {i} holds a picture that is not base64"
        out.append(CallResult(row["ok"], row.get("value"), row.get("error", ""), data))
    return tuple(out)


def _written(folder: Path) -> int:
    """The largest file the job left (RLIMIT_FSIZE caps each; this catches an exit mid-write)."""
    biggest = 0
    for root, _, files in os.walk(folder):  # os.walk never follows a symlinked folder
        for name in files:
            with contextlib.suppress(OSError):
                st = os.lstat(os.path.join(root, name))
                if stat.S_ISREG(st.st_mode):
                    biggest = max(biggest, st.st_size)
    return biggest


def run_calls(calls: list[Call], limits: Limits | None = None, *, mechanism: str | None = None,
              check: bool = True) -> JobResult:
    """Run ``calls`` in one sandboxed job and return how it ended.

    ``check`` first applies the AST check (:func:`~.check.check_code`, raising
    :class:`~.check.CodeRejected`); only the sandbox's own tests switch it off, to show that the
    sandbox contains what the check would have refused. ``mechanism``: a name from
    :data:`~.base.MECHANISMS` (default: the strongest available)."""
    limits = limits or Limits()
    if check:
        for call in calls:
            check_code(call.code, call.function)
    if mechanism is None:
        found = mechanisms()
        if not found:
            raise RuntimeError("no sandbox mechanism works here: install bubblewrap (apt-get install bubblewrap)")
        mechanism = found[0]
    box = MECHANISMS[mechanism]
    as_root = os.geteuid() == 0
    with tempfile.TemporaryDirectory(prefix="chartprobe-sandbox-") as tmp:
        host = Path(tmp)
        scratch = host / "scratch"
        (scratch / ".mpl").mkdir(parents=True)
        for cached in font_cache().glob("fontlist-*.json"):
            shutil.copyfile(cached, scratch / ".mpl" / cached.name)
        # the results come back through a file of the host's, opened here before the child exists
        # and outside anything the child can name: no symlink the code plants is ever followed
        result_fd = os.open(host / "results.json", os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        seccomp = filter_fd() if box.uses_seccomp else None
        try:
            return _run(calls, limits, box, as_root, host, scratch, result_fd, seccomp)
        finally:
            os.close(result_fd)
            if seccomp is not None:
                os.close(seccomp)


def _run(calls: list[Call], limits: Limits, box, as_root: bool, host: Path, scratch: Path, result_fd: int,
         seccomp: int | None) -> JobResult:
    uid = job_uid() if as_root else None
    job = {"calls": [{"code": c.code, "function": c.function, "args": list(c.args), "savepath": c.savepath}
                     for c in calls], "drop_to": uid, "result_fd": result_fd,
           "warm": _warm_list(calls) if as_root and not box.isolates_files else []}
    (scratch / "job.json").write_text(json.dumps(job), encoding="utf-8")
    if as_root:
        host.chmod(0o711)  # the unprivileged child must cross it to reach its scratch folder
        for p in (scratch, *scratch.rglob("*")):
            os.chown(p, uid, uid)
    guards = (f"memory: rlimit {limits.per_process_mb} MB x {limits.processes} tasks",
              "seccomp" if seccomp is not None else "no seccomp",
              "scratch tmpfs" if box.isolates_files else "scratch on host disk")
    python = [sys.executable, "-s", "-B", *(["-P"] if sys.version_info >= (3, 11) else [])]
    cmd, _, child_scratch = box.wrap(python, scratch, RUNNER, interpreter_binds(), limits, as_root,
                                     seccomp_fd=seccomp)
    out_path, err_path = host / "stdout", host / "stderr"
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        out_path.chmod(0o600)
        err_path.chmod(0o600)
        passed = (result_fd,) if seccomp is None else (result_fd, seccomp)
        proc = subprocess.Popen(_prlimit(limits, as_root) + cmd, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, env=child_env(child_scratch, private_tmp=box.isolates_files),
                                cwd=scratch, start_new_session=True, close_fds=True, pass_fds=passed)
        timed_out = False
        try:
            rc = proc.wait(timeout=limits.wall_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            rc = _stop(proc)
        finally:
            _kill(proc.pid, group=True)
    wall = time.monotonic() - start
    stderr = err_path.read_bytes()[-4000:].decode("utf-8", "replace")
    written = max(_written(scratch), out_path.stat().st_size, err_path.stat().st_size)
    status, reason = _status(rc, box.signal_of(rc, stderr), timed_out, limits, written, stderr)
    results: tuple[CallResult, ...] = ()
    if status == "ok":
        found = _results(result_fd, calls, limits)
        if isinstance(found, str):
            status, reason = "crashed", f"{found}: {stderr.strip()[-300:]}".rstrip(": ")
        else:
            results = found
    return JobResult(status, reason, results, box.name, round(wall, 3), guards)


def mechanisms() -> list[str]:
    """The mechanisms that work here, strongest first (``bwrap`` before ``unshare``): each is
    installed and has run a trial job with the real command line, limits and user switch."""
    return [name for name in MECHANISMS if not probe(name)]


_PROBE = "import matplotlib.pyplot\nimport numpy\n\n\ndef probe():\n    return 1\n"


@functools.cache
def probe(name: str) -> str:
    """Why mechanism ``name`` cannot run jobs here ("" when it can): not installed, or its trial
    job (importing the contract's libraries inside it) did not come back."""
    if not MECHANISMS[name].found():
        return f"{name} is not installed"
    try:
        job = run_calls([Call(_PROBE, "probe")], Limits(cpu_s=20, wall_s=60), mechanism=name)
    except OSError as exc:
        return f"{name} could not start: {exc}"
    if job.status != "ok":
        return f"{name}'s trial job ended {job.status}: {job.reason}"
    result = job.results[0]
    return "" if result.ok and result.value == 1 else f"{name}'s trial job failed: {result.error}"
