"""The child side of a sandboxed job (standard library only; it never imports chartprobe).

Run as ``python -I -B runner.py SCRATCH``: reads ``SCRATCH/job.json``, drops to an unprivileged
user when started as root, then runs each call in a fresh namespace and writes
``SCRATCH/results.json``. A call that raises is recorded with its exception and the job goes on;
running out of memory or past the output limit ends the job with its own exit code, which the host
maps to a status. A process the code forked never returns into the loop: only the runner itself
writes results.
"""

import builtins
import errno
import json
import os
import signal
import sys
import traceback

EXIT_MEMORY = 86
EXIT_OUTPUT = 87
EXIT_CPU = 88


def _plain(value):
    """JSON for what numeric code returns: numpy/pandas scalars and arrays, tuples, sets."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def _close_figures():
    # Keep one call's figures out of the next call's memory and pictures.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def _call(index, call, scratch):
    namespace = {"__name__": "sandboxed", "__builtins__": builtins}
    kwargs = {}
    if call.get("savepath"):
        kwargs["savepath"] = os.path.join(scratch, f"out_{index}.png")
    try:
        # running model-written code is this process's purpose: it is what the sandbox contains
        exec(compile(call["code"], f"<model code: {call['function']}>", "exec"), namespace)  # noqa: S102
        function = namespace.get(call["function"])
        if not callable(function):
            raise TypeError(f"the code defines no function {call['function']!r}")
        value = function(*call.get("args", []), **kwargs)
        value = json.loads(json.dumps(value, default=_plain))
        return {"ok": True, "value": value}
    except MemoryError:
        raise
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise
        return {"ok": False, "error": _error(exc)}
    except BaseException as exc:  # noqa: BLE001 - model code may raise anything, SystemExit included
        return {"ok": False, "error": _error(exc)}
    finally:
        _close_figures()


def _error(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"line {f.lineno}" for f in reversed(frames) if f.filename.startswith("<model code")), "")
    text = f"{type(exc).__name__}: {exc}"[:800]
    return f"{text} ({where})" if where else text


def _warm(modules):
    """Load the contract's modules and draw once, before the switch to the unprivileged user: in
    the unshare fallback the host's interpreter may sit where that user cannot read (/root/.pyenv)."""
    import importlib
    import io

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:  # not installed: code importing it fails in its own call, as it would anyway
            continue
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(["a"], [1])
    fig.savefig(io.BytesIO(), format="png")
    plt.close("all")


def main(scratch):
    # Report the CPU soft limit ourselves: not every wrapper passes on a signal death (util-linux
    # 2.38's unshare exits 1). A long C call defers this; the hard limit's SIGKILL then ends it.
    signal.signal(signal.SIGXCPU, lambda *_: os._exit(EXIT_CPU))
    with open(os.path.join(scratch, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    uid = job.get("drop_to")
    if uid is not None and os.getuid() == 0:
        if job.get("warm"):
            _warm(job["warm"])
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)  # clears every capability: the code runs unprivileged
    me = os.getpid()
    results = []
    try:
        for index, call in enumerate(job["calls"]):
            results.append(_call(index, call, scratch))
            if os.getpid() != me:
                os._exit(0)  # a fork of the model code: leave quietly
    except MemoryError:
        os._exit(EXIT_MEMORY)
    except OSError:  # EFBIG: a file or the output passed the size limit
        os._exit(EXIT_OUTPUT)
    part = os.path.join(scratch, "results.json.part")
    try:
        with open(part, "w", encoding="utf-8") as f:
            json.dump(results, f)
    except OSError:
        os._exit(EXIT_OUTPUT)
    os.replace(part, os.path.join(scratch, "results.json"))


if __name__ == "__main__":
    main(sys.argv[1])
