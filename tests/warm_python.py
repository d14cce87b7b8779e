"""``python -m ...`` / ``python -c ...`` for tests, forked from an interpreter that imported the heavy libraries once.

A test that runs ``chartprobe eval`` or lm-eval in a subprocess spends 5-6 s of each run importing
torch, transformers, datasets and lm-eval before the first line of ours. :func:`run` keeps one server
interpreter per test process (per xdist worker) that imports those third-party libraries and nothing
of chartprobe's, and forks it for every command: the child sets the command's environment, working
folder, ``sys.argv`` and standard streams, runs the module or code as ``__main__`` and exits as a
fresh interpreter would (the exit status of ``sys.exit``, tracebacks, atexit handlers, flushed
streams; module teardown skipped: 1.3 s with 4,000 modules). chartprobe's own modules are imported
by each child, so a missing import in our code still fails here as it would for a user.

What a fork cannot change is what those libraries read from the environment while importing (the
offline switches, cache homes): a command whose values differ from the server's runs in a real
subprocess instead, as does every command when ``CHARTPROBE_TESTS_COLD=1`` (the slow, exact path).
The result is a :class:`subprocess.CompletedProcess`; a command past ``timeout`` has its process group
killed and raises :class:`subprocess.TimeoutExpired`, as ``subprocess.run`` does.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

WARM_IMPORTS = ("torch", "transformers", "datasets", "PIL.Image", "matplotlib.pyplot", "lm_eval.__main__",
                "lm_eval.tasks", "lm_eval.models.hf_vlms", "lm_eval.models.openai_completions")
"""Imported by the server before it forks: third-party only, the 5-6 s every lm-eval command pays."""

IMPORT_TIME_ENV = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME", "HF_HUB_CACHE",
                   "HUGGINGFACE_HUB_CACHE", "XDG_CACHE_HOME", "HF_MODULES_CACHE", "MPLBACKEND", "MPLCONFIGDIR",
                   "PYTHONPATH", "PYTHONHASHSEED", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "CUDA_VISIBLE_DEVICES")
"""Variables the warm libraries read while importing: a command must agree with the server on each."""

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

SERVER = r'''
import json, os, sys
for name in json.loads(sys.argv[1]):
    __import__(name)
reply = os.fdopen(os.dup(1), "w", buffering=1)
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    request = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        break
    reply.write(json.dumps({"pid": pid}) + "\n")
    reply.write(json.dumps({"returncode": os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}) + "\n")

# the child: become the command
os.setpgid(0, 0)
reply.close()
os.chdir(request["cwd"])
os.environ.clear()
os.environ.update(request["env"])
if "datasets" in sys.modules:  # datasets resolves its cache folders at import; the command names its own
    import datasets.config as dc
    from pathlib import Path
    dc.HF_DATASETS_CACHE = Path(os.environ.get("HF_DATASETS_CACHE", dc.HF_DATASETS_CACHE))
    dc.DOWNLOADED_DATASETS_PATH = os.path.join(dc.HF_DATASETS_CACHE, dc.DOWNLOADED_DATASETS_DIR)
    dc.EXTRACTED_DATASETS_PATH = os.path.join(dc.DOWNLOADED_DATASETS_PATH, dc.EXTRACTED_DATASETS_DIR)
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
    os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
kind, target, *args = request["args"]
try:
    if kind == "-m":
        import runpy, warnings
        sys.argv = [target, *args]
        sys.path[0] = os.getcwd()
        warnings.filterwarnings("ignore", message=".*found in sys.modules", category=RuntimeWarning)
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["-c", *args]
        sys.path[0] = ""
        exec(compile(target, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    code = 0
except SystemExit as stop:  # what the interpreter makes of sys.exit(x)
    code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    if not isinstance(stop.code, (int, type(None))):
        print(stop.code, file=sys.stderr)
except BaseException:
    sys.excepthook(*sys.exc_info())
    code = 1
# atexit handlers and flushed streams as at a normal exit, without tearing down 4,000 modules (1.3 s)
import atexit
atexit._run_exitfuncs()
import contextlib
for stream in (sys.stdout, sys.stderr):
    with contextlib.suppress(ValueError, OSError):  # a stream the command closed, or a full disk
        stream.flush()
os._exit(code)
'''


class _Server:
    """One forking server interpreter; requests are answered one at a time."""

    def __init__(self) -> None:
        self.env = {**os.environ, **OFFLINE, "TOKENIZERS_PARALLELISM": "false"}
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, json.dumps(WARM_IMPORTS)], env=self.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lock = threading.Lock()
        atexit.register(self.close)

    def agrees(self, env: Mapping[str, str]) -> bool:
        """Whether a command with ``env`` sees what the warm imports saw."""
        return all(env.get(k) == self.env.get(k) for k in IMPORT_TIME_ENV)

    def run(self, args: Sequence[str], env: Mapping[str, str], cwd: str, timeout: float | None
            ) -> subprocess.CompletedProcess:
        with self.lock, tempfile.TemporaryDirectory(prefix="cp-warm-") as tmp:
            out, err = Path(tmp, "stdout"), Path(tmp, "stderr")
            request = {"args": list(args), "env": dict(env), "cwd": cwd, "stdout": str(out), "stderr": str(err)}
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            pid = json.loads(self.proc.stdout.readline())["pid"]
            done: dict = {}  # the exit status line, read beside the clock
            reader = threading.Thread(target=lambda: done.update(json.loads(self.proc.stdout.readline())))
            reader.start()
            reader.join(timeout)
            ready = not reader.is_alive()
            if not ready:
                os.killpg(pid, signal.SIGKILL)
                reader.join()
            code = done["returncode"]
            stdout, stderr = out.read_text(errors="replace"), err.read_text(errors="replace")
            argv = [sys.executable, *args]
            if not ready:
                raise subprocess.TimeoutExpired(argv, timeout, output=stdout, stderr=stderr)
            return subprocess.CompletedProcess(argv, code, stdout, stderr)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_server: _Server | None = None


def run(args: Sequence[str], env: Mapping[str, str] | None = None, cwd: str | Path | None = None,
        timeout: float | None = None) -> subprocess.CompletedProcess:
    """``subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True,
    timeout=timeout)``, forked from the warm server when ``env`` agrees with it (see the module doc).

    ``args`` starts with ``-m MODULE`` or ``-c CODE``.
    """
    global _server
    if args[0] not in ("-m", "-c"):
        raise ValueError(f"warm_python.run takes -m MODULE or -c CODE, not {args[0]!r}")
    env = dict(os.environ if env is None else env)
    cwd = str(Path(cwd or os.getcwd()).resolve())
    if os.environ.get("CHARTPROBE_TESTS_COLD") != "1":
        if _server is None or _server.proc.poll() is not None:
            _server = _Server()
        if _server.agrees(env):
            return _server.run(args, env, cwd, timeout)
    return subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)
