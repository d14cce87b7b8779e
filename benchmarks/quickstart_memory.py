"""Peak memory of each step of the quick start (``scripts/quickstart.sh``), and of the whole.

Goal (issue 47): the quick start's peak RSS <= 1.5 GB. The steps are the script's own command lines
(read from it, continuation lines joined; ``set``, ``cd``, ``export`` and the install applied or
skipped), each run by ``bash -c`` in a scratch folder that links the repo's ``.venv``, ``scripts``
and ``tests``, so ``hub/`` and ``out/`` land there and not in the checkout. A step's peak is the
largest resident set of its process or of any process it waited for (``os.wait4``'s
``ru_maxrss``: build and validate workers included), as ``/usr/bin/time -v`` would print it.

Then it runs ``benchmarks/eval_memory.py``'s measurement (the quick start's eval with ``--limit 6``,
goal <= 1 GB) on the releases the quick start built, and prints both figures against their goals.

Run: ``python benchmarks/quickstart_memory.py [--keep DIR]`` (the install step is skipped: it
changes nothing in an installed checkout and is pip's memory, not chartprobe's).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "quickstart.sh"
LINKED = (".venv", "scripts", "tests")
GOAL_MB = 1536
EVAL_GOAL_MB = 1024


def steps(script: Path = SCRIPT) -> tuple[dict[str, str], list[str]]:
    """(the environment the script exports, its command lines), from ``script``."""
    env: dict[str, str] = {}
    commands: list[str] = []
    pending = ""
    for raw in script.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        head = line.split()[0]
        if head == "export":
            env.update(item.split("=", 1) for item in shlex.split(line)[1:])
        elif head in ("set", "cd", "echo") or line.startswith("bash scripts/install.sh"):
            continue
        else:
            commands.append(line)
    return env, commands


def run_step(command: str, cwd: Path, env: dict[str, str], prelude: str) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one step; exits on failure with its stderr's tail."""
    start = time.perf_counter()
    proc = subprocess.Popen(["bash", "-c", f"set -euo pipefail\n{prelude}\n{command}"], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"quickstart_memory: step failed: {command[:80]}\n{err[-3000:]}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--keep", type=Path, default=None, help="run in this folder and keep hub/ and out/ there")
    args = p.parse_args(argv)
    exported, commands = steps()
    variables = [c for c in commands if "=" in c.split()[0] and not c.split()[0].startswith(("CHARTPROBE", "HF_"))]
    prelude = "\n".join(variables)  # e.g. CP=.venv/bin/chartprobe, used by every later line
    work = [c for c in commands if c not in variables]
    env = {**os.environ, **exported}
    with tempfile.TemporaryDirectory(prefix="cp-quickstart-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for name in LINKED:
            if not (folder / name).exists():
                (folder / name).symlink_to(ROOT / name)
        rows = []
        for command in work:
            peak, seconds = run_step(command, folder, env, prelude)
            rows.append((peak, seconds, command))
            print(f"{peak:8,.0f} MB {seconds:7.1f} s  {command[:100]}", flush=True)
        # The second figure of the goal: the same eval, --limit 6, on the releases just built.
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from eval_memory import measure

        eval_peak, _ = measure(folder / "hub", 6, Path(tmp))
    top = max(rows)
    print(f"quick start peak RSS {top[0]:,.0f} MB (in: {top[2][:60]}...), goal <= {GOAL_MB:,} MB: "
          f"{'met' if top[0] <= GOAL_MB else 'not met'}; {sum(r[1] for r in rows):.0f} s in all")
    print(f"chartprobe eval, quick start task list, tiny VLM, --limit 6: peak RSS {eval_peak:,.0f} MB, "
          f"goal <= {EVAL_GOAL_MB:,} MB: {'met' if eval_peak <= EVAL_GOAL_MB else 'not met'}")


if __name__ == "__main__":
    main()
