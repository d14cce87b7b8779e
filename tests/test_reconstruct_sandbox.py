"""The sandbox for model-written code: good code runs, hostile code is contained (issue #15, check 2).

Each hostile snippet runs twice over: the AST check must refuse it (where it is refusable), and
the sandbox must contain it with the check switched off (``check=False``), because the check is a
filter and the sandbox is the boundary. Containment is asserted on the host's side: no file
appears outside the scratch folder, a loopback listener on the host sees no connection, the job
ends within its limits with the recorded status, no process of the job survives it, and this
(host) process goes on. Limits are small so each snippet ends in seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct.sandbox import (
    MECHANISMS,
    STATUSES,
    Call,
    CodeRejected,
    Limits,
    check_code,
    mechanisms,
    probe,
    run_calls,
    runner,
    runtime,
)
from reconstruct_standin import scripted_model

# bwrap when installed (it must then work: a broken install fails these tests rather than skipping
# them), the unshare fallback where it works on this machine
AVAILABLE = [m for m in MECHANISMS if (m == "bwrap" and MECHANISMS[m].found()) or (m != "bwrap" and not probe(m))]
ISOLATING = [m for m in AVAILABLE if MECHANISMS[m].isolates_files]
LIMITS = Limits(cpu_s=2, wall_s=6, memory_mb=1536, output_mb=4, processes=3)  # 512 MB a task
FIXTURE = Path(__file__).parent / "fixtures" / "reconstruct"

needs_bwrap = pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed "
                                 "(scripts/install.sh installs it)")
every = pytest.mark.parametrize("mech", AVAILABLE or [pytest.param("none", marks=pytest.mark.skip("no mechanism"))])
isolating = pytest.mark.parametrize("mech", ISOLATING or [pytest.param("none", marks=pytest.mark.skip("no bwrap"))])

GOOD = '''\
"""A bar chart that returns its total."""
import matplotlib.pyplot as plt
import numpy as np


def make_figure(data, savepath=None):
    fig, ax = plt.subplots(figsize=(3, 2), dpi=60)
    ax.bar(data["x"], data["y"])
    if savepath:
        fig.savefig(savepath)
    return np.sum(data["y"])
'''


def _job_processes() -> int:
    """Processes, zombies included, of the users jobs run as (runtime.JOB_UIDS when we are root), and
    every process whose parent is this one (a wrapper left behind)."""
    uids = {str(runtime.job_uid())} if os.geteuid() == 0 else set()
    me = str(os.getpid())
    n = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(ln.split(":", 1) for ln in status.read_text().splitlines() if ":" in ln)
        except OSError:
            continue
        n += bool(set(fields.get("Uid", "").split()[:1]) & uids) or fields.get("PPid", "").strip() == me
    return n


def _one(code: str, function: str = "f", *args, mech: str, limits: Limits = LIMITS, check: bool = False):
    before = _job_processes()
    start = time.monotonic()
    job = run_calls([Call(code, function, args)], limits, mechanism=mech, check=check)
    took = time.monotonic() - start
    assert job.status in STATUSES and job.mechanism == mech
    assert took < limits.wall_s + 5, f"the job outlived its wall limit: {took:.1f} s"
    # Polled, not one fixed pause: a killed tree takes a moment to be reaped, and on a loaded
    # machine another test worker's sandbox job may be passing through.
    deadline = time.monotonic() + 10
    while _job_processes() > before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _job_processes() <= before, "a process of the job outlived it"
    assert os.fork is not None and os.getpid() > 0  # the host goes on (this line runs at all)
    return job


def _refused(code: str, function: str = "f") -> None:
    with pytest.raises(CodeRejected):
        check_code(code, function)


# -- good code --------------------------------------------------------------------------------------


@every
def test_good_code_runs_renders_and_returns_json(mech):
    calls = [Call(GOOD, "make_figure", ({"x": ["a", "b"], "y": [1, 2]},), savepath=True),
             Call("def f(x):\n    return 1 / x\n", "f", (0,)),
             Call("import numpy as np\n\ndef f(n):\n    return np.arange(n)\n", "f", (3,))]
    job = run_calls(calls, LIMITS, mechanism=mech)
    assert (job.status, job.reason) == ("ok", "")
    shot, raised, array = job.results
    assert shot.ok and shot.value == 3 and shot.png.startswith(b"\x89PNG")
    assert not raised.ok and raised.error.startswith("ZeroDivisionError") and "line 2" in raised.error
    assert array.ok and array.value == [0, 1, 2]


@every
def test_each_call_gets_a_fresh_namespace_and_the_same_bytes_twice(mech):
    code = "import random\n\ndef f(seed):\n    random.seed(seed)\n    return random.random()\n"
    leak = "def g():\n    return 'f' in dir()\n"
    a = run_calls([Call(code, "f", (1,)), Call(leak, "g")], LIMITS, mechanism=mech).results
    b = run_calls([Call(code, "f", (1,))], LIMITS, mechanism=mech).results
    assert a[0].value == b[0].value and a[1].value is False
    shots = [run_calls([Call(GOOD, "make_figure", ({"x": ["a"], "y": [2]},), savepath=True)], LIMITS,
                       mechanism=mech).results[0].png for _ in range(2)]
    assert shots[0] == shots[1]


@every
def test_code_runs_unprivileged_without_the_hosts_environment(mech, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-of-the-host")
    code = ("import os\n\ndef f():\n    caps = open('/proc/self/status').read().split('CapEff:')[1].split()[0]\n"
            "    return [os.getuid(), int(caps, 16), sorted(os.environ)]\n")
    job = _one(code, mech=mech)
    uid, caps, env = job.results[0].value
    assert uid != 0 and caps == 0
    assert "OPENAI_API_KEY" not in env and "PYTHONPATH" not in env


@needs_bwrap
def test_an_installed_bwrap_works_and_comes_first():
    assert probe("bwrap") == ""
    assert mechanisms()[0] == "bwrap"


def test_runner_and_host_agree_on_exit_codes():
    assert (runner.EXIT_MEMORY, runner.EXIT_OUTPUT, runner.EXIT_CPU) == \
        (runtime.EXIT_MEMORY, runtime.EXIT_OUTPUT, runtime.EXIT_CPU)


# -- hostile code, one test per snippet -------------------------------------------------------------


@every
def test_socket_to_the_internet_makes_no_connection(mech):
    code = ("import socket\n\ndef f():\n    s = socket.create_connection(('1.1.1.1', 53), timeout=3)\n"
            "    return 'connected'\n")
    _refused(code)
    job = _one(code, mech=mech)
    # bwrap: "Network is unreachable"; the error's type may differ by mechanism, never the outcome
    assert job.status == "ok" and not job.results[0].ok and job.results[0].error


@every
def test_socket_to_a_listener_on_the_hosts_loopback_makes_no_connection(mech):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    accepted: list = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    code = ("import socket\n\ndef f(port):\n    socket.create_connection(('127.0.0.1', port), timeout=2)\n"
            "    return 'connected'\n")
    _refused(code)
    try:
        job = _one(code, "f", server.getsockname()[1], mech=mech)
    finally:
        stop.set()
        thread.join()
        server.close()
    assert not accepted
    error = job.results[0].error  # refused (bwrap: its own loopback) or unreachable (unshare: lo is down)
    assert job.status == "ok" and not job.results[0].ok
    assert "ConnectionRefusedError" in error or "Network is unreachable" in error, error


@isolating
def test_reading_etc_passwd_finds_nothing(mech):
    code = "def f():\n    return open('/etc/passwd').read()\n"
    _refused(code)
    job = _one(code, mech=mech)
    assert job.status == "ok" and not job.results[0].ok and "FileNotFoundError" in job.results[0].error


@isolating
def test_the_home_folder_and_the_checkout_are_out_of_sight(mech):
    code = ("import os\n\ndef f(paths):\n    seen = {}\n    for p in paths:\n        try:\n"
            "            seen[p] = os.listdir(p) if os.path.isdir(p) else open(p).read()[:20]\n"
            "        except OSError as e:\n            seen[p] = type(e).__name__\n    return seen\n")
    _refused(code)
    paths = [str(Path.home()), str(Path(__file__).resolve()), str(Path(__file__).resolve().parent.parent),
             str(Path.home() / ".ssh")]
    job = _one(code, "f", paths, mech=mech)
    seen = job.results[0].value
    assert job.status == "ok" and set(seen) == set(paths)
    # a folder above a read-only bind of the interpreter (/root above /root/.pyenv) exists, holding
    # just that bind; nothing else of the host shows
    binds = {part for b in runtime.interpreter_binds() for part in b.parts}
    for path, what in seen.items():
        assert what in ("FileNotFoundError", "PermissionError") or (isinstance(what, list) and set(what) <= binds), \
            (path, what)


@every
def test_writing_outside_scratch_leaves_nothing_on_the_host(mech, tmp_path):
    tmp_path.chmod(0o777)  # even a folder the job's user could write to on the host stays untouched
    name = f"chartprobe-escape-{uuid.uuid4().hex}"
    targets = [f"/tmp/{name}", str(tmp_path / name), str(Path.home() / name), f"{sys.prefix}/{name}",
               str(Path(__file__).resolve().parent / name)]
    code = ("def f(paths):\n    done = []\n    for p in paths:\n        try:\n            with open(p, 'w') as fh:\n"
            "                fh.write('escaped')\n            done.append(p)\n        except OSError:\n"
            "            pass\n    return done\n")
    _refused(code)
    job = _one(code, "f", targets, mech=mech)
    assert job.status == "ok"
    on_host = [t for t in targets if Path(t).exists()]
    if MECHANISMS[mech].isolates_files:
        assert on_host == []
    else:  # unshare hides no files: only what the unprivileged user may write anyway can appear
        assert all(os.access(Path(t).parent, os.W_OK) for t in on_host)
        for t in on_host:
            Path(t).unlink()
        assert str(Path(__file__).resolve().parent / name) not in on_host


@every
def test_an_infinite_loop_is_stopped_by_the_cpu_limit(mech):
    code = "def f():\n    while True:\n        pass\n"
    check_code(code, "f")  # legal code: only the sandbox can stop it
    job = _one(code, mech=mech, check=True)
    assert job.status == "cpu" and "CPU" in job.reason and job.wall_s < LIMITS.wall_s
    assert job.results == ()


@every
def test_sleeping_forever_is_stopped_by_the_wall_limit(mech):
    code = "import time\n\ndef f():\n    time.sleep(10_000)\n"
    job = _one(code, mech=mech)
    assert job.status == "timeout" and "wall" in job.reason
    assert LIMITS.wall_s <= job.wall_s < LIMITS.wall_s + 3


@every
def test_a_fork_bomb_hits_the_process_limit(mech):
    code = "import os\n\ndef f():\n    while True:\n        os.fork()\n"
    _refused(code)
    job = _one(code, mech=mech)
    assert job.status in ("ok", "timeout", "cpu")
    if job.status == "ok":
        assert "BlockingIOError" in job.results[0].error or "Resource temporarily" in job.results[0].error
    child = os.fork()  # the host can still start processes
    if child == 0:
        os._exit(0)
    assert os.waitpid(child, 0)[1] == 0


@every
def test_jobs_at_once_do_not_share_the_process_limit(mech):
    """Three jobs in flight together, each holding two tasks (itself and a child) of its three: each
    forks. As root the jobs once all ran as uid 65534, whose RLIMIT_NPROC count then held the other
    jobs' tasks too, and a fork failed with EAGAIN whenever another worker's job was running (a CI
    run's sandbox test, issue 47). Not as root, the limit adds the user's tasks counted at launch."""
    code = ("import matplotlib\n\ndef f():\n"
            "    child = matplotlib.cbook.subprocess.Popen(['sleep', '4'])\n"
            "    return child.wait()\n")
    jobs: list = [None] * 3
    start = threading.Barrier(len(jobs))

    def one(i: int) -> None:
        start.wait()
        jobs[i] = run_calls([Call(code, "f")], Limits(cpu_s=2, wall_s=20, memory_mb=1536, output_mb=4,
                                                      processes=3), mechanism=mech, check=False)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [(j.status, j.results[0].value, j.results[0].error) for j in jobs] == [("ok", 0, "")] * 3


@every
def test_allocating_8_gb_is_stopped_by_the_memory_limit(mech):
    code = "def f():\n    block = bytearray(8 * 2**30)\n    return len(block)\n"
    check_code(code, "f")
    job = _one(code, mech=mech, check=True)
    assert job.status == "memory" and f"{LIMITS.memory_mb} MB" in job.reason


@every
def test_numpy_allocating_8_gb_is_stopped_by_the_memory_limit(mech):
    code = "import numpy as np\n\ndef f():\n    return float(np.ones(2**30).sum())\n"
    job = _one(code, mech=mech, check=True)
    assert job.status == "memory"


@every
def test_printing_1_gb_is_stopped_by_the_output_limit(mech):
    code = "def f():\n    line = 'x' * 2**20\n    for _ in range(1024):\n        print(line)\n"
    check_code(code, "f")
    job = _one(code, mech=mech, check=True)
    assert job.status == "output" and f"{LIMITS.output_mb} MB" in job.reason


@every
def test_a_huge_file_in_scratch_is_stopped_by_the_output_limit(mech):
    code = "def f():\n    with open('big.bin', 'wb') as fh:\n        fh.write(b'0' * 2**30)\n"
    job = _one(code, mech=mech)
    assert job.status in ("output", "memory")


# -- the AST check ----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [
    "import numpy as np\nimport matplotlib.pyplot as plt\n\ndef f(data):\n    return np.mean(data['y'])\n",
    '"""Doc."""\nfrom collections import Counter\n\ndef f(data):\n    """Doc."""\n    return Counter(data)\n',
])
def test_check_accepts_the_contract(code):
    check_code(code, "f")


@pytest.mark.parametrize("code, why", [
    ("import os\n\ndef f():\n    return 1\n", "import of 'os'"),
    ("from subprocess import run\n\ndef f():\n    return 1\n", "import of 'subprocess'"),
    ("def f():\n    import importlib\n    return 1\n", "import of 'importlib'"),
    ("def f():\n    return eval('1')\n", "'eval'"),
    ("def f():\n    return __import__('os')\n", "'__import__'"),
    ("def f():\n    return ().__class__.__bases__[0].__subclasses__()\n", "dunder attribute"),
    ("def f():\n    return getattr(f, 'x')\n", "'getattr'"),
    ("def f():\n    return 1\n\ndef g():\n    return 2\n", "exactly one top-level function"),
    ("def g():\n    return 1\n", "exactly one top-level function"),
    ("X = 1\n\ndef f():\n    return X\n", "only imports and one function"),
    ("from numpy import *\n\ndef f():\n    return 1\n", "import *"),
    ("def f(:\n", "syntax error"),
])
def test_check_refuses_with_a_message(code, why):
    with pytest.raises(CodeRejected) as info:
        check_code(code, "f")
    assert why in str(info.value)


def test_limits_must_be_positive():
    with pytest.raises(ValueError, match="cpu_s"):
        Limits(cpu_s=0)


# -- hostile code through the pipeline, served by the stand-in model -------------------------------


@needs_bwrap
def test_hostile_reconstruction_from_the_standin_is_contained_and_rejected(tmp_path):
    """The model's reconstruction opens a socket, then loops forever; each round's reason is kept."""
    from chartprobe.dataset_builders.families.reconstruct.client import CachedClient, OpenAIClient
    from chartprobe.dataset_builders.families.reconstruct.context import Context
    from chartprobe.dataset_builders.families.reconstruct.refine import refine

    row = json.loads((FIXTURE / "metadata.jsonl").read_text().splitlines()[0])
    image = (FIXTURE / row["file_name"]).read_bytes()
    sha = hashlib.sha256(image).hexdigest()
    sock = ("import socket\n\ndef make_figure(data, savepath=None):\n"
            "    socket.create_connection(('1.1.1.1', 80), timeout=2)\n")
    loop = "def make_figure(data, savepath=None):\n    while True:\n        pass\n"
    draft = {"chart_data": {"values": [1, 2]}}
    script = {sha: {"chart_id": "hostile", "kind": "hostile",
                    "reconstruct": {**draft, "chart_code": sock},
                    "diagnose": [], "revise": [{**draft, "chart_code": loop}]}}
    responses = tmp_path / "responses.json"
    responses.write_text(json.dumps(script))
    with scripted_model(responses) as server:
        client = CachedClient(OpenAIClient("standin-vlm", base_url=server.base_url, max_retries=0),
                              tmp_path / "cache")
        result = refine(Context(client, "bwrap", LIMITS, rounds=2), image)
    assert not result.converged and result.render is None
    first, second = (h["render_error"] for h in result.history)
    assert "code refused" in first and "socket" in first
    assert "sandbox (bwrap) stopped the code: cpu" in second
    assert "no convergence" in result.reason
