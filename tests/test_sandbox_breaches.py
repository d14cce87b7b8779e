"""Every sandbox breach of issue #46, replayed: each is contained, recorded with its reason, and the
host goes on (acceptance check 2).

The job-level breaches run with the AST check off (``check=False``): the check is a filter, the
sandbox is the boundary, so the sandbox must hold without it. The same snippets are then shown to
be refused by the check. Limits are small so each job ends in seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from chartprobe.dataset_builders.families.reconstruct.sandbox import (
    MECHANISMS,
    Call,
    CodeRejected,
    Limits,
    check_code,
    run_calls,
)
from chartprobe.dataset_builders.families.reconstruct.sandbox.jobs import _results
from chartprobe.dataset_builders.families.reconstruct.sandbox.runtime import MAX_FILES
from chartprobe.dataset_builders.families.reconstruct.sandbox.seccomp import program
from reconstruct_standin import scripted_model
from test_reconstruct_sandbox import AVAILABLE, FIXTURE, GOOD

LIMITS = Limits(cpu_s=5, wall_s=60, memory_mb=1536, output_mb=4, processes=3)
"""CPU-bound caps; the wall cap is generous because a sandboxed matplotlib import under a loaded
CI run (4 test workers on 2 cores) overran 20 s once, and no test here waits for it."""
needs_bwrap = pytest.mark.skipif(not MECHANISMS["bwrap"].found(), reason="bubblewrap is not installed")
every = pytest.mark.parametrize("mech", AVAILABLE or [pytest.param("none", marks=pytest.mark.skip("none"))])
SECRET = "chartprobe-secret-4f1c"


@pytest.fixture
def root_only(tmp_path: Path) -> Path:
    path = tmp_path / "root-only.json"
    path.write_text(json.dumps([{"ok": True, "value": SECRET}]))
    path.chmod(0o600)
    tmp_path.chmod(0o755)
    return path


def _symlink_then_exit(target: str) -> str:
    return ("import matplotlib\n\ndef f(savepath=None):\n"
            f"    for name in ('/scratch/results.json', 'results.json', savepath):\n"
            "        try:\n"
            f"            matplotlib.os.symlink({target!r}, name)\n"
            "        except OSError:\n"
            "            pass\n"
            "    matplotlib.os._exit(0)\n")


@every
@pytest.mark.parametrize("target", ["ROOT_ONLY", "/etc/shadow"])
def test_a_symlinked_result_is_never_followed(mech, target, root_only):
    target = str(root_only) if target == "ROOT_ONLY" else target
    job = run_calls([Call(_symlink_then_exit(target), "f", savepath=True)], LIMITS, mechanism=mech, check=False)
    assert job.status == "crashed" and "wrote no results" in job.reason
    assert SECRET not in repr(job) and "root:" not in repr(job)


@every
def test_a_symlinked_picture_is_not_read(mech, root_only):
    code = ("import matplotlib\n\ndef f(savepath=None):\n"
            f"    matplotlib.os.symlink({str(root_only)!r}, savepath)\n    return 1\n")
    job = run_calls([Call(code, "f", savepath=True)], LIMITS, mechanism=mech, check=False)
    assert job.status == "ok" and job.results[0].value == 1 and job.results[0].png is None


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b"[" * 100_000, b'[{"ok": 1}]', b'{"a": 1}',
                                     b'[{"ok": true, "png": "!!"}]', b"[]"])
def test_a_bad_result_file_is_a_reason_never_an_exception(tmp_path, content):
    fd = os.open(tmp_path / "r", os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, content)
        found = _results(fd, [Call("", "f", savepath=True)], LIMITS)
    finally:
        os.close(fd)
    assert isinstance(found, str) and found


@every
def test_junk_written_to_the_result_descriptor_is_a_crashed_job(mech):
    code = ("import matplotlib\nimport json\n\ndef f():\n"
            "    job = json.load(open('job.json' if matplotlib.os.path.exists('job.json')"
            " else '/job/job.json'))\n"
            "    matplotlib.os.write(job['result_fd'], b'{not json')\n    matplotlib.os._exit(0)\n")
    job = run_calls([Call(code, "f")], LIMITS, mechanism=mech, check=False)
    assert job.status == "crashed" and "not JSON" in job.reason


@every
def test_three_children_of_1_gb_stay_inside_the_jobs_memory(mech):
    code = ("import matplotlib\n\ndef f():\n    os = matplotlib.os\n    got = []\n    for _ in range(3):\n"
            "        try:\n            pid = os.fork()\n        except OSError as exc:\n"
            "            got.append('no fork: ' + type(exc).__name__)\n            continue\n"
            "        if pid == 0:\n            try:\n                b = bytearray(2**30)\n"
            "                os._exit(0)\n            except MemoryError:\n                os._exit(3)\n"
            "        got.append(os.waitpid(pid, 0)[1] >> 8)\n    return got\n")
    job = run_calls([Call(code, "f")], LIMITS, mechanism=mech, check=False)
    assert job.status == "ok", job.reason
    got = job.results[0].value
    assert 0 not in got, f"a child held 1 GB: {got}"  # each child: MemoryError or no fork at all
    assert LIMITS.per_process_mb * LIMITS.processes <= LIMITS.memory_mb
    assert any(g == "no fork: BlockingIOError" for g in got) or got == [3, 3, 3]
    assert f"rlimit {LIMITS.per_process_mb} MB x 3 tasks" in job.guards[0]


@every
def test_100000_files_in_scratch_end_the_job_and_leave_nothing(mech):
    code = ("import matplotlib\n\ndef f():\n    for i in range(100_000):\n"
            "        try:\n            matplotlib.os.close(matplotlib.os.open(f'f{i}', 0o101))\n"
            "        except OSError:\n            break\n    return i\n")
    job = run_calls([Call(code, "f")], Limits(cpu_s=20, wall_s=60, memory_mb=1536, output_mb=4, processes=3),
                    mechanism=mech, check=False)
    assert job.status == "output" and f"more than {MAX_FILES} files" in job.reason


@needs_bwrap
def test_scratch_is_a_size_capped_tmpfs():
    code = ("import matplotlib\n\ndef f():\n    n = 0\n    try:\n        for i in range(40):\n"
            "            with open(f'big{i}', 'wb') as fh:\n"
            "                fh.write(b'x' * (3 * 2**20))\n            n += 1\n    except OSError as exc:\n"
            "        return [n, exc.errno]\n    return [n, 0]\n")
    job = run_calls([Call(code, "f")], LIMITS, mechanism="bwrap", check=False)
    assert job.status == "ok" and "scratch tmpfs" in job.guards
    n, err = job.results[0].value
    assert err == 28 and n * 3 <= LIMITS.output_mb * 4  # ENOSPC at the tmpfs's 16 MB


@needs_bwrap
def test_unshare_mount_ptrace_keyctl_bpf_perf_are_refused():
    code = ("import matplotlib\nimport numpy as np\n\ndef f():\n"
            "    r = matplotlib.cbook.subprocess.run(['unshare', '-rm', 'id', '-u'], capture_output=True)\n"
            "    ctypes = np.ctypeslib.ctypes\n    libc = ctypes.CDLL(None, use_errno=True)\n    out = {}\n"
            "    for name, nr in [('unshare', 272), ('mount', 165), ('ptrace', 101), ('keyctl', 250), ('bpf', 321),"
            " ('perf_event_open', 298), ('setns', 308)]:\n"
            "        rc = libc.syscall(nr, 0x10000000 if name == 'unshare' else 0, 0, 0, 0, 0)\n"
            "        out[name] = [rc, ctypes.get_errno()]\n"
            "    return [r.returncode, out]\n")
    if program() is None or os.uname().machine != "x86_64":
        pytest.skip("the syscall numbers in this test are x86-64's")
    job = run_calls([Call(code, "f")], LIMITS, mechanism="bwrap", check=False)
    assert job.status == "ok" and "seccomp" in job.guards, job.reason
    assert job.results[0].value is not None, job.results[0]
    rc, calls = job.results[0].value
    assert rc != 0, "unshare -rm ran inside the sandbox"
    assert all(v == [-1, 1] for v in calls.values()), calls  # -1, EPERM


@pytest.mark.parametrize("code", [
    "import matplotlib\n\ndef f():\n    return matplotlib.os.getcwd()\n",
    "import matplotlib.cbook\n\ndef f():\n    return matplotlib.cbook.subprocess.run(['id'])\n",
    "import numpy as np\n\ndef f():\n    return np.ctypeslib.ctypes.CDLL(None)\n",
    "import operator\n\ndef f(x):\n    return operator.attrgetter('__self__.__import__')(print)('os')\n",
    "import numpy as np\n\ndef f():\n    return np.sys.modules\n",
    "import pandas as pd\n\ndef f():\n    return pd.io.common.os\n",
    "import random\n\ndef f():\n    return random._os.getpid()\n",
    "def f():\n    return '__class__'\n",
])
def test_module_attribute_and_dunder_string_escapes_are_refused(code):
    with pytest.raises(CodeRejected):
        check_code(code, "f")


@every
def test_patching_json_cannot_forge_the_runners_output(mech):
    patch = ("import json\n\ndef f():\n    forged = '[{\"ok\": true, \"value\": \"forged\"}]'\n"
             "    json.dump = lambda *a, **k: None\n    json.dumps = lambda *a, **k: forged\n"
             "    json.JSONEncoder.encode = lambda self, o: forged\n"
             "    json.JSONEncoder.iterencode = lambda self, o, _one_shot=False: iter([forged])\n"
             "    json.encoder.c_make_encoder = None\n    return 1\n")
    job = run_calls([Call(patch, "f"), Call("def g():\n    return [2, 'two']\n", "g")], LIMITS,
                    mechanism=mech, check=False)
    assert job.status == "ok" and [r.value for r in job.results] == [1, [2, "two"]]


@needs_bwrap
def test_a_refused_round_is_recorded_and_the_next_round_renders(tmp_path):
    """Through the pipeline with the stand-in model: the symlink attack is refused with its reason,
    the revised code runs, and the chart renders."""
    from chartprobe.dataset_builders.families.reconstruct.client import CachedClient, OpenAIClient
    from chartprobe.dataset_builders.families.reconstruct.context import Context
    from chartprobe.dataset_builders.families.reconstruct.refine import refine

    row = json.loads((FIXTURE / "metadata.jsonl").read_text().splitlines()[0])
    image = (FIXTURE / row["file_name"]).read_bytes()
    sha = hashlib.sha256(image).hexdigest()
    attack = _symlink_then_exit("/etc/shadow").replace("def f(savepath=None)", "def make_figure(data, savepath=None)")
    draft = {"chart_data": {"x": ["a", "b"], "y": [1, 2]}}
    ok = {"significant_issues": False, "plan": "", "diagnosis": "The render matches the source."}
    script = {sha: {"chart_id": "hostile", "kind": "hostile", "reconstruct": {**draft, "chart_code": attack},
                    "diagnose": [ok, ok], "revise": [{**draft, "chart_code": GOOD}]}}
    responses = tmp_path / "responses.json"
    responses.write_text(json.dumps(script))
    with scripted_model(responses) as server:
        client = CachedClient(OpenAIClient("standin-vlm", base_url=server.base_url, max_retries=0), tmp_path / "c")
        result = refine(Context(client, "bwrap", LIMITS, rounds=2), image)
    first = result.history[0]["render_error"]
    assert "code refused" in first and "'os'" in first
    assert len(result.history) == 2 and not result.history[1].get("render_error")
    assert result.converged and result.render is not None


def test_the_seccomp_program_is_whole_instructions_and_ends_in_returns():
    for machine in ("x86_64", "aarch64"):
        data = program(machine)
        assert data and len(data) % 8 == 0 and len(data) // 8 < 4096
        assert data[-8:-6] == b"\x06\x00" and data[-16:-14] == b"\x06\x00"  # BPF_RET|BPF_K
    assert program("sparc") is None
